package app

import "tapelab/engine/autograd"

// ReadableTitlePx is the smallest size, in CSS pixels, a node's title may
// be drawn at when the tape is fitted to its region; ReadableScale is the
// drawing's scale that gives it. A tape too long to fit at that scale is
// shown at it and panned along the chain instead.
const (
	ReadableTitlePx = 12.0
	ReadableScale   = ReadableTitlePx / TitlePx
)

// PresenterTitlePx is ReadableTitlePx in presenter mode, where a room
// reads the tape from a projector: a tape that would be drawn smaller
// folds into more rows, or is panned along. PresenterScale is the
// drawing's scale that gives it.
const (
	PresenterTitlePx = 16.0
	PresenterScale   = PresenterTitlePx / TitlePx
)

// Travel is one thing a step sends along an edge of the tape, for the
// drawing to show moving: a forward step reads each operand's value along
// the edge from the operand into the node; a backward step sends each
// contribution back along that edge, from the node to its parent.
type Travel struct {
	// Parent, Child and Operand name the edge: Parent is the node in
	// Child's operand slot Operand.
	Parent, Child, Operand int
	// Backward is set for a contribution (moving from Child to Parent).
	Backward bool
	// Label is what the mover shows: "=" for a parent's first
	// contribution, "+=" for one added to a gradient it already has; ""
	// for a forward step's operand.
	Label string
	// Delay is when it sets off, in units of the travel's duration: the
	// contributions one step sends to the same parent (x⊙x) leave one
	// after another, so that they arrive separately and add up in order.
	Delay float64
}

// Travels lists what step e, the stepper's latest, sends along the tape's
// edges; the labels are the stepper's (a parent's first contribution is
// "=", as the inspector shows it). Only forward and backward steps send
// anything; undoing a step and resetting do not.
func (s *Stepper) Travels(e *autograd.Event) []Travel {
	nodes := s.Nodes()
	if e == nil || e.Node < 0 || e.Node >= len(nodes) {
		return nil
	}
	var out []Travel
	switch e.Kind {
	case autograd.EventForward:
		for k, p := range nodes[e.Node].Parents {
			out = append(out, Travel{Parent: p, Child: e.Node, Operand: k})
		}
	case autograd.EventBackward:
		seen := map[int]int{} // contributions already sent to each parent
		for _, c := range s.Contribs(e.Node) {
			label := "+="
			if c.Before == nil {
				label = "="
			}
			out = append(out, Travel{Parent: c.Parent, Child: e.Node, Operand: c.Operand, Backward: true,
				Label: label, Delay: 0.5 * float64(seen[c.Parent])})
			seen[c.Parent]++
		}
	}
	return out
}

// TravelMs is how long one travel takes, in ms, when playing at rate steps
// per second: 300 ms at the default rate of 4, shorter when playing faster
// so that a step's travels end before the next step, and at most 600 ms.
func TravelMs(rate int) float64 {
	return min(600, max(40, 1200/float64(max(rate, 1))))
}
