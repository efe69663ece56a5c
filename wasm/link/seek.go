package link

import (
	"fmt"

	"tapelab/wasm/app"
)

// PositionOf reports where s stands, as a link stores it.
func PositionOf(s *app.Stepper) Position {
	p := s.Position()
	return Position{Phase: p.Phase.String(), Node: p.Node}
}

// Seek resets s and steps it to p: forward until node p.Node is the next to
// evaluate, or through the forward pass and the backward pass until node
// p.Node's VJP is the next to run (or, for a quiet node, has run), or to
// the end. A position the tape never
// reaches (a node it does not have, or one the backward pass does not
// visit) is an *Error naming it, and s is left at its start.
func Seek(s *app.Stepper, p Position) error {
	s.Reset()
	if p.IsStart() {
		return nil
	}
	want := p.phase()
	for {
		if got := PositionOf(s); got.Phase == want && got.Node == p.Node {
			return nil
		}
		// A quiet node is never next: a link made when it was a step of
		// its own opens at the step that runs it.
		if want == PhaseBackward && s.Quiet(p.Node) && s.State(p.Node).Has(app.Ran) {
			return nil
		}
		if _, ok := s.Step(); !ok {
			break
		}
	}
	s.Reset()
	n := len(s.Nodes())
	if want == PhaseForward && p.Node >= n {
		return &Error{Part: "pos.node", Msg: fmt.Sprintf("the tape has nodes 0 to %d, not %d", n-1, p.Node)}
	}
	if err := s.Err(); err != nil {
		return &Error{Part: "pos", Err: err}
	}
	return &Error{Part: "pos.node", Msg: fmt.Sprintf("the %s pass never stops at node %d (the tape has %d nodes)", want, p.Node, n)}
}
