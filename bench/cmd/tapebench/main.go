// Command tapebench runs the speed workloads on TapeLab's engine and prints
// one JSON line per workload. ./build.sh bench runs it natively and compiled
// to wasm under node, beside the TensorFlow.js and PyTorch contenders.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime"

	"tapelab/bench"
)

func main() {
	name := flag.String("name", "tapelab-native", "contender name to report")
	only := flag.String("workload", "", "run only this workload (tiny, big or cnn)")
	heap := flag.Int("heapcheck", 0, "instead of timing, run this many steps of one workload (tiny, or -workload's) and report heap growth")
	flag.Parse()
	if *heap > 0 {
		w := bench.Workloads()[0]
		for _, c := range bench.Workloads() {
			if c.Name == *only {
				w = c
			}
		}
		if err := heapCheck(*name, w, *heap); err != nil {
			fmt.Fprintln(os.Stderr, "tapebench:", err)
			os.Exit(1)
		}
		return
	}
	for _, w := range bench.Workloads() {
		if *only != "" && *only != w.Name {
			continue
		}
		r, err := bench.Measure(*name, w)
		if err != nil {
			fmt.Fprintln(os.Stderr, "tapebench:", err)
			os.Exit(1)
		}
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
	}
}

// heapCheck runs n steps of workload w after a warm-up and prints the live
// heap before and after (after a GC each time), to show that steady
// training does not grow the heap. Without the timing it is also what an
// instruction counter runs (bench/README.md).
func heapCheck(name string, w bench.Workload, n int) error {
	t := bench.NewTrainer(w)
	for i := 0; i < min(100, w.Warmup); i++ {
		if _, err := t.Step(); err != nil {
			return err
		}
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	for i := 0; i < n; i++ {
		if _, err := t.Step(); err != nil {
			return err
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&after)
	fmt.Printf("HEAP %s workload=%s steps=%d heap_before=%d heap_after=%d growth=%d mallocs_per_step=%.3f\n", name, w.Name, n,
		before.HeapAlloc, after.HeapAlloc, int64(after.HeapAlloc)-int64(before.HeapAlloc),
		float64(after.Mallocs-before.Mallocs)/float64(n))
	return nil
}
