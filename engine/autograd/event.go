package autograd

import (
	"strconv"

	"tapelab/engine/tensor"
)

// EventKind tells which kind of step an Event reports.
type EventKind uint8

// The kinds of cursor event.
const (
	EventForward      EventKind = iota // a node's value became known
	EventBackward                      // a node's VJP ran and fed its parents
	EventUndoForward                   // a node's value was forgotten again
	EventUndoBackward                  // a VJP step was taken back; parents hold their Before gradients again
	EventReset                         // the cursor went back to its start
)

// String names the kind as the playground's log shows it.
func (k EventKind) String() string {
	switch k {
	case EventForward:
		return "forward"
	case EventBackward:
		return "backward"
	case EventUndoForward:
		return "undo forward"
	case EventUndoBackward:
		return "undo backward"
	case EventReset:
		return "reset"
	}
	return "event(" + strconv.Itoa(int(k)) + ")"
}

// Phase tells which pass a cursor is in.
type Phase uint8

// The phases of a cursor, in the order it goes through them.
const (
	PhaseForward  Phase = iota // nodes are being evaluated
	PhaseBackward              // every value is known; VJPs are being run
	PhaseDone                  // the reverse pass is complete
)

// String names the phase.
func (p Phase) String() string {
	switch p {
	case PhaseForward:
		return "forward"
	case PhaseBackward:
		return "backward"
	case PhaseDone:
		return "done"
	}
	return "phase(" + strconv.Itoa(int(p)) + ")"
}

// Position is where a cursor stands.
type Position struct {
	Phase Phase
	// Node is the node the next step handles: the node Forward evaluates
	// next (PhaseForward) or whose VJP Backward runs next (PhaseBackward).
	// It is -1 in PhaseDone.
	Node int
	// Known counts the nodes whose values are known (ids 0 … Known−1).
	Known int
	// Steps counts the VJPs run so far.
	Steps int
}

// Contribution is one term a VJP step folds into a parent's gradient.
type Contribution struct {
	// Operand is the operand slot of the stepped node (0 for A in A·B).
	Operand int
	// Parent is the node id in that slot; a node using the same parent in
	// two slots (x⊙x) makes two contributions, folded in operand order.
	Parent int
	// Value is the contribution itself, shaped like the parent's value.
	Value *tensor.Tensor
	// Before is the parent's gradient before this contribution, or nil when
	// this is its first one; After is Before + Value (Value when Before is nil),
	// exactly as the one-shot pass computes it.
	Before, After *tensor.Tensor
}

// Event reports one cursor step. Its tensors are copies made for the event:
// listeners may keep them, but all listeners share them, so they must treat
// them as read-only.
type Event struct {
	Kind EventKind
	// Node is the node stepped (or un-stepped); -1 for EventReset.
	Node int
	// Value is a copy of the node's value (EventForward only).
	Value *tensor.Tensor
	// Grad is a copy of the cotangent the node's VJP ran on
	// (EventBackward and EventUndoBackward).
	Grad *tensor.Tensor
	// Contribs lists the step's contributions in the order they were folded
	// (EventBackward), or the contributions being taken back, in the same
	// order and with the same Before and After (EventUndoBackward).
	Contribs []Contribution
	// Position is the cursor's position after the step.
	Position Position
}

func cloneOrNil(t *tensor.Tensor) *tensor.Tensor {
	if t == nil {
		return nil
	}
	return t.Clone()
}

func cloneContribs(cs []Contribution) []Contribution {
	out := make([]Contribution, len(cs))
	for i, c := range cs {
		out[i] = Contribution{Operand: c.Operand, Parent: c.Parent,
			Value: cloneOrNil(c.Value), Before: cloneOrNil(c.Before), After: cloneOrNil(c.After)}
	}
	return out
}
