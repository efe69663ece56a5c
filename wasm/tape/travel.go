//go:build js && wasm

package tape

import (
	"strconv"

	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/ui"
)

// travels shows what a step sends along the tape's edges as dots that move
// (SVG animateMotion, so the browser moves them without the page's code
// running each frame): a forward step's operands into the node, a backward
// step's contributions back to the parents, each labelled = or +=. A
// parent's box lights up as a contribution arrives. With
// prefers-reduced-motion: reduce nothing moves; the step's changes of
// state are drawn as always.
//
// While dots move, the tape's svg carries data-travelling, their number.
type travels struct {
	movers dom.Elem // the layer above the boxes that holds the dots
	// dots are the dots made so far in movers, each a <g> with its
	// circle, label and animateMotion, and dotEls their <g>, <text> and
	// <animateMotion> in order, which a step writes in one call: it shows
	// as many as it sends (class "mover …") and leaves the rest without a
	// class, which hides them.
	dots    []dom.Elem // the animateMotion of each
	dotEls  dom.Elems
	dotW    dom.Writes
	moving  int   // the dots shown
	arrived []int // the nodes lit by an arrival
	motion  dom.MediaQuery
	// run counts the step's travels, so that a timer of an earlier step's
	// travels does nothing once a newer step has started.
	run int
}

// travel starts the dots of step e (nil: a redraw of everything, which
// moves nothing). The previous step's dots are taken away first.
func (v *View) travel(s *app.Stepper, e *autograd.Event) {
	v.stopTravels()
	if e == nil || v.motion.Matches() {
		return
	}
	trs := s.Travels(e)
	if len(trs) == 0 {
		return
	}
	ms := app.TravelMs(v.deps.Rate())
	doc := v.deps.Doc
	run := v.run
	last := 0.0
	for _, t := range trs {
		k, ok := v.edgeAt[[2]int{t.Child, t.Operand}]
		if !ok {
			continue
		}
		// The edge's path runs from the parent to the child: a
		// contribution runs it backwards. A delayed dot waits at its start,
		// then moves in ms.
		dur := ms * (1 + t.Delay)
		start, end, class := "0", "1", "mover fwd"
		if t.Backward {
			start, end, class = "1", "0", "mover bwd "+ui.AccClass(t.Label)
		}
		points, times := start+";"+end, "0;1"
		if t.Delay > 0 {
			points = start + ";" + points
			times = "0;" + strconv.FormatFloat(t.Delay/(1+t.Delay), 'f', 3, 64) + ";1"
		}
		if v.moving == len(v.dots) {
			v.addDot()
		}
		at := 3 * v.moving
		v.dotW.Attr(at, "class", class)
		v.dotW.Text(at+1, t.Label)
		v.dotW.Attr(at+2, "dur", ui.F1(dur)+"ms")
		v.dotW.Attr(at+2, "keyPoints", points)
		v.dotW.Attr(at+2, "keyTimes", times)
		v.dotW.Attr(at+2, "path", v.lay.Edges[k].Path())
		v.moving++
		last = max(last, dur)
		if t.Backward {
			to := t.Parent
			dom.After(doc, dur, "arrival", func() { v.arrive(run, to) })
		}
	}
	if v.moving == 0 {
		return
	}
	doc.Write(v.dotEls, &v.dotW)
	for _, anim := range v.dots[:v.moving] {
		dom.BeginAnimation(anim)
	}
	v.svg.SetAttribute("data-travelling", strconv.Itoa(v.moving))
	// The dots stay a moment where they arrived, then go.
	dom.After(doc, last+150, "travel", func() {
		if v.run == run {
			v.stopTravels()
		}
	})
}

// addDot makes one more dot in the movers layer, hidden.
func (v *View) addDot() {
	doc := v.deps.Doc
	g := doc.SVG("g")
	anim := doc.SVG("animateMotion", "begin", "indefinite", "fill", "freeze", "calcMode", "linear")
	dom.Add(g, doc.SVG("circle", "r", "9"), ui.SVGText(doc, "mover-label", app.TitlePx, 12, -10, ""), anim)
	v.movers.AppendChild(g)
	v.dots = append(v.dots, anim)
	v.dotEls = v.movers.All("g, text, animateMotion")
}

// arrive lights node i's box: a contribution of travel run reached it.
func (v *View) arrive(run, i int) {
	if v.run != run || i < 0 || i >= len(v.boxes) {
		return
	}
	v.boxes[i].g.AddClass("arrived")
	v.arrived = append(v.arrived, i)
}

// stopTravels takes the moving dots and the arrival lights away.
func (v *View) stopTravels() {
	v.run++
	for k := range v.moving {
		v.dotW.Attr(3*k, "class", "")
	}
	v.deps.Doc.Write(v.dotEls, &v.dotW)
	v.moving = 0
	for _, i := range v.arrived {
		if i < len(v.boxes) {
			v.boxes[i].g.RemoveClass("arrived")
		}
	}
	v.arrived = v.arrived[:0]
	v.svg.RemoveAttribute("data-travelling")
}
