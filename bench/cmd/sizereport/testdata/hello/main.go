// Command hello is the small program sizereport's test reports on.
package main

import (
	"fmt"
	"strings"
)

func main() {
	fmt.Println(greeting("wasm"))
}

// greeting is a function of package main that the report must find.
func greeting(name string) string {
	return "hello, " + strings.ToUpper(name)
}
