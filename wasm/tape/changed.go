//go:build js && wasm

package tape

import (
	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/state"
)

// Changed redraws what change c of the state touched; e is the step's
// event (nil for a jump, a reset or the end). A step recorded again
// (state.Step, state.Editing) draws the new tape and its list, every node
// in its state. Otherwise state.Selection marks the node pinned in the
// inspector; state.Position draws the nodes the stepper's move touched,
// lights the edges into the node it ran, follows that node and sends the
// step's dots along the edges; forward mode switched or steered in
// Program mode (state.Forward) draws every node's tangent. A step whose
// tape cannot be laid out is not drawn (the page reports why).
func (v *View) Changed(c state.Change, e *autograd.Event) {
	s := v.deps.State.Source().Stepper()
	if s == nil {
		return
	}
	if c.Has(state.Step | state.Editing) {
		lay, err := s.Layout()
		if err != nil {
			return
		}
		v.build(s, lay)
		v.list.build(s)
		v.redraw(s, nil, false)
		return
	}
	if c.Has(state.Selection) {
		i := v.deps.State.Selected()
		v.selectNode(i)
		v.list.selectNode(i)
	}
	switch {
	case c.Has(state.Position):
		v.redraw(s, e, true)
	case c.Has(state.Forward) && v.deps.State.ProgramMode():
		v.redraw(s, nil, false)
	}
}

// Redraw draws every node's state, value and gradient again and keeps the
// view where it is: after the tape was built (Changed with state.Step
// alone), or a change the state does not record (the example the images
// show).
func (v *View) Redraw() {
	if s := v.deps.State.Source().Stepper(); s != nil {
		v.redraw(s, nil, false)
	}
}

// redraw draws the nodes step e touched (nil: every node) in the drawing
// and the list, lights the edges into the node it ran, follows that node
// when the stepper moved, and sends the step's dots.
func (v *View) redraw(s *app.Stepper, e *autograd.Event, moved bool) {
	all := e == nil || e.Kind == autograd.EventReset
	touched := func(i int) bool {
		if all || e.Node == i || v.deps.Reads(s, e.Node, i) {
			return true
		}
		for _, c := range e.Contribs {
			if c.Parent == i {
				return true
			}
		}
		return false
	}
	for i := range s.Nodes() {
		st := s.State(i)
		v.update(s, i, st, touched(i))
		v.list.update(i, st)
	}
	v.flush()
	focus := s.Focus()
	v.highlight(focus)
	if moved {
		v.follow(focus)
	}
	// A quiet node (a metric the loss does not depend on, in the dense
	// pass) runs within the step next to it: that step's event says so, and
	// the quiet node's own event sends nothing.
	if e == nil || !(e.Kind == autograd.EventBackward || e.Kind == autograd.EventUndoBackward) || !s.Quiet(e.Node) {
		v.travel(s, e)
	}
}
