// Command benchreport reads the contenders' JSON result lines on standard
// input and prints the comparison table followed by the RATIO lines.
package main

import (
	"fmt"
	"os"

	"tapelab/bench"
)

func main() {
	results, err := bench.ReadResults(os.Stdin)
	if err == nil && len(results) == 0 {
		err = fmt.Errorf("no results on standard input")
	}
	if err == nil {
		err = bench.Report(os.Stdout, results)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "benchreport:", err)
		os.Exit(1)
	}
}
