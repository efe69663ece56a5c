// Command datademo prints values that live in a Go program's data section
// (strings, a sparse array, a map literal, type descriptors read by fmt),
// for the test that runs it before and after its data segments are merged.
package main

import (
	"fmt"
	"sort"
)

var sparse = [4096]int64{3: 1, 100: -2, 117: 3, 2000: 4, 4095: 5}

var names = map[string][]string{
	"ops":    {"matmul", "relu", "tanh", "softmax"},
	"layers": {"linear", "conv", "dropout"},
}

type point struct {
	X, Y float64
	Name string
}

func main() {
	sum := int64(0)
	for i, v := range sparse {
		sum += int64(i) * v
	}
	fmt.Println("sparse sum", sum)
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Printf("%s: %q\n", k, names[k])
	}
	fmt.Printf("%+v\n", point{1.5, -2.25, "p"})
}
