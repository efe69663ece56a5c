package autograd

import (
	"errors"
	"fmt"
	"math"

	"tapelab/engine/tensor"
)

// Cursor walks a recorded tape one node at a time, as the playground shows
// it: first forward over ids 0 … Nodes()−1 (each step makes one node's value
// known), then backward, each step running one node's VJP and feeding its
// parents. Every step can be undone, and stepping may resume in either
// direction after an undo. A cursor steps one of two reverse passes:
//
//   - NewCursor: BackwardDense from out seeded with ones (1 for a scalar
//     loss): forward over 0 … out, then the VJP of every node the pass
//     reaches from out, the nodes out depends on.
//   - NewDenseCursor: TorchLean's dense all-seeds pass, BackwardDenseFrom
//     with the one-hot seed pack (ones at out, +0.0 at every other node):
//     forward over the whole tape, then the VJP of every node that requires
//     a gradient, in reverse id order, reached from out or not. A node beside
//     out (a metric out does not depend on) is visited with its +0.0
//     cotangent.
//
// Stepping to the end leaves exactly the gradients of the one-shot pass, bit
// for bit: a cursor and its pass share the same seeding, the same choice of
// the next node and the same step code. The compiled single-output pass
// (graph's Compiled.BackwardFrom, which visits the output's dependencies
// and, where exactness needs it, more) has its own cursor in engine/graph,
// with the same methods and events.
//
// Each step returns its Event, stamped with the position after it; the
// cursor tells no one else (the playground hands the event to its views
// itself, in order). A Cursor is meant for one goroutine.
//
// The cursor recomputes values in place in the tape's nodes, from the
// current values of the leaves, so the tape must not be Reset or re-recorded
// while the cursor is in use; if it is, every step reports false and Err
// says why. Nodes recorded after the cursor was made are not its concern.
type Cursor struct {
	tape  *Tape
	gen   uint64
	out   int
	last  int  // the last node the forward phase evaluates
	pass  pass // reached (NewCursor) or every (NewDenseCursor)
	seed  *tensor.Tensor
	pack  []*tensor.Tensor // the one-hot seed pack of a dense cursor
	known int              // nodes 0 … known−1 have known values
	next  int              // the node the next backward step runs, -1 when none
	g     Grads            // the gradients so far (valid once every value is known)
	hist  []stepRecord
	// minConsumer[i] is the smallest id ≤ last whose VJP could feed node i
	// (math.MaxInt when none); node i's gradient is final once the reverse
	// pass is past it.
	minConsumer []int
	order       []int // the nodes Backward steps through, in order
	closed      bool
}

// stepRecord remembers one backward step so that it can be undone.
type stepRecord struct {
	node     int
	contribs []Contribution // the cursor's own copies, never handed out
}

// NewCursor returns a cursor at the start of tape t (nothing known, no
// gradients) that computes out and then its gradients as BackwardDense does,
// seeded with ones of out's shape. It fails when t is nil or out is not a
// node of t.
func NewCursor(t *Tape, out int) (*Cursor, error) {
	return newCursor(t, out, reached, "NewCursor")
}

// NewDenseCursor returns a cursor at the start of tape t that computes every
// node of t and then steps the dense all-seeds pass: BackwardDenseFrom with
// ones of out's shape at out and +0.0 at every other node. Every slot holds
// its seed from the start of the reverse pass, so a contribution's Before is
// never nil (the first one is added to the parent's +0.0 seed, as the
// one-shot pass adds it). It fails when t is nil or out is not a node of t.
func NewDenseCursor(t *Tape, out int) (*Cursor, error) {
	return newCursor(t, out, every, "NewDenseCursor")
}

