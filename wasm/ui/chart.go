//go:build js && wasm

package ui

import (
	"math"
	"strconv"

	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/trainer"
)

// Chart draws a training's loss history (or, for an accuracy chart, the
// accuracy history on a 0–100% scale): training solid, test dashed, each
// smoothed (trainer.Smooth) over its values as evaluated, drawn faint. It
// keeps only its canvas and the scale it drew last.
type Chart struct {
	u      *dom.Document
	canvas dom.Canvas
	w, h   float64
	acc    bool
	scale  string // the scale drawn last: "linear" or "log" (the canvas's data-scale)
}

// NewLossChart returns a chart of the loss history, w by h CSS pixels, on
// a canvas with the id train-chart.
func NewLossChart(u *dom.Document, w, h int) *Chart {
	return &Chart{u: u, w: float64(w), h: float64(h), canvas: dom.NewCanvas(u, float64(w), float64(h), "id", "train-chart", "role", "img",
		"aria-label", "Loss over training steps: training loss solid, test loss dashed, smoothed over the faint values of each evaluation")}
}

// NewAccuracyChart returns a chart of the accuracy history, w by h CSS
// pixels, on a canvas with the id train-acc-chart.
func NewAccuracyChart(u *dom.Document, w, h int) *Chart {
	return &Chart{u: u, w: float64(w), h: float64(h), acc: true, canvas: dom.NewCanvas(u, float64(w), float64(h), "id", "train-acc-chart", "role", "img",
		"aria-label", "Accuracy over training steps: training solid, test dashed, smoothed over the faint values of each evaluation")}
}

// Elem is the chart's canvas element.
func (c *Chart) Elem() dom.Elem { return c.canvas.El }

// logRatio is how many times a loss must fall for its chart to go on a
// log scale.
const logRatio = 10

// showScale records on the canvas (data-scale) whether the chart is drawn
// on a log scale, when that changes.
func (c *Chart) showScale(log bool) {
	scale := "linear"
	if log {
		scale = "log"
	}
	if scale != c.scale {
		c.scale = scale
		c.canvas.El.SetAttribute("data-scale", scale)
	}
}

// value is the charted figure of m.
func (c *Chart) value(m train.Metrics) float64 {
	if c.acc {
		return m.Accuracy
	}
	return m.Loss
}

// Draw paints the history h (nil: an empty chart).
func (c *Chart) Draw(h []trainer.Record) { c.DrawRuns([][]trainer.Record{h}) }

// runDash is each compared run's line pattern (in units of the stroke),
// so that the runs differ in more than their colour.
var runDash = [][]float64{nil, {7, 4}, {2, 3}}

// DrawRuns paints the histories of runs trained side by side on one
// scale: one run as Draw does (training and test); two or three, each
// run's training figure alone, smoothed, in the run's colour and line
// pattern (Palette.Runs, runDash).
func (c *Chart) DrawRuns(runs [][]trainer.Record) {
	pal := ReadPalette(c.u)
	x := c.canvas
	x.Clear(c.w, c.h)
	x.Background(pal.Surface, c.w, c.h)
	top, low, last := 0.0, math.Inf(1), 1.0
	drawn := false
	for _, h := range runs {
		for _, r := range h {
			drawn = true
			last = math.Max(last, float64(r.Step))
			for _, v := range []float64{c.value(r.Train), c.value(r.Test)} {
				if !math.IsNaN(v) && !math.IsInf(v, 0) {
					top = math.Max(top, v)
					if v > 0 {
						low = math.Min(low, v)
					}
				}
			}
		}
	}
	if !drawn {
		return
	}
	if top == 0 || c.acc {
		top, low = 1, 1
	}
	// A loss that falls by more than 10× is drawn on a log scale: on a
	// linear one from 0 to its first, largest values, the rest of the
	// training would lie along the floor (a loss from 1.4 to 0.05 falls
	// within the lowest 4% of the chart).
	logScale := !c.acc && low < top/logRatio
	c.showScale(logScale)
	scale := func(v float64) float64 { return v / top }
	if logScale {
		lt, ll := math.Log(top), math.Log(low)
		scale = func(v float64) float64 { return (math.Log(math.Max(v, low)) - ll) / (lt - ll) }
	}
	const pad = 4.0
	k := pal.Stroke
	for n, h := range runs {
		// series is get's values on the chart's vertical scale (0 to 1),
		// NaN where there is none; smoothing them is smoothing the values
		// as drawn (on a log scale, their logarithms).
		series := func(get func(trainer.Record) float64) []float64 {
			ys := make([]float64, len(h))
			for i, r := range h {
				ys[i] = math.NaN()
				if v := get(r); !math.IsNaN(v) && !math.IsInf(v, 0) {
					ys[i] = scale(v)
				}
			}
			return ys
		}
		line := func(ys []float64, colour string, width float64, dash ...float64) {
			x.BeginPath()
			started := false
			for i, y := range ys {
				if math.IsNaN(y) {
					continue
				}
				px := pad + float64(h[i].Step)/last*(c.w-2*pad)
				py := c.h - pad - y*(c.h-2*pad)
				if !started {
					x.MoveTo(px, py)
					started = true
				} else {
					x.LineTo(px, py)
				}
			}
			ds := make([]any, len(dash))
			for i, d := range dash {
				ds[i] = d * k
			}
			x.Stroke(colour, width, ds...)
		}
		tr := series(func(r trainer.Record) float64 { return c.value(r.Train) })
		span := trainer.SmoothSpan(len(h))
		c.canvas.El.SetAttribute("data-smoothing", strconv.FormatFloat(span, 'f', 1, 64))
		if len(runs) > 1 {
			if span > 1 {
				tr = trainer.Smooth(tr, span)
			}
			line(tr, pal.Runs[n%len(pal.Runs)], 2.2*k, runDash[n%len(runDash)]...)
			continue
		}
		test := series(func(r trainer.Record) float64 { return c.value(r.Test) })
		if span > 1 {
			// Each evaluation, faint; over them the trend, which the jitter
			// of stochastic steps would otherwise hide.
			x.Alpha(0.3)
			line(test, pal.Test, 1.5*k)
			line(tr, pal.Ink, 1.5*k)
			x.Alpha(1)
			test, tr = trainer.Smooth(test, span), trainer.Smooth(tr, span)
		}
		line(test, pal.Test, 2*k, 6, 4)
		line(tr, pal.Ink, 2*k)
	}
	label := "max " + app.Num(top)
	if c.acc {
		label = "accuracy, 0 to 100%"
	}
	if logScale {
		label += " · log scale, min " + app.Num(low)
	}
	// The label keeps to the chart's width: in presenter mode's larger
	// type a log scale's label would run past its left edge.
	size := 11 * k
	if w := x.TextWidth(label, strconv.Itoa(int(size))+"px system-ui, sans-serif"); w > c.w-2*pad-4 {
		size = math.Max(8, size*(c.w-2*pad-4)/w)
	}
	font := strconv.Itoa(int(size)) + "px system-ui, sans-serif"
	if c.acc { // the curve climbs to the top: the label goes below it
		x.FillText(label, pad+2, c.h-pad-2, pal.Muted, font)
		return
	}
	// A loss starts at its top on the left and falls: the label goes in
	// the top right corner, clear of the curve.
	x.TextAlign("right")
	x.FillText(label, c.w-pad-2, 12*k, pal.Muted, font)
	x.TextAlign("left")
}
