//go:build !js

package e2e

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/wasm/link"
	"tapelab/web"
)

// BenchmarkStepRedrawPairs compares the step redraw of two or more builds
// of the page, as BenchmarkStartupPairs compares their start-up:
// $TAPELAB_BENCH_PAIRS lists their static folders, the first the
// baseline, each served by a server of its own. Each round opens the long
// model (BenchmarkStepRedraw60's, 60+ nodes, with the motion) on each
// build in turn in one browser, the order rotating, and times 60 steps
// from a page that has just finished starting up, as BenchmarkStepRedraw60
// does; it logs the
// per-build medians of each round's mean, median and 95th percentile, and
// against the baseline the median of the per-round differences with
// their quartiles (run it with -benchtime 10x or more: fewer than 5 rounds
// print nothing). Without $TAPELAB_BENCH_PAIRS it is skipped.
func BenchmarkStepRedrawPairs(b *testing.B) {
	dirs := strings.Fields(os.Getenv("TAPELAB_BENCH_PAIRS"))
	if len(dirs) < 2 {
		b.Skip("set TAPELAB_BENCH_PAIRS to two or more static folders to compare")
	}
	frag := longLinkAt(b, link.Position{Phase: link.PhaseForward, Node: 40})
	urls := make([]string, len(dirs))
	var p *pgTab
	for i, d := range dirs {
		h, err := web.NewHandler(web.Options{Static: os.DirFS(d), Precompress: true})
		if err != nil {
			b.Fatalf("%s: %v", d, err)
		}
		if i == 0 {
			p = openPlaygroundOn(b, screens[4].w, screens[4].h, h, time.Hour)
			urls[i] = p.js(`location.origin + "/"`)
			continue
		}
		urls[i] = startServer(b, h).URL + "/"
	}
	for _, u := range urls {
		waitBrotli(b, u+"tapelab.wasm")
	}
	figures := []string{"mean", "p50", "p95"}
	runs := make([]map[string][]float64, len(urls))
	for i := range runs {
		runs[i] = map[string][]float64{}
	}
	for round := 0; round < b.N; round++ {
		for k := range urls {
			j := (k + round) % len(urls)
			if err := chromedp.Do(p.tab, chromedp.Navigate("about:blank"), chromedp.Navigate(urls[j]+"#"+frag)); err != nil {
				b.Fatal(err)
			}
			// As in BenchmarkStepRedraw60, whose fresh server is still
			// compressing the wasm when the page opens: the first step
			// comes once the page has finished starting up.
			p.waitFor(`document.querySelectorAll("#tape [data-node]").length >= 60 && document.getElementById("app").hasAttribute("data-go-mallocs")`, "the long model's tape")
			// And the link encoded after it. A time, not the page's
			// data-link-synced: the builds compared may predate it.
			time.Sleep(time.Second)
			times, _ := stepTimes(b, p, 60)
			sum := 0.0
			for _, x := range times {
				sum += x
			}
			runs[j]["mean"] = append(runs[j]["mean"], sum/float64(len(times)))
			runs[j]["p50"] = append(runs[j]["p50"], quantile(times, 0.5))
			runs[j]["p95"] = append(runs[j]["p95"], quantile(times, 0.95))
		}
	}
	if b.N < 5 {
		return
	}
	fmt.Print(pairsReport(b.N, " of 60 steps", dirs, figures, runs))
}
