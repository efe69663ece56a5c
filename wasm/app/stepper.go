package app

import (
	"errors"
	"slices"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// State is what a node looks like at the cursor's position, as flags the
// views turn into classes.
type State uint8

// The node states.
const (
	Known   State = 1 << iota // its value has been computed
	HasGrad                   // some gradient has reached it
	Final                     // its gradient is complete
	Ran                       // its VJP step has run
	Next                      // the cursor's next step handles it
	Focus                     // the last step handled it
	Skipped                   // the backward pass does not visit it
	// Side marks an op node with a VJP that the output does not depend on
	// (a metric beside the loss): the dense pass visits it with a zero
	// cotangent, the single-output pass skips it.
	Side
)

// Has reports whether every flag of f is set in s.
func (s State) Has(f State) bool { return s&f == f }

// Counts are the stepper's counters: forward k of n nodes known, backward
// k of n VJP steps run.
type Counts struct {
	Forward, ForwardTotal   int
	Backward, BackwardTotal int
}

// Stepper walks one recorded tape with the engine's cursor and remembers
// what the views show: each VJP step's contributions, the node the last
// step handled, and the order the backward pass visits nodes in. It steps
// one of two passes: the single-output pass (NewStepper, the cursor of
// BackwardDense from the loss: only the loss's dependencies) or the dense
// all-seeds pass (NewDenseStepper: every node with a VJP, side nodes
// included).
type Stepper struct {
	tape  *autograd.Tape
	cur   *autograd.Cursor
	nodes []NodeInfo
	order []int                     // the nodes whose VJP the backward pass runs, in order
	deps  []int                     // the nodes the single-output pass runs (the loss's dependencies), in order
	runs  []bool                    // runs[i]: node i is in order
	side  []bool                    // side[i]: node i has a VJP but the output does not depend on it
	steps [][]autograd.Contribution // per node: its VJP step's contributions while run
	fed   []int                     // per node: contributions received so far
	focus int
}

// NewStepper returns a stepper at the start of t that computes out and then
// its gradients with the single-output pass: only out's dependencies run
// their VJPs.
func NewStepper(t *autograd.Tape, out int) (*Stepper, error) {
	return newStepper(t, out, false)
}

// NewDenseStepper returns a stepper at the start of t that computes every
// node and then steps the dense all-seeds pass (BackwardDenseFrom with ones
// at out and +0.0 elsewhere): every node with a VJP runs it, a side node on
// its zero cotangent.
func NewDenseStepper(t *autograd.Tape, out int) (*Stepper, error) {
	return newStepper(t, out, true)
}

func newStepper(t *autograd.Tape, out int, dense bool) (*Stepper, error) {
	single, err := autograd.NewCursor(t, out)
	if err != nil {
		return nil, err
	}
	deps := single.Order()
	single.Close()
	mk := autograd.NewCursor
	if dense {
		mk = autograd.NewDenseCursor
	}
	cur, err := mk(t, out)
	if err != nil {
		return nil, err
	}
	s := &Stepper{tape: t, cur: cur, nodes: Describe(t), order: cur.Order(), deps: deps,
		runs: make([]bool, t.Len()), side: make([]bool, t.Len()),
		steps: make([][]autograd.Contribution, t.Len()), fed: make([]int, t.Len()), focus: -1}
	for _, i := range s.order {
		s.runs[i] = true
	}
	dep := make([]bool, t.Len())
	for _, i := range deps {
		dep[i] = true
	}
	for i := range cur.Nodes() {
		nd := t.Node(i)
		s.side[i] = nd.Op != nil && nd.RequiresGrad && !dep[i]
	}
	return s, nil
}

// Dense reports whether the stepper steps the dense all-seeds pass.
func (s *Stepper) Dense() bool { return s.cur.Dense() }

// Dependencies lists the nodes the single-output pass runs (the output's
// dependencies), in order, whichever pass the stepper steps.
func (s *Stepper) Dependencies() []int { return s.deps }

// Nodes describes the tape's nodes.
func (s *Stepper) Nodes() []NodeInfo { return s.nodes }

// Tape returns the tape being stepped.
func (s *Stepper) Tape() *autograd.Tape { return s.tape }

// Cursor returns the engine's cursor, for views that listen to its events.
func (s *Stepper) Cursor() *autograd.Cursor { return s.cur }

// Output is the node the stepper computes and differentiates (the loss).
func (s *Stepper) Output() int { return s.cur.Output() }

// Order lists the nodes whose VJP the backward pass runs, in order.
func (s *Stepper) Order() []int { return s.order }

// Step takes one step forward in time: the next forward node while values
// are missing, else the next VJP. It reports false at the end.
func (s *Stepper) Step() (autograd.Event, bool) {
	if s.cur.Position().Phase == autograd.PhaseForward {
		return s.Forward()
	}
	return s.Backward()
}

// Forward evaluates the next node.
func (s *Stepper) Forward() (autograd.Event, bool) {
	e, ok := s.cur.Forward()
	if ok {
		s.focus = e.Node
	}
	return e, ok
}

// Backward runs the next VJP step; the forward pass must be complete.
//
// In the dense pass every slot already holds its +0.0 seed, so the engine
// reports a Before for every contribution; the stepper keeps the lesson of
// += visible by recording a parent's first contribution (the parent had
// only its seed, and is not the output) with a nil Before, as the
// single-output pass reports it. After is always the engine's sum.
func (s *Stepper) Backward() (autograd.Event, bool) {
	e, ok := s.cur.Backward()
	if !ok {
		return e, ok
	}
	cs := slices.Clone(e.Contribs)
	for k, c := range cs {
		if s.fed[c.Parent] == 0 && c.Parent != s.Output() {
			cs[k].Before = nil
		}
		s.fed[c.Parent]++
	}
	s.steps[e.Node] = cs
	s.focus = e.Node
	return e, ok
}

// Back takes back the last step.
func (s *Stepper) Back() (autograd.Event, bool) {
	e, ok := s.cur.Undo()
	if !ok {
		return e, ok
	}
	if e.Kind == autograd.EventUndoBackward {
		for _, c := range s.steps[e.Node] {
			s.fed[c.Parent]--
		}
		s.steps[e.Node] = nil
	}
	s.focus = -1
	if n := s.Counts(); n.Backward > 0 {
		s.focus = s.order[n.Backward-1]
	} else if n.Forward > 0 {
		s.focus = n.Forward - 1
	}
	return e, ok
}

// Reset takes the stepper back to its start.
func (s *Stepper) Reset() {
	s.cur.Reset()
	clear(s.steps)
	clear(s.fed)
	s.focus = -1
}

// ToEnd steps until the backward pass is complete and reports how many
// steps it took.
func (s *Stepper) ToEnd() int {
	n := 0
	for {
		if _, ok := s.Step(); !ok {
			return n
		}
		n++
	}
}

// ForwardToEnd evaluates every remaining node and stops before the first VJP.
func (s *Stepper) ForwardToEnd() int {
	n := 0
	for {
		if _, ok := s.Forward(); !ok {
			return n
		}
		n++
	}
}

// Counts reports the forward and backward counters.
func (s *Stepper) Counts() Counts {
	p := s.cur.Position()
	return Counts{Forward: p.Known, ForwardTotal: s.cur.Nodes(), Backward: p.Steps, BackwardTotal: len(s.order)}
}

// Position reports where the engine's cursor stands.
func (s *Stepper) Position() autograd.Position { return s.cur.Position() }

// Focus is the node the last step handled, or -1.
func (s *Stepper) Focus() int { return s.focus }

// State reports how node i looks now.
func (s *Stepper) State(i int) State {
	var st State
	p := s.cur.Position()
	if s.cur.Known(i) {
		st |= Known
	}
	g := s.Grad(i)
	if g != nil {
		st |= HasGrad
	}
	if s.cur.Final(i) && g != nil {
		st |= Final
	}
	if s.steps[i] != nil {
		st |= Ran
	}
	if p.Node == i {
		st |= Next
	}
	if s.focus == i {
		st |= Focus
	}
	if p.Phase != autograd.PhaseForward && s.skipped(i) {
		st |= Skipped
	}
	if p.Phase != autograd.PhaseForward && s.side[i] {
		st |= Side
	}
	return st
}

// skipped reports whether the backward pass leaves op node i out.
func (s *Stepper) skipped(i int) bool {
	if i >= s.cur.Nodes() || s.nodes[i].Op == nil {
		return i >= s.cur.Nodes()
	}
	return !s.runs[i]
}

// Value returns node i's value while it is known, else nil.
func (s *Stepper) Value(i int) *tensor.Tensor { return s.cur.Value(i) }

// Grad returns node i's gradient so far, or nil while no gradient has
// reached it. In the dense pass every node holds its +0.0 seed from the
// start of the backward phase; the stepper shows it only where it is the
// whole story (the output's seed, and a side node's zero cotangent) and
// otherwise once a contribution arrives, as the single-output pass shows
// gradients. At the end every gradient shown is the engine's; a node
// nothing feeds (an input, a buffer) keeps its +0.0 seed unshown.
func (s *Stepper) Grad(i int) *tensor.Tensor {
	if s.cur.Dense() && i >= 0 && i < len(s.fed) && s.fed[i] == 0 && i != s.Output() && !s.side[i] {
		return nil
	}
	return s.cur.Grad(i)
}

// Contribs returns the contributions node i's VJP step sent to its parents,
// or nil while that step has not run.
func (s *Stepper) Contribs(i int) []autograd.Contribution { return s.steps[i] }

// Received lists, in the order they were folded, the contributions node i
// has received so far, each with the id of the node that sent it.
func (s *Stepper) Received(i int) []Received {
	var out []Received
	for _, j := range s.order {
		for _, c := range s.steps[j] {
			if c.Parent == i {
				out = append(out, Received{From: j, Contribution: c})
			}
		}
	}
	return out
}

// Received is one contribution to a node's gradient and who sent it.
type Received struct {
	From int
	autograd.Contribution
}

// Err reports why the stepper cannot go on, or nil.
func (s *Stepper) Err() error {
	if s.cur == nil {
		return errors.New("app: no tape")
	}
	return s.cur.Err()
}

// Close ends the stepper's cursor and closes its listeners.
func (s *Stepper) Close() { s.cur.Close() }
