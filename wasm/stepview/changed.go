//go:build js && wasm

package stepview

import (
	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/state"
)

// Changed draws the step view's part of a change of the state, in one
// call. The hub calls it before the tape's (tape.View.Changed), which
// needs of the step view only what it asks through its Deps (a node's
// gradient as shown, its tangent, the example the images show: set here
// when a step is recorded again).
//
// A step recorded again, or the editing mode switched, stops playing and
// (a new document) forgets what was typed but did not apply, draws the
// editor's cards and Program mode's column, then the new step's listing,
// counters and inspector. A move of the stepper draws what it changed
// (e is its event; nil for a jump, a reset or the end); a node pinned is
// drawn in the listing, the inspector and forward mode; the
// gradient-zeroing switch and forward mode are drawn as the state holds
// them. The explain panel follows the step.
func (v *View) Changed(c state.Change, e *autograd.Event) {
	if c.Has(state.Training) {
		v.optSync(v.st.Training())
	}
	if c.Has(state.Step | state.Editing) {
		v.recorded(c)
	} else {
		v.moved(c, e)
	}
	if c.Has(state.Step | state.Position | state.Editing) {
		v.ex.refresh()
	}
}

// recorded draws a step recorded again (or the editing mode switched):
// the editors first, then, once its tape is laid out, the step itself.
func (v *View) recorded(c state.Change) {
	v.stepper.pause()
	if c.Has(state.Doc) {
		v.editor.forget()
		v.prog.forget()
	}
	if c.Has(state.Editing) {
		v.prog.showMode()
	}
	if !v.held {
		v.editor.render()
	}
	v.prog.render()
	s := v.src().Stepper()
	if s == nil {
		return
	}
	if _, err := s.Layout(); err != nil {
		return // the hub shows the error
	}
	v.img.rebuilt()
	v.listing.build(v.src())
	v.stepper.recorded(s)
	v.Redraw()
}

// moved draws a change on the same step: the switches, the node pinned,
// the stepper's move.
func (v *View) moved(c state.Change, e *autograd.Event) {
	if c.Has(state.Hygiene) {
		v.hygiene.showSwitch()
	}
	if c.Has(state.Forward) && v.prog.ready() {
		v.prog.forward.show()
	}
	if i := v.st.Selected(); c.Has(state.Selection) && i >= 0 {
		v.showPinned(i)
	}
	s := v.src().Stepper()
	switch {
	case s == nil:
	case c.Has(state.Position):
		v.refresh(s, e, true)
	case c.Has(state.Forward) && v.st.ProgramMode():
		v.refresh(s, nil, false) // forward mode, as drawn above
	}
}

// Redraw draws the stepper's whole state again, as on a newly recorded
// step, for a change the state does not record (the example the images
// show); the hub redraws the tape's nodes with it (tape.View.Redraw).
func (v *View) Redraw() {
	if s := v.src().Stepper(); s != nil {
		v.refresh(s, nil, false)
	}
}

// BrokenNotice says why the tape on screen is not the current model's or
// program's, when its text or layers have an error.
func (v *View) BrokenNotice() string { return v.prog.brokenNotice() }

// Reads reports whether node k reads node i, the image input: its step
// may complete the saliency map, so the input is redrawn with it.
func (v *View) Reads(s *app.Stepper, k, i int) bool { return v.img.reads(s, k, i) }

// GradOf is node i's gradient as the views show it: the tape's, or for
// the image input, once every node reading it has run its VJP, the
// saliency map dL/dx.
func (v *View) GradOf(s *app.Stepper, i int) *tensor.Tensor { return v.img.gradOf(s, i) }

// Tangent is node i's tangent as its box on the tape shows it, in
// Program mode's forward mode ("" otherwise, or before its value).
func (v *View) Tangent(s *app.Stepper, i int) string { return v.prog.tangent(s, i) }

// refresh draws what a move of the stepper changed (moved), or the
// stepper's whole state on a newly drawn tape: the counters and the step
// in words, the listing's current line, the inspector (unless start-up
// holds it back), forward mode's check and the parameter gradients. e is
// the step's event; nil for a jump, a reset or a new tape.
func (v *View) refresh(s *app.Stepper, e *autograd.Event, moved bool) {

	// A quiet node (a metric the loss does not depend on, in the dense
	// pass) runs within the step next to it: that step's event says so, and
	// the quiet node's own event does not speak.
	if e == nil || !(e.Kind == autograd.EventBackward || e.Kind == autograd.EventUndoBackward) || !s.Quiet(e.Node) {
		v.stepper.update(s, e)
	}
	if moved && e == nil {
		v.stepper.jumped(s)
	}
	v.listing.current(s.Focus())
	show := v.shown(s)
	if !v.held {
		v.insp.show(s, show)
	}
	v.prog.refresh(s, show)
	v.hygiene.update(s)
}

// shown is the node the inspector shows: the pinned one, else the one the
// last step ran, else the next.
func (v *View) shown(s *app.Stepper) int {
	if i := v.st.Selected(); i >= 0 {
		return i
	}
	if i := s.Focus(); i >= 0 {
		return i
	}
	return s.Position().Node
}

// showPinned draws node i, pinned, in the listing, the inspector and
// forward mode (where a leaf's one-hot becomes the direction).
func (v *View) showPinned(i int) {
	v.listing.current(i)
	v.insp.show(v.src().Stepper(), i)
	v.prog.inspected(i)
}

// HoldColumns holds the editor's cards and the inspector back while
// start-up draws the page's first step; DrawColumns draws them.
func (v *View) HoldColumns() { v.held = true }

// DrawColumns draws the editor's cards and the inspector, which start-up
// held back while it drew the first step, each in a task of its own
// (yield lets the browser run its tasks in between): together they are
// longer than a slice of start-up. A change meanwhile draws them both
// itself.
func (v *View) DrawColumns(yield func()) {
	v.held = false
	v.editor.render()
	yield()
	if s := v.src().Stepper(); s != nil {
		v.insp.show(s, v.shown(s))
	}
}

// ShowExplain shows or hides the explain panel, drawn for the step on
// screen.
func (v *View) ShowExplain(on bool) {
	v.ex.show(on)
	v.ex.refresh()
}
