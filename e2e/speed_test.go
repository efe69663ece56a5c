//go:build !js

package e2e

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"tapelab/wasm/link"
	"tapelab/web"
	"tapelab/web/firstview"
)

// wasmBudget is the most the page's wasm should weigh brotli'd (issue 37:
// the standard parts that replaced the page's own copies are worth their bytes).
const wasmBudget = 1_150_000

// BenchmarkWasmSize reports the page's wasm as built by TestMain: bytes raw,
// gzip -9 and brotli -q 11, and brotli as a fraction of wasmBudget.
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

// stepTiming clicks Step and returns, measured in the page, the time from
// the click to the redrawn and laid-out page (ms), whether the redraw
// finished before click() returned, and how many dots the step set moving
// along the tape's edges.
const stepTiming = `(() => {
  const pg = document.getElementById("playground");
  const r0 = +pg.dataset.redraws;
  const t0 = performance.now();
  document.getElementById("step").click();
  const sync = +pg.dataset.redraws > r0;
  document.body.getBoundingClientRect(); // force style and layout
  return [performance.now() - t0, sync ? 1 : 0, +(document.getElementById("tape").dataset.travelling ?? 0)];
})()`

// BenchmarkStepRedraw60 measures a forward or backward step's redraw on a
// tape of 60+ nodes, in headless Chromium, with the dots that travel along
// the edges ("motion") and without them (prefers-reduced-motion: reduce):
// ms/step is the mean, p50-ms the median and p95-ms the 95th percentile,
// from the click to a laid-out page; movers/step is the mean number of dots
// a step set moving.
func BenchmarkStepRedraw60(b *testing.B) {
	for _, motion := range []string{"motion", "reduced-motion"} {
		b.Run(motion, func(b *testing.B) { stepRedraw(b, motion == "motion") })
	}
}

func stepRedraw(b *testing.B, motion bool) {
	// The tape starts with its leaves (the input, the target and the
	// parameters), whose steps send nothing along an edge: the link opens
	// past them, and after each reset they are stepped past, untimed.
	p := openScreenFor(b, 10*time.Minute, screens[4], longLinkAt(b, link.Position{Phase: link.PhaseForward, Node: 40}))
	if !motion {
		if _, err := chromedp.Call(p.tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
			b.Fatal(err)
		}
	}
	p.waitFor(`document.querySelectorAll("#tape [data-node]").length >= 60`, "the long model's tape")
	// As in BenchmarkNavigationToInteractive: a freshly started server
	// brotli-encodes the wasm in the background on one of the two cores,
	// which would slow the first steps timed.
	waitBrotli(b, p.js(`location.origin + "/"`)+"tapelab.wasm")
	nodes := int(p.num(`document.querySelectorAll("#tape [data-node]").length`))
	gcs := func() float64 { return p.num(`+tapelabMemStats("").split(" ")[2]`) }
	gcs0 := gcs()
	b.ResetTimer()
	times, movers := stepTimes(b, p, b.N)
	b.StopTimer()
	sort.Float64s(times)
	sum := 0.0
	for _, x := range times {
		sum += x
	}
	b.ReportMetric(sum/float64(len(times)), "ms/step")
	b.ReportMetric(times[len(times)/2], "p50-ms")
	b.ReportMetric(times[len(times)*95/100], "p95-ms")
	b.ReportMetric(float64(nodes), "nodes")
	b.ReportMetric(movers/float64(len(times)), "movers/step")
	// Go's collector runs on the page's one thread, inside whichever step
	// (or reset) needs it: the collections per step, over the whole run.
	b.ReportMetric((gcs()-gcs0)/float64(len(times)), "go-gcs/step")
	switch {
	case motion && movers == 0:
		b.Errorf("none of %d steps set a dot moving: the animation was off", b.N)
	case !motion && movers > 0:
		b.Errorf("under reduced motion %v dots moved", movers)
	}
}

// stepTimes clicks Step n times on the long model's tape that p shows,
// resetting (untimed: the benchmark's timer stops) when backward is done
// and stepping past the leaves, and returns each step's time from the
// click to a laid-out page (ms, in step order) and the dots the steps set
// moving in all. It fails when a redraw finished after click() returned.
func stepTimes(b *testing.B, p *pgTab, n int) (times []float64, movers float64) {
	b.Helper()
	pastLeaves := `(() => { for (let k = 0; k < 200 && !document.querySelector("#tape .edge.hot"); k++) document.getElementById("step").click(); })()`
	async := 0
	for range n {
		if p.js(`document.getElementById("count-backward").textContent.split(" ")[1].split("/").reduce((a, b) => a === b)`) == "true" {
			b.StopTimer()
			p.clickAndRedraw("reset")
			p.js(pastLeaves)
			b.StartTimer()
		}
		r, err := chromedp.Run(p.tab, chromedp.Evaluate[[]float64](stepTiming))
		if err != nil {
			b.Fatal(err)
		}
		times = append(times, r[0])
		movers += r[2]
		if r[1] == 0 {
			async++
		}
	}
	if async > 0 {
		b.Fatalf("%d of %d redraws finished after click() returned: the in-page timing would not cover them", async, len(times))
	}
	return times, movers
}

