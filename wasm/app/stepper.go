package app

import (
	"errors"
	"slices"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/tensor"
	"tapelab/wasm/layout"
)

// State is what a node looks like at the cursor's position, as flags the
// views turn into classes.
type State uint16

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
	// Extra marks a node the single-output pass visits beyond the output's
	// dependencies (Stepper.Visit says why: 0·∞, a −0.0 seed, ...).
	Extra
	// NonFinite marks a node whose value, or whose VJP step's
	// contributions, hold NaN or ∞ (Stepper.Faults says where and why);
	// FirstNonFinite the first such node of its pass.
	NonFinite
	FirstNonFinite
	// Updated marks a parameter the update phase has stepped (Stepper.Before).
	Updated
)

// Has reports whether every flag of f is set in s.
func (s State) Has(f State) bool { return s&f == f }

// Counts are the stepper's counters: forward k of n nodes known, backward
// k of n VJP steps run.
type Counts struct {
	Forward, ForwardTotal   int
	Backward, BackwardTotal int
}

// Cursor is what a stepper needs of an engine cursor: autograd.Cursor (the
// dense pass) and graph.Cursor (the single-output pass) both have it, with
// the same autograd.Event types.
type Cursor interface {
	Forward() (autograd.Event, bool)
	Backward() (autograd.Event, bool)
	Undo() (autograd.Event, bool)
	Reset() autograd.Event
	Position() autograd.Position
	Output() int
	Nodes() int
	Order() []int
	Known(i int) bool
	Value(i int) *tensor.Tensor
	Grad(i int) *tensor.Tensor
	Final(i int) bool
	Close()
	Err() error
}

// Stepper walks one recorded tape with an engine cursor and remembers
// what the views show: each VJP step's contributions, the node the last
// step handled, and the order the backward pass visits nodes in. It steps
// one of two passes: the single-output pass (NewStepper: graph.Cursor, the
// visits of Compiled.BackwardFrom from the loss, each with its reason) or
// the dense all-seeds pass (NewDenseStepper: every node with a VJP, side
// nodes included). Both cursors start the reverse pass with every gradient
// at +0.0 (and the seed at the output).
type Stepper struct {
	tape  *autograd.Tape
	cur   Cursor
	dense bool
	// visits is, in the single-output pass, the reason for each visit, by
	// node; nil in the dense pass.
	visits map[int]graph.Visit
	nodes  []NodeInfo
	order  []int  // the nodes whose VJP the backward pass runs, in order
	deps   []int  // the output's dependencies (autograd's reachable-only cursor), in order
	runs   []bool // runs[i]: node i is in order
	side   []bool // side[i]: node i has a VJP but the output does not depend on it
	// quiet[i]: in the dense pass, side node i runs its VJP without a step
	// of its own (see Passed); quiets counts them.
	quiet  []bool
	quiets int
	passed []int                     // the quiet nodes the last Backward ran with its step
	steps  [][]autograd.Contribution // per node: its VJP step's contributions while run
	fed    []int                     // per node: contributions received so far
	focus  int
	lay    *layout.Layout // the tape's layout, once worked out (Layout)
	layErr error
	nan    faults  // the NaN and ∞ the steps made (nonfinite.go)
	upd    *Update // the update phase (SetOptimizer), or nil
}

// NewStepper returns a stepper at the start of c's single-output pass from
// out, seeded with ones: c.NewCursor, which steps exactly the visits of
// c.BackwardFrom (c.Plan), the output's dependencies and the visits beyond
// them, each with its reason (Visit). The cursor works in c's gradient
// buffers, so c must serve no other pass while the stepper is in use. The
// nodes are c.Tape()'s, whose ids are the graph's.
func NewStepper(c *graph.Compiled, out int) (*Stepper, error) {
	t := c.Tape()
	if out < 0 || out >= t.Len() {
		return nil, errors.New("app: the output is not a node of the tape")
	}
	seed := tensor.Zeros(t.Node(out).Value.Shape)
	seed.Fill(1)
	cur, err := c.NewCursor(out, seed)
	if err != nil {
		return nil, err
	}
	s, err := newStepper(t, cur, false)
	if err != nil {
		cur.Close()
		return nil, err
	}
	s.visits = make(map[int]graph.Visit, len(s.order))
	for _, v := range cur.Plan() {
		s.visits[v.Node] = v
	}
	return s, nil
}

// NewDenseStepper returns a stepper at the start of t that computes every
// node and then steps the dense all-seeds pass (BackwardDenseFrom with ones
// at out and +0.0 elsewhere): every node with a VJP runs it, a side node on
// its zero cotangent.
func NewDenseStepper(t *autograd.Tape, out int) (*Stepper, error) {
	cur, err := autograd.NewDenseCursor(t, out)
	if err != nil {
		return nil, err
	}
	s, err := newStepper(t, cur, true)
	if err != nil {
		cur.Close()
	}
	return s, err
}

