//go:build !js

package e2e

import (
	"cmp"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/tracing"
	"github.com/chromedp/chromedp"

	"tapelab/wasm/link"
)

// markedStep is stepTiming between two user-timing marks, so that a trace
// can tell the step's own work from the frames that follow it.
const markedStep = `(() => { performance.mark("tapelab-step"); const r = ` + stepTiming + `; performance.mark("tapelab-stepped"); return r; })()`

// traceEvent is the part of a Chrome trace event the benchmark reads.
type traceEvent struct {
	Name string  `json:"name"`
	Ts   float64 `json:"ts"`   // µs
	Dur  float64 `json:"dur"`  // wall time, µs
	Tdur float64 `json:"tdur"` // thread time, µs
	Args struct {
		BeginData struct {
			DirtyObjects float64 `json:"dirtyObjects"`
		} `json:"beginData"`
		ElementCount float64 `json:"elementCount"`
		Data         struct {
			NodeName string    `json:"nodeName"`
			Reason   string    `json:"reason"`
			Type     string    `json:"type"`
			Clip     []float64 `json:"clip"` // a paint's quad: x, y of its four corners
		} `json:"data"`
	} `json:"args"`
}

// layoutCost is what the steps cost the browser, added up over the steps,
// counting only the work done between a step's click and its laid-out page,
// and (the paints) in the frame that shows it.
type layoutCost struct {
	steps         int
	layouts       float64 // layout passes
	dirty         float64 // layout objects those passes had to lay out
	svgTexts      float64 // SVG texts laid out again
	styled        float64 // elements whose style was recalculated
	layoutThread  float64 // ms of thread time in layout
	styleThread   float64 // ms of thread time in style recalculation
	clickThread   float64 // ms of thread time in the click's handlers: the page's Go, and what it made the browser do at once
	forced        float64 // layout passes and style recalculations inside the click's handlers: the page read what it had just changed
	jsGCs         float64 // JavaScript collections (V8's minor and major GC)
	paints        float64 // paints in the frame that shows the step
	paintArea     float64 // their area, in device pixels
	outsideLayout float64 // layout passes between steps (the dots' frames)
	outsideTexts  float64 // SVG texts laid out again between steps
	// perStep holds, for each step, the thread time of its click, of its
	// layout and style, and of JavaScript's collections, in ms.
	perStep []stepThread
}

// stepThread is one step's thread time, in ms.
type stepThread struct {
	click, layout, style, gc float64
}

// add attributes the trace's events to the steps, by the marks.
func (c *layoutCost) add(events []traceEvent) {
	in, frame := false, false
	clickEnd := -1.0 // when the step's click handlers ended, µs
	for _, e := range events {
		inClick := e.Ts < clickEnd
		switch e.Name {
		case "tapelab-step":
			in, frame = true, false
			c.steps++
			c.perStep = append(c.perStep, stepThread{})
		case "tapelab-stepped":
			in, frame = false, true
		case "EventDispatch":
			if in && e.Args.Data.Type == "click" {
				c.clickThread += e.Tdur / 1000
				c.perStep[len(c.perStep)-1].click += e.Tdur / 1000
				clickEnd = e.Ts + e.Dur
			}
		case "Layerize":
			frame = false // the frame that shows the step is painted
		case "Paint":
			if frame {
				c.paints++
				c.paintArea += quadArea(e.Args.Data.Clip)
			}
		case "MinorGC", "MajorGC":
			if in {
				c.jsGCs++
				c.perStep[len(c.perStep)-1].gc += e.Tdur / 1000
			}
		case "Layout":
			if in {
				c.layouts++
				c.dirty += e.Args.BeginData.DirtyObjects
				c.layoutThread += e.Tdur / 1000
				c.perStep[len(c.perStep)-1].layout += e.Tdur / 1000
				if inClick {
					c.forced++
				}
			} else {
				c.outsideLayout++
			}
		case "UpdateLayoutTree":
			if in {
				c.styled += e.Args.ElementCount
				c.styleThread += e.Tdur / 1000
				c.perStep[len(c.perStep)-1].style += e.Tdur / 1000
				if inClick {
					c.forced++
				}
			}
		case "LayoutInvalidationTracking":
			// Chromium lays out an SVG text again when its <svg> is laid
			// out as a whole: each such text is one event.
			if strings.HasPrefix(e.Args.Data.NodeName, "text") && e.Args.Data.Reason == "SVG changed" {
				if in {
					c.svgTexts++
				} else {
					c.outsideTexts++
				}
			}
		}
	}
}

