//go:build js && wasm

package stepview

import (
	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/state"
)

// Changed does the step view's part of a change of the state that comes
// before the tape is drawn: a step recorded again, or the editing mode
// switched, stops playing and (a new document) forgets what was typed but
// did not apply; the gradient-zeroing switch and forward mode are drawn as
// the state holds them. The hub then draws the step (Render, Rebuilt,
// Recorded and Refresh, around the tape's parts), the pinned node
// (ShowPinned) or the stepper's move (Refresh).
func (v *View) Changed(c state.Change, e *autograd.Event) {
	if c.Has(state.Training) {
		v.optSync(v.st.Training())
	}
	if c.Has(state.Step | state.Editing) {
		v.stepper.pause()
		if c.Has(state.Doc) {
			v.editor.forget()
			v.prog.forget()
		}
		if c.Has(state.Editing) {
			v.prog.showMode()
		}
		return
	}
	if c.Has(state.Hygiene) {
		v.hygiene.showSwitch()
	}
	if c.Has(state.Forward) && v.prog.ready() {
		v.prog.forward.show()
	}
}

// Render draws the editor's cards (unless start-up holds them back) and
// Program mode's column for the document recorded, first of a redraw
// after the model, the modes or the data changed.
func (v *View) Render() {
	if !v.held {
		v.editor.render()
	}
	v.prog.render()
}

// BrokenNotice says why the tape on screen is not the current model's or
// program's, when its text or layers have an error.
func (v *View) BrokenNotice() string { return v.prog.brokenNotice() }

// Rebuilt follows a newly recorded step before its tape is drawn: the
// example the images show is the drawing's, and the drawing pad shows for
// image classifiers.
func (v *View) Rebuilt() { v.img.rebuilt() }

// Recorded lists the newly recorded step s (in compiled mode) and says
// where its tape stands, after the tape is drawn.
func (v *View) Recorded(s *app.Stepper) {
	v.listing.build(v.src())
	v.stepper.recorded(s)
}

// Reads reports whether node k reads node i, the image input: its step
// may complete the saliency map, so the input is redrawn with it.
func (v *View) Reads(s *app.Stepper, k, i int) bool { return v.img.reads(s, k, i) }

// GradOf is node i's gradient as the views show it: the tape's, or for
// the image input, once every node reading it has run its VJP, the
// saliency map dL/dx.
func (v *View) GradOf(s *app.Stepper, i int) *tensor.Tensor { return v.img.gradOf(s, i) }

// Refresh draws what a move of the stepper changed, after the tape drew
// its part (moved), or the stepper's whole state on a newly drawn tape:
// the counters and the step in words, the listing's current line, the
// inspector (unless start-up holds it back), forward mode's tangents and
// the parameter gradients. e is the step's event; nil for a jump, a reset
// or a new tape.
func (v *View) Refresh(s *app.Stepper, e *autograd.Event, moved bool) {
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

// ShowPinned draws node i, pinned, in the listing, the inspector and
// forward mode (where a leaf's one-hot becomes the direction).
func (v *View) ShowPinned(i int) {
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

// ShowExplain shows or hides the explain panel.
func (v *View) ShowExplain(on bool) { v.ex.show(on) }

// RefreshExplain redraws the explain panel when the stepper moved.
func (v *View) RefreshExplain() { v.ex.refresh() }
