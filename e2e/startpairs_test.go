//go:build !js

package e2e

import (
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"tapelab/web"
	"tapelab/web/firstview"
)

// pairedMilestones are the start-up figures BenchmarkStartupPairs
// compares, from bootTimeline (go-main→interactive: from Go's main until
// interactive, the part of start-up the page's Go code sets).
var pairedMilestones = []string{"first-paint", "largest-paint", "wasm-last-byte", "wasm-compiled", "go-main", "interactive", "painted",
	"go-main→interactive", "go-ran", "go-longest-task", "go-blocking-4x", "long-tasks", "blocking-ms", "js-calls@interactive"}

// BenchmarkStartupPairs compares the start-up of two or more builds of
// the page: $TAPELAB_BENCH_PAIRS lists their static folders (copies of
// static/ after each build's `go run . build`), the first the baseline.
// Each is served by a server of its own, as `go run .` serves it (with
// the server's first view, this tree's); one browser navigates to each
// in turn, b.N rounds (the order rotating), so that the machine's drift,
// which moves every figure by 10-20% within an hour, falls on all of
// them alike. It logs each figure's median per build and, against the
// baseline, the median of the per-round differences with their
// quartiles, printed (run it with -benchtime 30x: fewer than 5 rounds
// print nothing). ($TAPELAB_BENCH_NOCACHE=1 disables the HTTP cache;
// $TAPELAB_BENCH_NET="150 1600", a latency in ms and a throughput in
// kbit/s, throttles every request as DevTools does, to compare the builds
// on a slow network — 150 ms and 1,600 kbit/s are Lighthouse's mobile
// preset; use it with $TAPELAB_BENCH_NOCACHE=1, as what the HTTP cache
// answers is not throttled.) Without $TAPELAB_BENCH_PAIRS it is skipped:
// it measures changes, not the page.
func BenchmarkStartupPairs(b *testing.B) {
	dirs := strings.Fields(os.Getenv("TAPELAB_BENCH_PAIRS"))
	if len(dirs) < 2 {
		b.Skip("set TAPELAB_BENCH_PAIRS to two or more static folders to compare")
	}
	urls := make([]string, len(dirs))
	var p *pgTab
	for i, d := range dirs {
		h, err := web.NewHandler(web.Options{Static: os.DirFS(d), Precompress: true, FirstView: firstview.Page})
		if err != nil {
			b.Fatalf("%s: %v", d, err)
		}
		if i == 0 {
			p = openPlaygroundOn(b, 1280, 720, h, time.Hour)
			urls[i] = p.js(`location.origin + "/"`)
			continue
		}
		urls[i] = startServer(b, h).URL + "/"
	}
	if _, err := chromedp.Call(p.tab, page.AddScriptToEvaluateOnNewDocument,
		page.AddScriptToEvaluateOnNewDocumentParams{Source: bootProbe}); err != nil {
		b.Fatal(err)
	}
	enableNetwork(b, p.tab)
	if _, err := chromedp.Call(p.tab, network.SetCacheDisabled,
		network.SetCacheDisabledParams{CacheDisabled: os.Getenv("TAPELAB_BENCH_NOCACHE") != ""}); err != nil {
		b.Fatal(err)
	}
	for _, u := range urls {
		waitBrotli(b, u+"tapelab.wasm")
	}
	throttle(b, p, os.Getenv("TAPELAB_BENCH_NET"))
	runs := make([]map[string][]float64, len(urls))
	for i := range runs {
		runs[i] = map[string][]float64{}
	}
	// A first round warms the browser and the servers; it is not counted.
	for round := -1; round < b.N; round++ {
		for k := range urls {
			j := (k + max(round, 0)) % len(urls)
			tl := navigateOnce(b, p, urls[j])
			tl["go-main→interactive"] = tl["interactive"] - tl["go-main"]
			if round < 0 {
				continue
			}
			for _, m := range pairedMilestones {
				runs[j][m] = append(runs[j][m], tl[m])
			}
		}
	}
	if b.N < 5 {
		return // the benchmark's first run (b.N = 1) warms up; -benchtime 30x makes the comparison
	}
	// Printed whole: the benchmark's log keeps only its first lines.
	fmt.Print(pairsReport(b.N, "", dirs, pairedMilestones, runs))
}

// throttle gives every request of p's browser the latency and the
// throughput net names ("150 1600": ms and kbit/s, both ways), as
// DevTools' network throttling does; "" leaves the network as it is.
func throttle(b *testing.B, p *pgTab, net string) {
	b.Helper()
	if net == "" {
		return
	}
	var latency, kbps float64
	if n, err := fmt.Sscanf(net, "%g %g", &latency, &kbps); n != 2 || err != nil || latency < 0 || kbps <= 0 {
		b.Fatalf("TAPELAB_BENCH_NET=%q: want a latency in ms and a throughput in kbit/s, such as \"150 1600\"", net)
	}
	bps := kbps * 1000 / 8
	if _, err := chromedp.Call(p.tab, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{
		MatchedNetworkConditions: []*network.Conditions{{Latency: latency, DownloadThroughput: bps, UploadThroughput: bps}}}); err != nil {
		b.Fatal(err)
	}
}

// pairsReport is the comparison of builds (dirs, the first the baseline)
// over rounds: each figure's median per build, then each build's
// per-round difference from the baseline, median [quartiles]. runs[j]
// holds build j's figures, one per round; what says what a round is.
func pairsReport(rounds int, what string, dirs, figures []string, runs []map[string][]float64) string {
	var log strings.Builder
	fmt.Fprintf(&log, "%d rounds%s; medians per build (%s), then each build minus the first, per round: median [quartiles]\n", rounds, what, strings.Join(dirs, ", "))
	for _, m := range figures {
		fmt.Fprintf(&log, "%-22s", m)
		for j := range runs {
			fmt.Fprintf(&log, " %8.2f", quantile(runs[j][m], 0.5))
		}
		for j := 1; j < len(runs); j++ {
			d := make([]float64, rounds)
			for i := range d {
				d[i] = runs[j][m][i] - runs[0][m][i]
			}
			fmt.Fprintf(&log, "   %+6.2f [%+6.2f %+6.2f]", quantile(d, 0.5), quantile(d, 0.25), quantile(d, 0.75))
		}
		log.WriteString("\n")
	}
	return log.String()
}

// navigateOnce loads url after about:blank and returns its bootTimeline
// once the page is interactive and Go has finished its start-up.
func navigateOnce(b *testing.B, p *pgTab, url string) map[string]float64 {
	b.Helper()
	if err := chromedp.Do(p.tab, chromedp.Navigate("about:blank"), chromedp.Navigate(url)); err != nil {
		b.Fatal(err)
	}
	if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](`window.__tapelabBoot?.painted > 0 && document.getElementById("app").hasAttribute("data-go-mallocs")`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		b.Fatalf("%s never became interactive: %v\n%s", url, err, pageError(p.tab))
	}
	// The browser reports a long task to its observers a little after it
	// ended, and says nothing when it has: no page can announce that.
	time.Sleep(50 * time.Millisecond)
	tl, err := chromedp.Run(p.tab, chromedp.Evaluate[map[string]float64](bootTimeline))
	if err != nil {
		b.Fatal(err)
	}
	return tl
}

// quantile returns the q-quantile of v (nearest rank; v is not changed).
func quantile(v []float64, q float64) float64 {
	w := append([]float64(nil), v...)
	sort.Float64s(w)
	return w[min(len(w)-1, int(q*float64(len(w))))]
}