// quadArea is the area of a paint's clip quad (x, y of four corners, in
// order), by the shoelace formula.
func quadArea(q []float64) float64 {
	if len(q) != 8 {
		return 0
	}
	a := 0.0
	for k := 0; k < 4; k++ {
		x0, y0, x1, y1 := q[2*k], q[2*k+1], q[(2*k+2)%8], q[(2*k+3)%8]
		a += x0*y1 - x1*y0
	}
	return math.Abs(a) / 2
}

// pageCounters counts, in the page, what its Go asks of JavaScript: each
// crossing of syscall/js (a call into the browser from Go: a method call,
// a property read or write, a Go string made a JavaScript one, …, by kind)
// and, of the DOM, the elements and text nodes created, markup parsed
// (innerHTML), attributes set, text set and class lists changed. It wraps
// the Go program's imports as the page instantiates it and the DOM's
// methods, before the page's scripts run; window.__tapelabCounts holds the
// totals.
const pageCounters = `(() => {
  const n = window.__tapelabCounts = {};
  const count = (k) => { n[k] = (n[k] || 0) + 1; };
  const inst = WebAssembly.instantiate;
  WebAssembly.instantiate = function (mod, imports) {
    const g = imports && imports.gojs;
    if (g) for (const k of Object.keys(g)) {
      if (!k.startsWith("syscall/js.")) continue;
      const f = g[k], name = "js." + k.slice(11);
      g[k] = (sp) => { count(name); return f(sp); };
    }
    return inst.apply(this, arguments);
  };
  // Each DOM write also counts under what it wrote ("attr fill", "text
  // td"), for the log.
  const what = (e) => e.id ? "#" + e.id : e.nodeName.toLowerCase() + "." + ((e.getAttribute && e.getAttribute("class")) || "").split(" ")[0];
  const wrap = (proto, m, name, by) => {
    const f = proto[m];
    proto[m] = function () { count(name); if (by) count(by(this, ...arguments)); return f.apply(this, arguments); };
  };
  wrap(Document.prototype, "createElement", "dom.created", (d, tag) => "new " + tag);
  wrap(Document.prototype, "createElementNS", "dom.created", (d, ns, tag) => "new " + tag);
  wrap(Document.prototype, "createTextNode", "dom.created");
  wrap(Element.prototype, "setAttribute", "dom.setAttribute", (e, a) => "attr " + a);
  wrap(Element.prototype, "removeAttribute", "dom.setAttribute");
  wrap(DOMTokenList.prototype, "add", "dom.classList");
  wrap(DOMTokenList.prototype, "remove", "dom.classList");
  wrap(DOMTokenList.prototype, "toggle", "dom.classList");
  const setter = (proto, p, name) => {
    const d = Object.getOwnPropertyDescriptor(proto, p);
    Object.defineProperty(proto, p, { ...d, set(v) { count(name); count(name + " " + what(this)); d.set.call(this, v); } });
  };
  setter(Element.prototype, "innerHTML", "dom.innerHTML");
  setter(Node.prototype, "textContent", "dom.textContent");
})()`

// countsAndHeap reads the page's counters and then the Go heap's
// (tapelabMemStats: mallocs, bytes, collections, pause ns), in that order.
const countsAndHeap = `(() => { const c = Object.assign({}, window.__tapelabCounts);
  const m = tapelabMemStats("").split(" ").map(Number);
  c["go.mallocs"] = m[0]; c["go.bytes"] = m[1]; c["go.gcs"] = m[2]; c["go.pause-ms"] = m[3] / 1e6; return c; })()`

// counterDelta adds b − a to sum, minus what reading them costs (probe).
func counterDelta(sum, a, b, probe map[string]float64) {
	for k, v := range b {
		sum[k] += v - a[k] - probe[k]
	}
}

