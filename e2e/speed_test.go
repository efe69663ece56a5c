//go:build !js

package e2e

import (
	"bytes"
	"compress/gzip"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/chromedp"
)

// wasmBudget is the most the page's wasm should weigh brotli'd (issue 5).
const wasmBudget = 1_000_000

// BenchmarkWasmSize reports the page's wasm as built by TestMain: bytes raw,
// gzip -9 and brotli -q 11, and brotli as a fraction of the 1 MB budget.
func BenchmarkWasmSize(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join(staticDir, "tapelab.wasm"))
	if err != nil {
		b.Fatalf("no built wasm: %v", err)
	}
	t := b
	var gz, br bytes.Buffer
	zw, _ := gzip.NewWriterLevel(&gz, gzip.BestCompression)
	zw.Write(raw)
	zw.Close()
	// The brotli command is much faster than the Go encoder at quality 11.
	if exe, err := exec.LookPath("brotli"); err == nil {
		cmd := exec.Command(exe, "-q", "11", "-c")
		cmd.Stdin, cmd.Stdout = bytes.NewReader(raw), &br
		if err := cmd.Run(); err != nil {
			t.Fatalf("brotli: %v", err)
		}
	} else {
		bw := brotli.NewWriterLevel(&br, brotli.BestCompression)
		bw.Write(raw)
		bw.Close()
	}
	for range b.N {
	}
	b.ReportMetric(float64(len(raw)), "raw-bytes")
	b.ReportMetric(float64(gz.Len()), "gzip-bytes")
	b.ReportMetric(float64(br.Len()), "brotli-bytes")
	b.ReportMetric(float64(br.Len())/wasmBudget, "of-budget")
}

// bigModel grows the default model with the editor until the tape has at
// least 60 nodes.
func bigModel(p *pgTab) int {
	for p.num(`document.querySelectorAll("#tape [data-node]").length`) < 60 {
		typ := "linear"
		if int(p.num(`document.querySelectorAll("#layers .layer[data-layer]").length`))%2 == 1 {
			typ = "tanh"
		}
		p.do("choosing "+typ, chromedp.SetValue(chromedp.ID("add-type"), typ))
		p.clickAndRedraw("add-layer")
	}
	return int(p.num(`document.querySelectorAll("#tape [data-node]").length`))
}

// stepTiming clicks Step and returns, measured in the page, the time from
// the click to the redrawn and laid-out page (ms), and whether the redraw
// finished before click() returned.
const stepTiming = `(() => {
  const pg = document.getElementById("playground");
  const r0 = +pg.dataset.redraws;
  const t0 = performance.now();
  document.getElementById("step").click();
  const sync = +pg.dataset.redraws > r0;
  document.body.getBoundingClientRect(); // force style and layout
  return [performance.now() - t0, sync ? 1 : 0];
})()`

// BenchmarkStepRedraw60 measures a forward or backward step's redraw on a
// tape of 60+ nodes, in headless Chromium: ms/step is the mean, p50-ms the
// median and p95-ms the 95th percentile, from the click to a laid-out page.
func BenchmarkStepRedraw60(b *testing.B) {
	p := openPlayground(b, 1280, 720)
	nodes := bigModel(p)
	var times []float64
	async := 0
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p.js(`document.getElementById("count-backward").textContent.split(" ")[1].split("/").reduce((a, b) => a === b)`) == "true" {
			b.StopTimer()
			p.clickAndRedraw("reset")
			b.StartTimer()
		}
		r, err := chromedp.Run(p.tab, chromedp.Evaluate[[]float64](stepTiming))
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, r[0])
		if r[1] == 0 {
			async++
		}
	}
	b.StopTimer()
	if async > 0 {
		b.Fatalf("%d of %d redraws finished after click() returned: the in-page timing would not cover them", async, len(times))
	}
	sort.Float64s(times)
	sum := 0.0
	for _, x := range times {
		sum += x
	}
	b.ReportMetric(sum/float64(len(times)), "ms/step")
	b.ReportMetric(times[len(times)/2], "p50-ms")
	b.ReportMetric(times[len(times)*95/100], "p95-ms")
	b.ReportMetric(float64(nodes), "nodes")
}

// BenchmarkNavigationToInteractive measures, per navigation, the time from
// navigation start to the playground's first drawing (Go's own mark,
// data-rendered-ms) and to the tape being visible as chromedp sees it.
func BenchmarkNavigationToInteractive(b *testing.B) {
	p := openPlayground(b, 1280, 720)
	url := p.js(`location.origin + "/"`)
	var inPage, seen float64
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		if err := chromedp.Do(p.tab, chromedp.Navigate("about:blank")); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		start := time.Now()
		if err := chromedp.Do(p.tab, chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#tape [data-node]"))); err != nil {
			b.Fatal(err)
		}
		seen += float64(time.Since(start).Microseconds()) / 1000
		inPage += p.num(`document.getElementById("app").dataset.renderedMs`)
	}
	b.ReportMetric(inPage/float64(b.N), "ms-rendered")
	b.ReportMetric(seen/float64(b.N), "ms-seen")
}