func newCursor(t *Tape, out int, p pass, name string) (*Cursor, error) {
	if t == nil {
		return nil, errors.New("autograd: " + name + ": no tape")
	}
	if out < 0 || out >= t.n {
		return nil, fmt.Errorf("autograd: %s: output node %d does not exist (tape has %d nodes)", name, out, t.n)
	}
	seed := tensor.Zeros(t.nodes[out].Value.Shape)
	seed.Fill(1)
	c := &Cursor{tape: t, gen: t.gen, out: out, last: out, pass: p, seed: seed, next: -1}
	if p == every {
		c.last = t.n - 1
		c.pack = make([]*tensor.Tensor, t.n)
		for i := range c.pack {
			c.pack[i] = tensor.Zeros(t.nodes[i].Value.Shape)
		}
		c.pack[out] = seed
	}
	c.minConsumer = make([]int, c.last+1)
	for i := range c.minConsumer {
		c.minConsumer[i] = math.MaxInt
	}
	// Which nodes the pass runs does not depend on values: a node feeds
	// exactly the parents that take and require a gradient (the rule
	// contributions applies), so the order of the VJP steps is known now.
	// It is the order next gives: the dense pass runs every node with a
	// VJP, BackwardDense those it reaches from out.
	reach := make([]bool, c.last+1)
	reach[out] = true
	for j := c.last; j >= 0; j-- {
		if !t.hasVJP(j) {
			continue
		}
		if p == every || reach[j] {
			c.order = append(c.order, j)
		}
		nd := &t.nodes[j]
		for i, q := range nd.Parents {
			if nd.Op.Grads(i) && t.nodes[q].RequiresGrad {
				c.minConsumer[q] = j
				reach[q] = reach[q] || reach[j]
			}
		}
	}
	return c, nil
}

// Order lists the nodes whose VJP the backward pass runs, in the order
// Backward steps through them (the same on every walk). The slice is fresh.
func (c *Cursor) Order() []int { return append([]int(nil), c.order...) }

// Err reports why the cursor can no longer step: it was closed, or its tape
// was reset or shrunk since the cursor was made. It is nil otherwise.
func (c *Cursor) Err() error {
	switch {
	case c.closed:
		return errors.New("autograd: cursor is closed")
	case c.tape.gen != c.gen || c.tape.n <= c.last:
		return errors.New("autograd: the cursor's tape was reset or re-recorded; make a new cursor")
	}
	return nil
}

// Position reports where the cursor stands.
func (c *Cursor) Position() Position {
	p := Position{Known: c.known, Steps: len(c.hist), Node: c.next}
	switch {
	case c.known <= c.last:
		p.Phase, p.Node = PhaseForward, c.known
	case c.next >= 0:
		p.Phase = PhaseBackward
	default:
		p.Phase = PhaseDone
	}
	return p
}

// Output reports the node the cursor computes and differentiates.
func (c *Cursor) Output() int { return c.out }

// Nodes reports how many nodes the forward phase evaluates (ids 0 …
// Nodes()−1): out+1 for NewCursor's pass, the whole tape (as it was when the
// cursor was made) for a dense cursor.
func (c *Cursor) Nodes() int { return c.last + 1 }

// Dense reports whether the cursor steps the dense all-seeds pass
// (NewDenseCursor) rather than BackwardDense (NewCursor).
func (c *Cursor) Dense() bool { return c.pass == every }

// Forward evaluates the next node: an op node's value is recomputed from its
// parents' values with its op's Forward; a leaf's value simply becomes known.
// It reports false, doing nothing, once every node the cursor evaluates is
// known (or when Err is not nil). After the last value becomes known, the
// gradients hold the seeds (the output's alone, or the whole one-hot pack of
// a dense cursor) and Backward may start.
func (c *Cursor) Forward() (Event, bool) {
	if c.Err() != nil || c.known > c.last {
		return Event{}, false
	}
	t, i := c.tape, c.known
	nd := &t.nodes[i]
	t.forward(nd)
	c.known++
	if c.known > c.last {
		if c.pass == every {
			t.seedAll(c.pack, &c.g)
		} else {
			c.g.reset(c.out + 1)
			t.seed(c.out, c.seed, &c.g)
		}
		c.next = t.next(c.pass, c.last, &c.g)
	}
	return c.emit(Event{Kind: EventForward, Node: i, Value: nd.Value.Clone()}), true
}

