//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"runtime"
	"strconv"
)

// exposeMemStats makes the Go heap's counters readable from the page's
// console and the e2e benchmarks: tapelabMemStats("") returns "mallocs
// bytes gcs pause-ns", the objects and bytes allocated, the collections
// run and their pauses, each counted since the page started. A benchmark
// reads it before and after a step to learn what the step allocated.
func exposeMemStats(doc *dom.Document) {
	dom.Expose(doc, "tapelabMemStats", func(string) (string, error) {
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		return strconv.FormatUint(m.Mallocs, 10) + " " + strconv.FormatUint(m.TotalAlloc, 10) + " " +
			strconv.FormatUint(uint64(m.NumGC), 10) + " " + strconv.FormatUint(m.PauseTotalNs, 10), nil
	})
}
