//go:build js && wasm

package tape

import (
	"strconv"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/layout"
	"tapelab/wasm/tapesvg"
	"tapelab/wasm/ui"
)

// The scales a person may zoom to; fitting stays within
// [v.readable(w, h), fitMax].
const (
	zoomMin, zoomMax = 0.1, 4.0
	fitMax           = tapesvg.FitMax
	fitPad           = tapesvg.FitPad // where a tape too long to fit starts, in CSS px
	followPad        = 24.0           // the room kept around the node the view follows
	drawerGap        = 12.0           // the room kept between the tape and the explain drawer over it
)

// size is the drawing region's size in CSS pixels, as last measured.
func (v *View) size() (w, h float64) {
	if v.vw < 10 || v.vh < 10 {
		return 800, 400
	}
	return v.vw, v.vh
}

// readable is the smallest scale the tape is fitted at in a region of
// w × h: its titles at app.ReadableTitlePx, or in presenter mode at
// app.PresenterTitlePx where the tape fits at that size, else as large as
// it fits (app.FitFloor). Where the stylesheet sets a least scale (a
// phone's, where the shapes, roles and numbers must be readable too), it
// is no smaller than that.
func (v *View) readable(w, h float64) float64 {
	return max(app.FitFloor(v.presenting, v.folds, w, h), v.leastScale)
}

// readLeastScale reads the stylesheet's --tape-min-scale for the drawing
// (0 where it sets none).
func (v *View) readLeastScale() {
	v.leastScale, _ = strconv.ParseFloat(v.svg.Style("--tape-min-scale"), 64)
}

// measure reads the size of the drawing region the tape is fitted to: the
// region less what the explain drawer covers of it, where the drawer
// opens over the tape (below 1600 px, and presenting), so that the tape
// is drawn beside or above the explanation and not under it. The drawing's
// data-vw and data-vh say the region's size measured (as the first view's
// do), for the end-to-end tests to wait for a refit.
func (v *View) measure() {
	r := v.svg.Rect()
	v.vw, v.vh = r.Width, r.Height
	v.svg.SetAttribute("data-vw", strconv.FormatFloat(r.Width, 'f', -1, 64))
	v.svg.SetAttribute("data-vh", strconv.FormatFloat(r.Height, 'f', -1, 64))
	v.readLeastScale()
	if v.drawerOn {
		v.vw, v.vh = uncovered(r, v.drawer.Rect())
	}
}

// SetRoom records presenter mode and the explain panel (drawer, shown or
// not), which set the room the tape is fitted to; the next fit uses them
// (the page fits the tape in the next frame).
func (v *View) SetRoom(presenting bool, drawer dom.Elem, drawerOn bool) {
	v.presenting, v.drawer, v.drawerOn = presenting, drawer, drawerOn
}

// uncovered is the size of the part of region r, from its top left
// corner, that drawer d leaves in view with drawerGap to spare (a node's
// badge stands out of its box): the drawer opens over, or right beside,
// the region's right side (it starts past the region's first third, level
// with it) or its bottom (narrow screens, where it spans the width).
func uncovered(r, d dom.Rect) (w, h float64) {
	w, h = r.Width, r.Height
	if d.Width <= 0 || d.Height <= 0 || d.Top >= r.Top+r.Height+drawerGap || d.Top+d.Height <= r.Top ||
		d.Left >= r.Left+r.Width+drawerGap || d.Left+d.Width <= r.Left {
		return w, h // clear of the region, or not shown
	}
	if d.Left > r.Left+r.Width/3 {
		return min(w, d.Left-r.Left-drawerGap), h
	}
	if d.Top > r.Top+r.Height/3 {
		return w, min(h, d.Top-r.Top-drawerGap)
	}
	return w, h // over most of the region: the tape stays fitted to all of it
}

// DrawerMoved fits the tape again to its region, measured afresh, when the
// explain drawer is over it (SetRoom) and the user has not zoomed: the
// drawer moved.
func (v *View) DrawerMoved() {
	if v.drawerOn && !v.zoomed && v.lay != nil {
		v.Fit()
	}
}

// follow pans, keeping the zoom, so that node i is in view: when a teacher
// has zoomed in, or the tape is too long to fit at a readable size, the
// view moves along with the steps.
func (v *View) follow(i int) {
	if !(v.zoomed || v.overflow) || v.lay == nil || i < 0 || i >= len(v.lay.Boxes) {
		return
	}
	w, h := v.size()
	if nv, moved := v.view.Follow(v.lay.Boxes[i], w, h, followPad); moved {
		v.view = nv
		v.apply()
	}
}

// Fit scales the drawing to its region, measured afresh, no smaller than
// the scale at which titles are readable; a tape longer than that shows
// its start, or the node the last step ran, and follows the steps.
func (v *View) Fit() {
	v.measure()
	v.fitMeasured()
}

// FitAll is the Fit button and the f key: fit, and where the tape is too
// long for its region at a readable size but would fit whole beside the
// editor's column folded away, fold it away (as presenting does; its
// toggle opens it again): the person asked to see the whole tape, the
// loss included.
func (v *View) FitAll() {
	v.Fit()
	if !v.overflow {
		return
	}
	col := v.deps.EditorWidth()
	if col <= 0 {
		return
	}
	w, h := v.size()
	w += col
	if app.FitsWhole(v.folds, w, h, v.readable(w, h)) {
		v.deps.FoldEditor() // fits the tape again in the next frame
	}
}

// fitMeasured is fit at the region's size last measured.
func (v *View) fitMeasured() {
	if v.lay == nil {
		return
	}
	w, h := v.size()
	v.zoomed = false
	floor := v.readable(w, h)
	if rows := layout.PickRows(v.folds, w, h, floor, fitMax); rows != v.lay.Rows {
		v.refold(rows)
	}
	fitted := layout.View{Min: floor, Max: fitMax}.Fit(v.lay.Width, v.lay.Height, w, h, fitPad)
	v.overflow = fitted.Overflows(v.lay.Width, v.lay.Height, w, h)
	fitted.Min, fitted.Max = zoomMin, zoomMax
	v.view = fitted
	v.apply()
	if v.selected >= 0 {
		v.follow(v.selected)
	} else {
		v.follow(v.focus)
	}
}

// refold draws the tape folded into rows: each box and edge moves to its
// place in base.Wrap(rows).
func (v *View) refold(rows int) {
	v.stopTravels() // the dots follow the old edges
	v.lay = v.base.Wrap(rows)
	v.svg.SetAttribute("data-rows", strconv.Itoa(v.lay.Rows))
	v.place()
}

// place moves each box and edge to its place in v.lay.
func (v *View) place() {
	for i, b := range v.lay.Boxes {
		v.boxes[i].g.SetAttribute("transform", "translate("+ui.F1(b.X)+" "+ui.F1(b.Y)+")")
	}
	for k, e := range v.lay.Edges {
		v.edges[k].SetAttribute("d", e.Path())
	}
}

// apply draws the world at v.view and says on the drawing how it is
// shown (data-view: fit, pans or zoomed).
func (v *View) apply() {
	v.world.SetAttribute("transform", "translate("+ui.F1(v.view.TX)+" "+ui.F1(v.view.TY)+") scale("+strconv.FormatFloat(v.view.Scale, 'f', 4, 64)+")")
	if v.overflow && !v.zoomed {
		v.svg.SetAttribute("data-view", "pans")
	} else if v.zoomed {
		v.svg.SetAttribute("data-view", "zoomed")
	} else {
		v.svg.SetAttribute("data-view", "fit")
	}
	v.loss.update(v)
}