// Backward runs the VJP of the next node the cursor's pass runs (nodes that
// need no gradient, and for NewCursor's pass nodes it has not reached, are
// skipped as the one-shot pass skips them) and folds its contributions into
// the parents.
// It reports false, doing nothing, while values are still unknown, once the
// pass is complete, or when Err is not nil.
func (c *Cursor) Backward() (Event, bool) {
	if c.Err() != nil || c.known <= c.last || c.next < 0 {
		return Event{}, false
	}
	k := c.next
	dy := c.g.Of(k).Clone()
	var rec []Contribution
	c.tape.step(k, &c.g, &rec)
	c.hist = append(c.hist, stepRecord{node: k, contribs: cloneContribs(rec)})
	c.next = c.tape.next(c.pass, k-1, &c.g)
	return c.emit(Event{Kind: EventBackward, Node: k, Grad: dy, Contribs: rec}), true
}

// Undo takes back the last step: the last VJP step while any has been run
// (its parents get their Before gradients back, bit for bit), otherwise the
// last forward step (that node's value is unknown again, and with it all
// gradients). It reports false at the start or when Err is not nil.
func (c *Cursor) Undo() (Event, bool) {
	if c.Err() != nil {
		return Event{}, false
	}
	if n := len(c.hist); n > 0 {
		h := c.hist[n-1]
		c.hist = c.hist[:n-1]
		for j := len(h.contribs) - 1; j >= 0; j-- {
			r := h.contribs[j]
			if r.Before == nil {
				c.g.set[r.Parent] = false
			} else {
				c.g.g[r.Parent].CopyFrom(r.Before)
			}
		}
		c.next = h.node
		e := Event{Kind: EventUndoBackward, Node: h.node, Grad: c.g.Of(h.node).Clone(), Contribs: cloneContribs(h.contribs)}
		return c.emit(e), true
	}
	if c.known == 0 {
		return Event{}, false
	}
	c.known--
	c.g.reset(0)
	c.next = -1
	return c.emit(Event{Kind: EventUndoForward, Node: c.known}), true
}

// Reset takes the cursor back to its start (nothing known, no gradients)
// and returns an EventReset. It does nothing after Close (and returns the
// zero Event).
func (c *Cursor) Reset() Event {
	if c.closed {
		return Event{}
	}
	c.known, c.next, c.hist = 0, -1, nil
	c.g.reset(0)
	return c.emit(Event{Kind: EventReset, Node: -1})
}

// Known reports whether node i's value is known.
func (c *Cursor) Known(i int) bool { return i >= 0 && i < c.known }

// Value returns node i's value while it is known, else nil. The tensor is
// the tape's own; clone it to keep it.
func (c *Cursor) Value(i int) *tensor.Tensor {
	if !c.Known(i) {
		return nil
	}
	return c.tape.nodes[i].Value
}

// Grad returns node i's gradient so far, or nil while it has none (before
// the backward phase, or, for NewCursor's pass, when nothing has reached the
// node yet; a dense cursor's nodes all hold their seed from the start of the
// reverse pass). The tensor belongs to the cursor and changes with later
// steps; clone it to keep it.
func (c *Cursor) Grad(i int) *tensor.Tensor {
	if c.known <= c.last {
		return nil
	}
	return c.g.Of(i)
}

// Grads returns a copy of the gradients so far (one slot per node the
// cursor evaluates), or nil before the backward phase: at the end of the
// pass, what the one-shot pass leaves, for AccumulateLeaves.
func (c *Cursor) Grads() *Grads {
	if c.known <= c.last {
		return nil
	}
	return c.g.Clone()
}

// Final reports whether node i's gradient is complete: the backward phase
// has begun and every node that could still feed i (all its consumers among
// the nodes the cursor evaluates) has been run or skipped. A final gradient
// equals the one the one-shot pass computes; it may be nil for a node
// NewCursor's pass never reaches.
func (c *Cursor) Final(i int) bool {
	if c.known <= c.last || i < 0 || i > c.last {
		return false
	}
	return c.minConsumer[i] > c.next
}

// Close ends the cursor: later steps report false. Closing twice is
// harmless.
func (c *Cursor) Close() { c.closed = true }

// emit stamps e with the cursor's position.
func (c *Cursor) emit(e Event) Event {
	e.Position = c.Position()
	return e
}