// bootProbe runs in every new document before the page's scripts. Every
// millisecond it tries what a person would: click Step, and check that a
// tape node (or the forward counter) changed. The first time one does is
// "interactive"; the next animation frame, which paints it, is "painted".
const bootProbe = `(() => {
  const out = window.__tapelabBoot = {};
  new PerformanceObserver((l) => { for (const e of l.getEntries()) if (e.name === "first-contentful-paint") out.fcp = e.startTime; })
    .observe({ type: "paint", buffered: true });
  new PerformanceObserver((l) => { for (const e of l.getEntries()) out.lcp = e.startTime; })
    .observe({ type: "largest-contentful-paint", buffered: true });
  // Load-independent counts: the Go program's calls across syscall/js
  // (every import it makes from wasm_exec.js's gojs table), the elements
  // the page creates, and the long tasks (over 50 ms) on the main thread.
  // Each tapelab: mark takes a snapshot of the first two.
  const c = out.counts = { js: 0, created: 0 };
  out.at = {};
  out.long = [];
  const inst = WebAssembly.instantiate;
  WebAssembly.instantiate = function (m, imports) {
    const g = imports && imports.gojs;
    if (g) {
      for (const k of Object.keys(g)) {
        if (!k.startsWith("syscall/js.")) continue;
        const f = g[k];
        g[k] = (sp) => { c.js++; return f(sp); };
      }
    }
    // The time the Go program runs (its start in go.run, then every
    // resume from an event or timer): the page's own work, apart from
    // what the browser does between its tasks. goTasks keeps each
    // outermost run's ms (a resume inside another, a listener that Go's
    // own call into JavaScript fired, is part of it).
    const G = globalThis.Go;
    if (G && !G.prototype.__timed) {
      G.prototype.__timed = true;
      out.goMs = 0;
      out.goTasks = [];
      let depth = 0;
      for (const k of ["run", "_resume"]) {
        const f = G.prototype[k];
        G.prototype[k] = function () {
          const t = performance.now();
          depth++;
          try { return f.apply(this, arguments); } finally {
            const d = performance.now() - t;
            out.goMs += d;
            if (--depth === 0) out.goTasks.push(d);
          }
        };
      }
    }
    return inst.apply(this, arguments);
  };
  for (const k of ["createElement", "createElementNS"]) {
    const f = Document.prototype[k];
    Document.prototype[k] = function () { c.created++; return f.apply(this, arguments); };
  }
  const mk = performance.mark;
  performance.mark = function (name) {
    if (String(name).startsWith("tapelab:")) {
      out.at[String(name).slice(8)] = { js: c.js, created: c.created, elements: document.getElementsByTagName("*").length };
    }
    return mk.apply(this, arguments);
  };
  try {
    new PerformanceObserver((l) => { for (const e of l.getEntries()) out.long.push([e.startTime, e.duration]); })
      .observe({ type: "longtask", buffered: true });
  } catch (e) {}
  const sig = () => Array.from(document.querySelectorAll("#tape [data-node]"), (g) => g.getAttribute("class")).join("|") +
    (document.getElementById("count-forward")?.textContent ?? "");
  const tick = () => {
    const step = document.getElementById("step");
    if (step && !step.disabled && document.querySelector("#tape [data-node]")) {
      const before = sig();
      step.click();
      if (sig() !== before) {
        out.interactive = performance.now();
        out.goMsInteractive = out.goMs;
        out.at.interactive = { js: c.js, created: c.created, elements: document.getElementsByTagName("*").length };
        requestAnimationFrame(() => { out.painted = performance.now(); });
        return;
      }
    }
    setTimeout(tick, 1);
  };
  setTimeout(tick, 1);
})()`

// cpuProbe times a fixed loop of JavaScript in the page once it is idle:
// the same work on every run, so its milliseconds say how fast this
// machine ran the browser at that moment (the machine's speed drifts by a
// factor of two or more between hours). Start-up figures taken at
// different times compare only beside it.
const cpuProbe = `(() => {
  const t = performance.now();
  let x = 0;
  for (let i = 0; i < 2e7; i++) x = (x + i * 7) % 1000003;
  return performance.now() - t + (x < 0 ? 1 : 0);
})()`