// BenchmarkStepLayout60 counts what a step's redraw on the 67-node tape
// costs, in measures that do not depend on how busy the machine is. Per
// step, from the click to the laid-out page: the layout passes, the layout
// objects they laid out, the SVG texts laid out again, the elements whose
// style was recalculated, the thread time in layout, in style and in the
// click's handlers (the page's Go), the layouts and style recalculations
// the page forced while it ran, JavaScript's collections; the paints of
// the frame that shows the step and their area; between steps (the frames
// that move the dots), the layout passes and the SVG texts laid out again.
// Chromium's trace (with invalidation tracking) gives those. In the page,
// per step: the crossings of syscall/js by kind, the DOM's elements
// created, markup parsed, attributes, text and classes set (pageCounters),
// and the Go heap's allocations and collections (tapelabMemStats). The
// motion is on.
func BenchmarkStepLayout60(b *testing.B) {
	p := openScreenWith(b, 10*time.Minute, screens[4], longLinkAt(b, link.Position{Phase: link.PhaseForward, Node: 40}), pageCounters)
	p.waitFor(`document.querySelectorAll("#tape [data-node]").length >= 60`, "the long model's tape")
	read := func() map[string]float64 {
		m, err := chromedp.Run(p.tab, chromedp.Evaluate[map[string]float64](countsAndHeap))
		if err != nil {
			b.Fatal(err)
		}
		return m
	}
	// What reading the counters costs: one read's crossings and
	// allocations fall between the next two.
	probe := map[string]float64{}
	counterDelta(probe, read(), read(), nil)
	probe["go.gcs"], probe["go.pause-ms"] = 0, 0
	counts := map[string]float64{}
	// between adds up what the page's Go allocated and collected from one
	// step's end to the next one's start: the link's encoding and the
	// dots' timers, whose garbage a later step's collection pays for.
	between := map[string]float64{}
	var last map[string]float64
	gaps := 0.0
	var steps []stepCounts // each step's own counters, for the log
	var (
		mu    sync.Mutex
		raw   [][]byte
		done  = make(chan struct{})
		ended sync.Once
	)
	// Subscribe before the trace starts. One listener sees the events in
	// the order the browser sent them: every DataCollected before the
	// TracingComplete that ends them.
	if err := chromedp.Listen(p.tab, func(ev any) {
		switch ev := ev.(type) {
		case *tracing.EventDataCollected:
			mu.Lock()
			for _, v := range ev.Value {
				raw = append(raw, v)
			}
			mu.Unlock()
		case *tracing.EventTracingComplete:
			ended.Do(func() { close(done) })
		}
	}); err != nil {
		b.Fatal(err)
	}
	cats := []string{"devtools.timeline", "blink.user_timing", "disabled-by-default-devtools.timeline.invalidationTracking"}
	pastLeaves := `(() => { for (let k = 0; k < 200 && !document.querySelector("#tape .edge.hot"); k++) document.getElementById("step").click(); })()`
	if _, err := chromedp.Call(p.tab, tracing.Start, tracing.StartParams{TraceConfig: &tracing.TraceConfig{IncludedCategories: cats}}); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if p.js(`document.getElementById("count-backward").textContent.split(" ")[1].split("/").reduce((a, b) => a === b)`) == "true" {
			p.clickAndRedraw("reset")
			p.js(pastLeaves)
			last = nil // not a step's aftermath alone
		}
		before := read()
		r, err := chromedp.Run(p.tab, chromedp.Evaluate[[]float64](markedStep))
		if err != nil {
			b.Fatal(err)
		}
		if r[1] == 0 { // a step that redrew nothing would count as a cheap one
			b.Fatalf("step %d did not redraw the page before click() returned (%s)\n%s", i, p.js(`document.getElementById("count-backward").textContent`), pageError(p.tab))
		}
		if last != nil {
			counterDelta(between, last, before, probe)
			gaps++
		}
		last = read()
		counterDelta(counts, before, last, probe)
		one := map[string]float64{}
		counterDelta(one, before, last, probe)
		steps = append(steps, stepCounts{where: p.js(`document.getElementById("count-forward").textContent + " " + document.getElementById("count-backward").textContent`), counts: one})
		// Let the step's dots travel and the link follow, as they do
		// while a person watches.
		p.waitFor(`!document.getElementById("tape").hasAttribute("data-travelling") && `+linkSyncedJS, "the step's dots and link")
	}
	b.StopTimer()
	if _, err := chromedp.Call(p.tab, tracing.End, cdp.Empty{}); err != nil {
		b.Fatal(err)
	}
	select {
	case <-done:
	case <-time.After(3 * time.Minute):
		b.Fatal("the trace did not complete")
	}
	mu.Lock()
	defer mu.Unlock()
	var events []traceEvent
	for _, r := range raw {
		// A field of another type in some event's args is skipped, and
		// the rest of the event still read.
		var e traceEvent
		var se *json.SyntaxError
		if err := json.Unmarshal(r, &e); errors.As(err, &se) {
			b.Fatalf("a trace event: %v", err)
		}
		events = append(events, e)
	}
	// The trace arrives in chunks: order it by time.
	slices.SortStableFunc(events, func(a, b traceEvent) int { return cmp.Compare(a.Ts, b.Ts) })
	var c layoutCost
	c.add(events)
	if c.steps != b.N {
		names := map[string]int{}
		for _, e := range events {
			names[e.Name]++
		}
		b.Fatalf("the trace holds %d steps, want %d (%d events: %v)", c.steps, b.N, len(events), names)
	}
	n := float64(c.steps)
	b.ReportMetric(c.layouts/n, "layouts/step")
	b.ReportMetric(c.dirty/n, "laid-out-objects/step")
	b.ReportMetric(c.svgTexts/n, "svg-texts-relaid/step")
	b.ReportMetric(c.styled/n, "styled-elements/step")
	b.ReportMetric(c.layoutThread/n, "layout-thread-ms/step")
	b.ReportMetric(c.styleThread/n, "style-thread-ms/step")
	b.ReportMetric(c.outsideLayout/n, "frame-layouts/step")
	b.ReportMetric(c.outsideTexts/n, "frame-svg-texts-relaid/step")
	b.ReportMetric(c.clickThread/n, "click-thread-ms/step")
	b.ReportMetric(c.forced/n, "forced-layouts/step")
	b.ReportMetric(c.jsGCs/n, "js-gcs/step")
	b.ReportMetric(c.paints/n, "paints/step")
	b.ReportMetric(c.paintArea/n, "paint-px/step")
	for _, k := range []string{"js.valueCall", "js.valueGet", "js.valueSet", "js.stringVal", "js.finalizeRef",
		"dom.created", "dom.innerHTML", "dom.setAttribute", "dom.textContent", "dom.classList",
		"go.mallocs", "go.bytes", "go.gcs"} {
		b.ReportMetric(counts[k]/n, k+"/step")
	}
	if gaps > 0 {
		b.ReportMetric(between["go.bytes"]/gaps, "go.bytes-between/step")
		b.ReportMetric(between["go.gcs"]/gaps, "go.gcs-between/step")
	}
	b.ReportMetric(crossings(counts)/n, "js-crossings/step")
	logSlowSteps(b, c.perStep, steps)
	b.Logf("per step, all counters: %v; reading them cost %v", scaled(counts, 1/n), scaled(probe, 1))
}

