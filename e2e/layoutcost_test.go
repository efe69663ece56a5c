//go:build !js

package e2e

import (
	"cmp"
	"encoding/json"
	"errors"
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
	Tdur float64 `json:"tdur"` // thread time, µs
	Args struct {
		BeginData struct {
			DirtyObjects float64 `json:"dirtyObjects"`
		} `json:"beginData"`
		ElementCount float64 `json:"elementCount"`
		Data         struct {
			NodeName string `json:"nodeName"`
			Reason   string `json:"reason"`
		} `json:"data"`
	} `json:"args"`
}

// layoutCost is what the steps cost the browser, added up over the steps,
// counting only the work done between a step's click and its laid-out page.
type layoutCost struct {
	steps         int
	layouts       float64 // layout passes
	dirty         float64 // layout objects those passes had to lay out
	svgTexts      float64 // SVG texts laid out again
	styled        float64 // elements whose style was recalculated
	layoutThread  float64 // ms of thread time in layout
	styleThread   float64 // ms of thread time in style recalculation
	outsideLayout float64 // layout passes between steps (the dots' frames)
	outsideTexts  float64 // SVG texts laid out again between steps
}

// add attributes the trace's events to the steps, by the marks.
func (c *layoutCost) add(events []traceEvent) {
	in := false
	for _, e := range events {
		switch e.Name {
		case "tapelab-step":
			in = true
			c.steps++
		case "tapelab-stepped":
			in = false
		case "Layout":
			if in {
				c.layouts++
				c.dirty += e.Args.BeginData.DirtyObjects
				c.layoutThread += e.Tdur / 1000
			} else {
				c.outsideLayout++
			}
		case "UpdateLayoutTree":
			if in {
				c.styled += e.Args.ElementCount
				c.styleThread += e.Tdur / 1000
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

// BenchmarkStepLayout60 counts what a step's redraw on the 67-node tape
// costs the browser, in measures that do not depend on how busy the
// machine is: per step (from the click to the laid-out page), the layout
// passes, the layout objects they laid out, the SVG texts laid out again,
// the elements whose style was recalculated, and the thread time in layout
// and in style; and, between steps (the frames that move the dots), the
// layout passes and the SVG texts laid out again. The motion is on.
// Chromium's trace (with invalidation tracking) gives the counts.
func BenchmarkStepLayout60(b *testing.B) {
	p := openScreenFor(b, 10*time.Minute, screens[4], longLinkAt(b, link.Position{Phase: link.PhaseForward, Node: 40}))
	p.waitFor(`document.querySelectorAll("#tape [data-node]").length >= 60`, "the long model's tape")
	var (
		mu   sync.Mutex
		raw  [][]byte
		done = make(chan struct{})
	)
	// Subscribe before the trace starts; read on goroutines of their own.
	data, complete := chromedp.Events(p.tab, tracing.DataCollected), chromedp.Events(p.tab, tracing.TracingComplete)
	var dataErr error
	go func() {
		for ev, err := range data {
			if err != nil {
				mu.Lock()
				dataErr = err
				mu.Unlock()
				return
			}
			mu.Lock()
			for _, v := range ev.Value {
				raw = append(raw, v)
			}
			mu.Unlock()
		}
	}()
	go func() {
		for range complete {
			close(done)
			return
		}
	}()
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
		}
		if _, err := chromedp.Run(p.tab, chromedp.Evaluate[[]float64](markedStep)); err != nil {
			b.Fatal(err)
		}
		// Let the step's dots travel, as a person watching would.
		time.Sleep(400 * time.Millisecond)
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
	time.Sleep(time.Second) // the data events are read on their own goroutine
	mu.Lock()
	defer mu.Unlock()
	if dataErr != nil {
		b.Fatalf("reading the trace: %v", dataErr)
	}
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
}