// bootTimeline collects, in ms since navigation start, the page's start-up
// milestones: the document, the wasm's request and last byte (and its bytes
// on the wire and decoded, to check the compression), the loader's and Go's
// performance marks, and the probe's interactive and painted.
const bootTimeline = `(() => {
  const out = {};
  const nav = performance.getEntriesByType("navigation")[0];
  out["html-received"] = nav.responseEnd;
  out["dom-ready"] = nav.domContentLoadedEventEnd;
  const res = (ext) => performance.getEntriesByType("resource").find((r) => new URL(r.name).pathname.endsWith(ext));
  const loader = res("/loader.js");
  if (loader) {
    out["loader-requested"] = loader.requestStart;
    out["loader-received"] = loader.responseEnd;
  }
  const wasm = res(".wasm");
  if (wasm) {
    out["wasm-requested"] = wasm.requestStart;
    out["wasm-first-byte"] = wasm.responseStart;
    out["wasm-last-byte"] = wasm.responseEnd;
    out["wasm-wire-bytes"] = wasm.encodedBodySize;
    out["wasm-decoded-bytes"] = wasm.decodedBodySize;
  }
  for (const m of performance.getEntriesByType("mark")) {
    if (m.name.startsWith("tapelab:")) out[m.name.slice(8)] = m.startTime;
  }
  const probe = window.__tapelabBoot || {};
  if (probe.fcp) out["first-paint"] = probe.fcp;
  if (probe.lcp) out["largest-paint"] = probe.lcp;
  if (probe.interactive) out.interactive = probe.interactive;
  if (probe.painted) out.painted = probe.painted;
  if (probe.goMsInteractive !== undefined) out["go-ran"] = probe.goMsInteractive;
  // The counts at each of Go's marks and at interactive; the long tasks' time, and the part of it beyond 50 ms per task
  // (Lighthouse's total blocking time, here from navigation on).
  for (const [m, v] of Object.entries(probe.at || {})) {
    out["js-calls@" + m] = v.js;
    out["elements-created@" + m] = v.created;
    out["elements@" + m] = v.elements;
  }
  let long = 0, blocking = 0;
  for (const [, d] of probe.long || []) {
    long += d;
    blocking += Math.max(0, d - 50);
  }
  // Go's share of the mobile preset's blocking time: each of its runs
  // until now (Go's start-up included) slowed 4 times, less 50 ms.
  let goBlocking = 0, goLongest = 0;
  for (const d of probe.goTasks || []) {
    goBlocking += Math.max(0, 4 * d - 50);
    goLongest = Math.max(goLongest, d);
  }
  out["go-blocking-4x"] = goBlocking;
  out["go-longest-task"] = goLongest;
  out["long-tasks"] = (probe.long || []).length;
  out["long-task-ms"] = long;
  out["blocking-ms"] = blocking;
  const app = document.getElementById("app");
  for (const k of ["mallocs", "alloc-bytes", "gcs"]) {
    const v = app && app.getAttribute("data-go-" + k);
    if (v) out["go-" + k] = Number(v);
  }
  return out;
})()`

// bootOrder lists the milestones in the order they happen, for the log.
var bootOrder = []string{"html-received", "loader-requested", "loader-received", "first-paint", "largest-paint", "dom-ready", "wasm-requested", "wasm-first-byte", "wasm-last-byte",
	"wasm-received", "wasm-compiled", "wasm-instantiated", "go-main", "playground-built", "shell-built", "first-render", "go-idle",
	"interactive", "painted"}

// bootCounts lists the load-independent figures of a start-up, for the log:
// calls across syscall/js, elements created and in the document (at Go's
// first render, at interactive and when Go went idle), Go's allocations
// (objects, bytes, collections) until it went idle, the ms the Go program
// ran until interactive (go-ran: its own work, without what the browser
// did between its tasks), its longest task and the blocking time its
// tasks would add under Lighthouse's mobile preset (go-blocking-4x: each
// task's ms times 4, less 50; the probe's first click is one of them),
// and the long tasks.
var bootCounts = []string{"js-calls@first-render", "js-calls@interactive", "js-calls@go-idle", // logged with bootOrder
	"elements-created@first-render", "elements-created@interactive", "elements-created@go-idle",
	"elements@first-render", "elements@interactive", "elements@go-idle",
	"go-mallocs", "go-alloc-bytes", "go-gcs", "go-ran", "go-longest-task", "go-blocking-4x", "long-tasks", "long-task-ms", "blocking-ms"}