// newStepper wraps cur, a cursor on t; the output's dependencies come from
// autograd's reachable-only cursor.
func newStepper(t *autograd.Tape, cur Cursor, dense bool) (*Stepper, error) {
	out := cur.Output()
	single, err := autograd.NewCursor(t, out)
	if err != nil {
		return nil, err
	}
	deps := single.Order()
	single.Close()
	s := &Stepper{tape: t, cur: cur, dense: dense, nodes: Describe(t), order: cur.Order(), deps: deps,
		runs: make([]bool, t.Len()), side: make([]bool, t.Len()),
		steps: make([][]autograd.Contribution, t.Len()), fed: make([]int, t.Len()), focus: -1}
	s.nan.reset(t.Len())
	for _, i := range s.order {
		s.runs[i] = true
	}
	dep := make([]bool, t.Len())
	for _, i := range deps {
		dep[i] = true
	}
	s.quiet = make([]bool, t.Len())
	for i := range cur.Nodes() {
		nd := t.Node(i)
		s.side[i] = nd.Op != nil && nd.RequiresGrad && !dep[i]
		if dense && s.side[i] && s.runs[i] && zeroSafe(t, i) {
			s.quiet[i] = true
			s.quiets++
		}
	}
	return s, nil
}

// zeroSafe reports whether node i's VJP, on a zero cotangent, gives only
// ±0 contributions (its op's ZeroSafe certificate on the recorded values):
// run on the dense pass's zero, it changes no gradient's value.
func zeroSafe(t *autograd.Tape, i int) bool {
	nd := t.Node(i)
	if nd.Op == nil || nd.Op.ZeroSafe == nil || nd.Act != nil {
		return false
	}
	x := make([]*tensor.Tensor, len(nd.Parents))
	for k, p := range nd.Parents {
		x[k] = t.Node(p).Value
	}
	return nd.Op.ZeroSafe(nd.Value, x, nd.Attrs)
}

// Quiet reports whether node i runs its VJP without a step of its own: in
// the dense pass, a node the output does not depend on (a metric beside
// the loss), whose VJP on its zero cotangent adds ±0 to its parents, runs
// within the step next to it (Passed says which), so stepping shows only
// the steps that move a gradient. The cursor still runs it, in the dense
// pass's order, so the gradients stay the one-shot pass's, bit for bit.
func (s *Stepper) Quiet(i int) bool { return i >= 0 && i < len(s.quiet) && s.quiet[i] }

// Passed lists the quiet nodes the last Backward ran along with its step.
func (s *Stepper) Passed() []int { return s.passed }

// Dense reports whether the stepper steps the dense all-seeds pass.
func (s *Stepper) Dense() bool { return s.dense }

// Visit reports, in the single-output pass, whether it visits node i and
// why (graph.Reason: a dependency, or a visit beyond the dependencies). It
// reports false in the dense pass.
func (s *Stepper) Visit(i int) (graph.Visit, bool) {
	v, ok := s.visits[i]
	return v, ok
}

// Dependencies lists the output's dependencies (the op nodes whose value
// reaches it), in the order a reverse pass runs them, whichever pass the
// stepper steps; the single-output pass may visit more (Visit).
func (s *Stepper) Dependencies() []int { return s.deps }

// Nodes describes the tape's nodes.
func (s *Stepper) Nodes() []NodeInfo { return s.nodes }

// Tape returns the tape being stepped.
func (s *Stepper) Tape() *autograd.Tape { return s.tape }

// Cursor returns the engine's cursor, for views that listen to its events.
func (s *Stepper) Cursor() Cursor { return s.cur }

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
	s.nan.stop = false
	if ok {
		s.focus = e.Node
		s.nan.saw(e)
	}
	return e, ok
}

// Backward runs the next VJP step; the forward pass must be complete.
//
// Both passes start with every slot at its +0.0 seed, so the engine
// reports a Before for every contribution; the stepper keeps the lesson of
// += visible by recording a parent's first contribution (the parent had
// only its seed, and is not the output) with a nil Before, as the
// single-output pass reports it. After is always the engine's sum.
//
// In the dense pass the quiet nodes next to the step (before the first
// step, and after each) run with it; Passed lists them.
func (s *Stepper) Backward() (autograd.Event, bool) {
	s.passed, s.nan.stop = s.passed[:0], false
	if s.Counts().Backward == 0 {
		s.passQuiet()
	}
	e, ok := s.backward()
	if !ok {
		return e, ok
	}
	s.passQuiet()
	s.focus = e.Node
	return e, ok
}

// passQuiet runs the quiet nodes the cursor is about to run.
func (s *Stepper) passQuiet() {
	for {
		p := s.cur.Position()
		if p.Phase != autograd.PhaseBackward || !s.Quiet(p.Node) {
			return
		}
		if _, ok := s.backward(); !ok {
			return
		}
		s.passed = append(s.passed, p.Node)
	}
}

