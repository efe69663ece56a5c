package graph

import (
	"errors"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Cursor steps the single-output pass of a Compiled, BackwardFrom(output,
// seed), one VJP at a time, as the playground shows it: first forward over
// ids 0 … Nodes()−1 (each step makes one value of the compiled context
// known: CompileChecked computed them, so a forward step reveals a value and
// recomputes nothing), then backward, each step running the VJP of the next
// visit of Plan(output, seed) and adding its contributions into its
// operands' gradients. It is the compiled counterpart of autograd's cursors
// (NewCursor steps the reachable-only BackwardDense, NewDenseCursor the
// dense all-seeds pass) and has their methods and events
// (autograd.Event, autograd.Position, autograd.Contribution).
//
// It visits exactly the nodes BackwardFrom visits, including those beyond
// the output's dependencies, and says why for each (Visit, Plan): the
// cursor and the one-shot pass share the seeding (every gradient +0.0, the
// seed at the output), the plan (the same visits in the same order) and the
// step code, so stepping to the end leaves BackwardFrom's gradients, bit
// for bit, after exactly its count of steps.
//
// The cursor works in its Compiled's gradient buffers: another pass on the
// same Compiled (BackwardFrom, BackwardDenseFrom, or another cursor
// entering its reverse pass) takes them over, after which the cursor's
// backward steps report false and Err says why; Reset starts it again.
// Each step returns its event, as autograd's cursors do. A Cursor is meant
// for one goroutine.
type Cursor struct {
	c     *Compiled
	out   int
	seed  *tensor.Tensor
	plan  []Visit
	index []int // per value, its index in plan, or -1
	// lastFeed[i] is the index in plan of the last visit that feeds value
	// i, or -1; i's gradient is final once that visit has run.
	lastFeed []int
	known    int    // values 0 … known−1 are known
	pass     uint64 // c.passes when the cursor seeded its reverse pass
	seeded   bool
	hist     [][]autograd.Contribution // per visit run, its contributions
	closed   bool
}

// NewCursor returns a cursor at the start (nothing known, no gradients) of
// BackwardFrom(output, seed) on c. The seed is copied. It fails as
// BackwardFrom does on a bad output or seed.
func (c *Compiled) NewCursor(output int, seed *tensor.Tensor) (*Cursor, error) {
	plan, err := c.Plan(output, seed)
	if err != nil {
		return nil, err
	}
	return newCursor(c, output, seed, plan), nil
}

// newCursor makes a cursor that steps plan (tests give broken plans to show
// that the cursor test notices).
func newCursor(c *Compiled, output int, seed *tensor.Tensor, plan []Visit) *Cursor {
	cur := &Cursor{c: c, out: output, seed: seed.Clone(), plan: plan,
		index: make([]int, len(c.vals)), lastFeed: make([]int, len(c.vals))}
	for i := range cur.index {
		cur.index[i], cur.lastFeed[i] = -1, -1
	}
	for j, v := range plan {
		cur.index[v.Node] = j
		s := &c.nodes[v.Node]
		for a, p := range s.args {
			if s.wants[a] {
				cur.lastFeed[p] = j
			}
		}
	}
	return cur
}

// Plan lists the visits the cursor steps, in order, with their reasons
// (Compiled.Plan). The slice is fresh.
func (cur *Cursor) Plan() []Visit { return append([]Visit(nil), cur.plan...) }

// Order lists the nodes whose VJP the backward phase runs, in order, as
// autograd's cursors list theirs. The slice is fresh.
func (cur *Cursor) Order() []int {
	out := make([]int, len(cur.plan))
	for j, v := range cur.plan {
		out[j] = v.Node
	}
	return out
}

// Visit reports whether the pass visits node i, and why.
func (cur *Cursor) Visit(i int) (Visit, bool) {
	if i < 0 || i >= len(cur.index) || cur.index[i] < 0 {
		return Visit{Node: i, By: -1}, false
	}
	return cur.plan[cur.index[i]], true
}

// Output reports the value the cursor seeds.
func (cur *Cursor) Output() int { return cur.out }

// Nodes reports how many values the forward phase makes known: all of them.
func (cur *Cursor) Nodes() int { return len(cur.c.vals) }

// Err reports why the cursor cannot step: it was closed, or another pass
// took over its Compiled's gradient buffers during its reverse pass. It is
// nil otherwise.
func (cur *Cursor) Err() error {
	switch {
	case cur.closed:
		return errors.New("graph: cursor is closed")
	case cur.seeded && cur.c.passes != cur.pass:
		return errors.New("graph: another pass ran on the cursor's Compiled; Reset the cursor")
	}
	return nil
}

// Position reports where the cursor stands.
func (cur *Cursor) Position() autograd.Position {
	p := autograd.Position{Known: cur.known, Steps: len(cur.hist), Node: -1}
	switch {
	case cur.known < len(cur.c.vals):
		p.Phase, p.Node = autograd.PhaseForward, cur.known
	case len(cur.hist) < len(cur.plan):
		p.Phase, p.Node = autograd.PhaseBackward, cur.plan[len(cur.hist)].Node
	default:
		p.Phase = autograd.PhaseDone
	}
	return p
}

// Forward makes the next value known. After the last, the gradients hold
// BackwardFrom's seeding and Backward may start. It reports false, doing
// nothing, once every value is known or when Err is not nil.
func (cur *Cursor) Forward() (autograd.Event, bool) {
	if cur.Err() != nil || cur.known == len(cur.c.vals) {
		return autograd.Event{}, false
	}
	i := cur.known
	cur.known++
	if cur.known == len(cur.c.vals) {
		cur.startReverse()
	}
	return cur.emit(autograd.Event{Kind: autograd.EventForward, Node: i, Value: cur.c.vals[i].Clone()}), true
}

// startReverse seeds the reverse pass as BackwardFrom does.
func (cur *Cursor) startReverse() {
	cur.c.seedFrom(cur.out, cur.seed)
	cur.pass, cur.seeded = cur.c.passes, true
	cur.hist = cur.hist[:0]
}

// Backward runs the VJP of the next visit and adds its contributions into
// its operands' gradients. Every gradient holds +0.0 or the seed from the
// start of the reverse pass, so a contribution's Before is never nil. It
// reports false, doing nothing, while values are still unknown, once the
// plan is done, or when Err is not nil.
func (cur *Cursor) Backward() (autograd.Event, bool) {
	if cur.Err() != nil || !cur.seeded || len(cur.hist) == len(cur.plan) {
		return autograd.Event{}, false
	}
	k := cur.plan[len(cur.hist)].Node
	dy := cur.c.grads[k].Clone()
	var rec []autograd.Contribution
	cur.c.step(k, &rec)
	cur.hist = append(cur.hist, rec)
	return cur.emit(autograd.Event{Kind: autograd.EventBackward, Node: k, Grad: dy, Contribs: cloneContribs(rec)}), true
}

// Undo takes back the last step: the last VJP while any has run (its
// operands get their Before gradients back, bit for bit), otherwise the
// last forward step (that value is unknown again, and the gradients with
// it). It reports false at the start or when Err is not nil.
func (cur *Cursor) Undo() (autograd.Event, bool) {
	if cur.Err() != nil {
		return autograd.Event{}, false
	}
	if n := len(cur.hist); n > 0 {
		rec := cur.hist[n-1]
		cur.hist = cur.hist[:n-1]
		for j := len(rec) - 1; j >= 0; j-- {
			cur.c.grads[rec[j].Parent].CopyFrom(rec[j].Before)
		}
		k := cur.plan[n-1].Node
		e := autograd.Event{Kind: autograd.EventUndoBackward, Node: k, Grad: cur.c.grads[k].Clone(), Contribs: cloneContribs(rec)}
		return cur.emit(e), true
	}
	if cur.known == 0 {
		return autograd.Event{}, false
	}
	cur.known--
	cur.seeded = false
	return cur.emit(autograd.Event{Kind: autograd.EventUndoForward, Node: cur.known}), true
}

// Reset takes the cursor back to its start and returns an EventReset. It
// does nothing after Close (and returns the zero Event).
func (cur *Cursor) Reset() autograd.Event {
	if cur.closed {
		return autograd.Event{}
	}
	cur.known, cur.seeded, cur.hist = 0, false, nil
	return cur.emit(autograd.Event{Kind: autograd.EventReset, Node: -1})
}

// Known reports whether value i is known.
func (cur *Cursor) Known(i int) bool { return i >= 0 && i < cur.known }

// Value returns value i while it is known, else nil. The tensor is c's
// own and must not be modified.
func (cur *Cursor) Value(i int) *tensor.Tensor {
	if !cur.Known(i) {
		return nil
	}
	return cur.c.vals[i]
}

// Grad returns value i's gradient so far during the reverse pass (+0.0 or
// the seed before any contribution), else nil. The tensor belongs to the
// Compiled and changes with later steps; clone it to keep it.
func (cur *Cursor) Grad(i int) *tensor.Tensor {
	if !cur.seeded || cur.Err() != nil || i < 0 || i >= len(cur.c.vals) {
		return nil
	}
	return cur.c.grads[i]
}

// Final reports whether value i's gradient is complete: the reverse pass
// has begun and every visit that feeds i has run. A final gradient equals
// BackwardFrom's.
func (cur *Cursor) Final(i int) bool {
	if !cur.seeded || i < 0 || i >= len(cur.lastFeed) {
		return false
	}
	return cur.lastFeed[i] < len(cur.hist)
}

// Close ends the cursor: later steps report false. Closing twice is
// harmless.
func (cur *Cursor) Close() { cur.closed = true }

// emit stamps e with the cursor's position.
func (cur *Cursor) emit(e autograd.Event) autograd.Event {
	e.Position = cur.Position()
	return e
}

// cloneContribs copies contributions, so that the cursor's history and the
// events it hands out share nothing.
func cloneContribs(cs []autograd.Contribution) []autograd.Contribution {
	out := make([]autograd.Contribution, len(cs))
	for i, c := range cs {
		out[i] = autograd.Contribution{Operand: c.Operand, Parent: c.Parent,
			Value: c.Value.Clone(), Before: c.Before.Clone(), After: c.After.Clone()}
	}
	return out
}
