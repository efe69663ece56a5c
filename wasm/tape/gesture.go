//go:build js && wasm

package tape

import (
	"math"
	"strconv"

	"tapelab/wasm/dom"
	"tapelab/wasm/layout"
)

// gesture is the pointers on the tape: one pans, two pinch. A mouse, a pen
// and a finger take the same path.
type gesture struct {
	pointers []pointer // down on the tape, in the order they came
	origin   dom.Rect  // the drawing region, when the first went down
	dragged  float64   // how far the pointers moved since the first went down
	captured bool
}

// pointer is one pointer down on the tape and where it is now, in the
// region's pixels.
type pointer struct {
	id int
	at layout.Point
}

// tapSlop is how far (in CSS pixels) a pointer may move and still tap.
const tapSlop = 6

func (v *View) onClick(ev dom.Event) {
	if v.dragged > tapSlop { // the end of a pan or a pinch, not a tap on a node
		v.dragged = 0
		return
	}
	hit := ev.Target().Closest("[data-node]")
	if !hit.OK() {
		return
	}
	i, err := strconv.Atoi(hit.GetAttribute("data-node"))
	if err == nil {
		v.deps.State.Select(i)
	}
}

// Zoom zooms in by factor (out, below 1) around the region's centre.
func (v *View) Zoom(factor float64) { v.zoomBy(factor, -1, -1) }

// zoomBy zooms by factor around (cx, cy) in the region's pixels, or around
// its centre when cx < 0.
func (v *View) zoomBy(factor, cx, cy float64) {
	if cx < 0 {
		w, h := v.size()
		cx, cy = w/2, h/2
	}
	v.zoomed = true
	v.view = v.view.ZoomAt(factor, cx, cy)
	v.apply()
}

// onWheel zooms around the pointer: a mouse wheel, or a trackpad's pinch.
func (v *View) onWheel(ev dom.Event) {
	ev.PreventDefault()
	r := v.svg.Rect()
	x, y := ev.Client()
	v.zoomBy(layout.WheelFactor(ev.DeltaY(), ev.Mod("ctrlKey")), x-r.Left, y-r.Top)
}

// at returns where a pointer event is, in the region's pixels.
func (v *View) at(ev dom.Event) layout.Point {
	x, y := ev.Client()
	return layout.Point{X: x - v.origin.Left, Y: y - v.origin.Top}
}

// find returns the index of pointer id among those down, or -1.
func (g *gesture) find(id int) int {
	for k, p := range g.pointers {
		if p.id == id {
			return k
		}
	}
	return -1
}

func (v *View) onDown(ev dom.Event) {
	if ev.PointerType() == "mouse" && ev.Button() != 0 {
		return
	}
	if len(v.pointers) == 0 {
		v.origin = v.svg.Rect()
		v.dragged, v.captured = 0, false
	}
	if v.find(ev.PointerID()) >= 0 {
		return
	}
	v.pointers = append(v.pointers, pointer{ev.PointerID(), v.at(ev)})
	if len(v.pointers) > 1 {
		// A second finger makes a pinch, never a tap: hold both.
		v.dragged = tapSlop + 1
		for _, p := range v.pointers {
			dom.CapturePointer(v.svg, p.id)
		}
		v.captured = true
	}
}

// onMove pans with one pointer and pinches with two (a third is ignored).
// A pointer is captured only once it drags, so that a tap still lands on
// the node under it.
func (v *View) onMove(ev dom.Event) {
	k := v.find(ev.PointerID())
	if k < 0 || k > 1 {
		return
	}
	was, now := v.pointers[k].at, v.at(ev)
	v.pointers[k].at = now
	if len(v.pointers) == 1 {
		v.dragged += math.Abs(now.X-was.X) + math.Abs(now.Y-was.Y)
		v.view = v.view.Pan(now.X-was.X, now.Y-was.Y)
		if v.dragged > tapSlop && !v.captured {
			dom.CapturePointer(v.svg, ev.PointerID())
			v.captured = true
		}
	} else {
		other := v.pointers[1-k].at
		v.view = v.view.Pinch(was, other, now, other)
	}
	if v.dragged > tapSlop {
		v.zoomed = true
	}
	v.apply()
}

func (v *View) onUp(ev dom.Event) {
	if k := v.find(ev.PointerID()); k >= 0 {
		v.pointers = append(v.pointers[:k], v.pointers[k+1:]...)
	}
}