// cpuThrottle is the CPU slowdown the start-up benchmark asks Chromium for
// ($TAPELAB_CPU_THROTTLE, e.g. 4 as Lighthouse's mobile preset; unset or
// 1: none).
func cpuThrottle(b *testing.B) float64 {
	v := os.Getenv("TAPELAB_CPU_THROTTLE")
	if v == "" {
		return 1
	}
	r, err := strconv.ParseFloat(v, 64)
	if err != nil || r < 1 {
		b.Fatalf("TAPELAB_CPU_THROTTLE=%q: want a slowdown factor of at least 1", v)
	}
	return r
}

// benchStatic is the folder the start-up benchmark serves:
// $TAPELAB_BENCH_STATIC, a copy of static/ made after another build's `go
// run . build` (the package's TestMain builds static/ anew before every
// run, so a build is compared with another only from such a copy: run
// the benchmark on each copy in turn, several rounds, in one sitting), or
// else static/. The server's first view is always this tree's.
func benchStatic() string {
	if d := os.Getenv("TAPELAB_BENCH_STATIC"); d != "" {
		return d
	}
	return staticDir
}

// BenchmarkNavigationToInteractive measures start-up: per navigation, the
// time from navigation start until a click on Step changes a tape node
// (ms-interactive, measured in the page by bootProbe) and until the frame
// that shows it (ms-painted), with every milestone of bootTimeline on the
// way, and the first and the largest contentful paint (the server's first
// view draws the tape before the wasm runs). The page is served as `go run
// .` serves it, with its first view, and (the "loading-screen" runs)
// without it, as before the server drew one. Metrics are medians over the
// navigations. "http-cache" navigates
// again in one browser, as a returning visitor (the HTTP cache revalidates;
// this machine's headless Chromium never writes compiled wasm to its code
// cache, see bench/README.md); "no-cache" disables the cache, as a first
// visit does. ms-go-blocking-4x is Go's share of the mobile preset's
// blocking time (bootCounts). ms-cpu-probe is the median time of
// cpuProbe's fixed loop after each navigation: how fast the machine ran
// meanwhile.
func BenchmarkNavigationToInteractive(b *testing.B) {
	for _, mode := range []struct {
		name      string
		noCache   bool
		firstView bool
	}{{"http-cache", false, true}, {"no-cache", true, true}, {"http-cache/loading-screen", false, false}, {"no-cache/loading-screen", true, false}} {
		b.Run(mode.name, func(b *testing.B) {
			opts := web.Options{Static: os.DirFS(benchStatic()), Precompress: true}
			if mode.firstView {
				opts.FirstView = firstview.Page
			}
			h, err := web.NewHandler(opts)
			if err != nil {
				b.Fatal(err)
			}
			p := openPlaygroundOn(b, 1280, 720, h, 10*time.Minute)
			if _, err := chromedp.Call(p.tab, page.AddScriptToEvaluateOnNewDocument,
				page.AddScriptToEvaluateOnNewDocumentParams{Source: bootProbe}); err != nil {
				b.Fatal(err)
			}
			enableNetwork(b, p.tab)
			if _, err := chromedp.Call(p.tab, network.SetCacheDisabled, network.SetCacheDisabledParams{CacheDisabled: mode.noCache}); err != nil {
				b.Fatal(err)
			}
			if rate := cpuThrottle(b); rate > 1 {
				if _, err := chromedp.Call(p.tab, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate}); err != nil {
					b.Fatal(err)
				}
			}
			url := p.js(`location.origin + "/"`)
			// The server encodes the wasm at brotli quality 11 in the
			// background once it starts (web.Options.Precompress), which
			// takes one of the machine's cores for many seconds: the
			// navigations wait for it, as ./build.sh dist's site and a
			// server that has run for a while serve it ready.
			waitBrotli(b, url+"tapelab.wasm")
			runs := map[string][]float64{}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				if err := chromedp.Do(p.tab, chromedp.Navigate("about:blank")); err != nil {
					b.Fatal(err)
				}
				b.StartTimer()
				if err := chromedp.Do(p.tab, chromedp.Navigate(url)); err != nil {
					b.Fatal(err)
				}
				if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](`window.__tapelabBoot?.painted > 0`,
					chromedp.WithPollingTimeout(20*time.Second))); err != nil {
					b.Fatalf("the page never became interactive: %v\n%s", err, pageError(p.tab))
				}
				b.StopTimer()
				// Go finishes its start-up (the work it defers past the first
				// render included) before the counts are read; the long tasks
				// are reported a little after they end (the browser says
				// nothing when it has: no page can announce that).
				if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](`document.getElementById("app").hasAttribute("data-go-mallocs")`,
					chromedp.WithPollingTimeout(20*time.Second))); err != nil {
					b.Fatalf("Go never finished its start-up: %v\n%s", err, pageError(p.tab))
				}
				time.Sleep(100 * time.Millisecond)
				tl, err := chromedp.Run(p.tab, chromedp.Evaluate[map[string]float64](bootTimeline))
				if err != nil {
					b.Fatal(err)
				}
				for k, v := range tl {
					runs[k] = append(runs[k], v)
				}
				cpu, err := chromedp.Run(p.tab, chromedp.Evaluate[float64](cpuProbe))
				if err != nil {
					b.Fatal(err)
				}
				runs["cpu-probe"] = append(runs["cpu-probe"], cpu)
				b.StartTimer()
			}
			b.StopTimer()
			med := map[string]float64{}
			for k, v := range runs {
				sort.Float64s(v)
				med[k] = v[len(v)/2]
			}
			// One line: the benchmark's log keeps only a few.
			var log strings.Builder
			for _, k := range bootOrder {
				if v, ok := runs[k]; ok {
					fmt.Fprintf(&log, " %s %.0f (%.0f-%.0f);", k, med[k], v[0], v[len(v)-1])
				}
			}
			var counts strings.Builder
			for _, k := range bootOrder {
				if _, ok := runs["js-calls@"+k]; ok {
					fmt.Fprintf(&counts, " js-calls@%s %.0f;", k, med["js-calls@"+k])
				}
			}
			for _, k := range bootCounts[3:] {
				if _, ok := runs[k]; ok {
					fmt.Fprintf(&counts, " %s %.0f;", k, med[k])
				}
			}
			b.Logf("%d navigations (%s, CPU slowed %gx), ms since navigation start, median (min-max):%s wasm bytes: %.0f on the wire, %.0f decoded; medians:%s cpu-probe %.1f ms",
				b.N, mode.name, max(1, cpuThrottle(b)), log.String(), med["wasm-wire-bytes"], med["wasm-decoded-bytes"], counts.String(), med["cpu-probe"])
			if med["wasm-wire-bytes"] >= med["wasm-decoded-bytes"] {
				b.Errorf("the wasm was served uncompressed (%.0f bytes on the wire)", med["wasm-wire-bytes"])
			}
			b.ReportMetric(med["largest-paint"], "ms-lcp")
			b.ReportMetric(med["interactive"], "ms-interactive")
			b.ReportMetric(med["go-ran"], "ms-go-ran")
			b.ReportMetric(med["painted"], "ms-painted")
			b.ReportMetric(med["wasm-compiled"], "ms-compiled")
			b.ReportMetric(med["first-render"], "ms-first-render")
			b.ReportMetric(med["blocking-ms"], "ms-blocking")
			b.ReportMetric(med["go-blocking-4x"], "ms-go-blocking-4x")
			b.ReportMetric(med["js-calls@interactive"], "js-calls")
			b.ReportMetric(med["go-mallocs"], "go-mallocs")
			b.ReportMetric(med["cpu-probe"], "ms-cpu-probe")
		})
	}
}

// enableNetwork enables DevTools' network domain in tab, which switching
// the HTTP cache off needs, with buffers too small to keep any response
// body. With its default buffers (chromedp enables the domain so when it
// attaches) DevTools copies each response as it arrives, the wasm's 5 MB
// too, in the page's renderer: work a browser without DevTools open does
// not do, which put ~5-10 ms on the download and the start-up measured.
func enableNetwork(b *testing.B, tab context.Context) {
	b.Helper()
	one := int64(1)
	if _, err := chromedp.Call(tab, network.Enable, network.EnableParams{MaxTotalBufferSize: &one, MaxResourceBufferSize: &one}); err != nil {
		b.Fatal(err)
	}
}

// waitBrotli waits (up to 10 minutes) until url is served brotli'd.
func waitBrotli(b *testing.B, url string) {
	b.Helper()
	for deadline := time.Now().Add(10 * time.Minute); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		req, err := http.NewRequest("HEAD", url, nil)
		if err != nil {
			b.Fatal(err)
		}
		req.Header.Set("Accept-Encoding", "br")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
		if resp.Header.Get("Content-Encoding") == "br" {
			return
		}
	}
	b.Fatalf("%s was not served brotli'd within 10 minutes", url)
}