// stepCounts is one step's page counters and where it left the stepper.
type stepCounts struct {
	where  string
	counts map[string]float64
}

// crossings adds up the calls into JavaScript of a counter map.
func crossings(counts map[string]float64) float64 {
	sum := 0.0
	for k, v := range counts {
		if strings.HasPrefix(k, "js.") {
			sum += v
		}
	}
	return sum
}

// logSlowSteps logs the five steps whose click took the most thread time,
// with what else they did, so that a slow step's cause can be read.
func logSlowSteps(b *testing.B, threads []stepThread, steps []stepCounts) {
	order := make([]int, len(threads))
	for k := range order {
		order[k] = k
	}
	slices.SortFunc(order, func(x, y int) int { return cmp.Compare(threads[y].click, threads[x].click) })
	if len(order) > 0 {
		b.Logf("the median step's click: %.1f ms of thread time", threads[order[len(order)/2]].click)
	}
	for _, k := range order[:min(5, len(order), len(steps))] {
		t, s := threads[k], steps[k]
		b.Logf("slow step %d (%s): click %.1f ms, layout %.1f, style %.1f, JS GC %.1f; %v crossings, %v created, Go %v B, %v collections",
			k, s.where, t.click, t.layout, t.style, t.gc, crossings(s.counts), s.counts["dom.created"], s.counts["go.bytes"], s.counts["go.gcs"])
	}
}

// scaled returns m with every value times f, rounded to 0.1, less the
// zeros.
func scaled(m map[string]float64, f float64) map[string]float64 {
	out := make(map[string]float64, len(m))
	for k, v := range m {
		if r := math.Round(v*f*10) / 10; r != 0 {
			out[k] = r
		}
	}
	return out
}