// backward runs the cursor's next VJP and keeps its contributions.
func (s *Stepper) backward() (autograd.Event, bool) {
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
	s.nan.saw(e)
	return e, ok
}

// Back takes back the last step, with the quiet nodes that ran in it.
func (s *Stepper) Back() (autograd.Event, bool) {
	s.passed, s.nan.stop = s.passed[:0], false
	target := max(s.Counts().Backward-1, 0)
	e, ok := s.undo()
	if !ok {
		return e, false
	}
	// Undo down to target steps: the quiet nodes run after a step stay
	// with it; those run before the first step go with it.
	for e.Kind == autograd.EventUndoBackward && s.cur.Position().Steps > 0 &&
		(s.Counts().Backward > target || target == 0) {
		u, ok := s.undo()
		if !ok {
			break
		}
		e = u
	}
	s.focus = -1
	if n := s.Counts(); n.Backward > 0 {
		s.focus = s.lastRun()
	} else if n.Forward > 0 {
		s.focus = n.Forward - 1
	}
	return e, true
}

// undo takes back the cursor's last step and forgets its contributions.
func (s *Stepper) undo() (autograd.Event, bool) {
	e, ok := s.cur.Undo()
	if ok {
		s.nan.saw(e)
	}
	if ok && e.Kind == autograd.EventUndoBackward {
		for _, c := range s.steps[e.Node] {
			s.fed[c.Parent]--
		}
		s.steps[e.Node] = nil
	}
	return e, ok
}

// lastRun is the last node of the order whose VJP ran as a step of its own.
func (s *Stepper) lastRun() int {
	last := -1
	for _, i := range s.order {
		if s.steps[i] == nil {
			break
		}
		if !s.quiet[i] {
			last = i
		}
	}
	return last
}

// Reset takes the stepper back to its start.
func (s *Stepper) Reset() {
	s.upd.rewind(s)
	s.resetCursor()
	s.focus = -1
	s.nan.reset(len(s.nodes))
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

// Counts reports the forward and backward counters; quiet nodes are not
// steps of their own.
func (s *Stepper) Counts() Counts {
	p := s.cur.Position()
	steps := p.Steps
	for _, i := range s.order[:p.Steps] {
		if s.quiet[i] {
			steps--
		}
	}
	return Counts{Forward: p.Known, ForwardTotal: s.cur.Nodes(), Backward: steps, BackwardTotal: len(s.order) - s.quiets}
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
	if s.Before(i) != nil {
		st |= Updated
	}
	if p.Phase != autograd.PhaseForward && s.skipped(i) {
		st |= Skipped
	}
	st |= s.nan.state(i)
	if p.Phase != autograd.PhaseForward && s.extra(i) {
		st |= Extra
	} else if p.Phase != autograd.PhaseForward && s.side[i] {
		st |= Side
	}
	return st
}

// extra reports whether the single-output pass visits node i beyond the
// output's dependencies.
func (s *Stepper) extra(i int) bool {
	v, ok := s.visits[i]
	return ok && v.Reason != graph.ReasonDependency
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
// reached it. Every node holds its +0.0 seed from the start of the
// backward phase; the stepper shows it only where it is the whole story
// (the output's seed, a side node's zero cotangent in the dense pass, the
// cotangent of a visit beyond the dependencies) and otherwise once a
// contribution arrives. At the end every gradient shown is the engine's; a
// node nothing feeds (an input, a buffer) keeps its +0.0 seed unshown.
func (s *Stepper) Grad(i int) *tensor.Tensor {
	if i >= 0 && i < len(s.fed) && s.fed[i] == 0 && i != s.Output() && !(s.dense && s.side[i]) && !s.extra(i) {
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

// ReasonBadge is the short tag a tape node carries for a visit of the
// single-output pass beyond the output's dependencies ("" for a
// dependency); Reason.String is the full label.
func ReasonBadge(r graph.Reason) string {
	switch r {
	case graph.ReasonDependency:
		return ""
	case graph.ReasonNotZeroSafe:
		return "0·∞"
	case graph.ReasonFed:
		return "fed"
	case graph.ReasonNegZeroSeed:
		return "−0"
	case graph.ReasonUncertified:
		return "dense"
	}
	return "visit"
}

// VisitReason says, for a visit of the single-output pass beyond the
// output's dependencies, why the pass runs node i's VJP (with the node
// whose visit fed it, for graph.ReasonFed); "" for any other node.
func (s *Stepper) VisitReason(i int) string {
	v, ok := s.visits[i]
	if !ok || v.Reason == graph.ReasonDependency {
		return ""
	}
	why := "visited beyond the loss's dependencies: " + v.Reason.String()
	if v.Reason == graph.ReasonFed && v.By >= 0 && v.By < len(s.nodes) {
		why += " (" + s.nodes[v.By].Title() + ")"
	}
	return why
}
