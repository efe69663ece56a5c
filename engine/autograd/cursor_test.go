package autograd

import (
	"math/rand/v2"
	"strings"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// onesLike returns a tensor of ones shaped like node out's value.
func onesLike(tp *Tape, out int) *tensor.Tensor {
	s := tensor.Zeros(tp.Node(out).Value.Shape)
	s.Fill(1)
	return s
}

// sameGrads reports the first node whose cursor gradient differs from the
// one-shot pass's, or -1.
func sameGrads(c *Cursor, ref *Grads, n int) int {
	for i := range n {
		if !tensor.Identical(c.Grad(i), ref.Of(i)) {
			return i
		}
	}
	return -1
}

// runToEnd steps forward and then backward until both report false,
// checking that the VJP steps follow Order, each backward event's
// arithmetic, and (through final) that a gradient declared final never
// changes again.
func runToEnd(t *testing.T, c *Cursor, final map[int]*tensor.Tensor) {
	t.Helper()
	for {
		if _, ok := c.Forward(); !ok {
			break
		}
	}
	noteFinal(c, final)
	order := c.Order()
	for k := c.Position().Steps; ; k++ { // the walk may resume midway

		e, ok := c.Backward()
		if !ok {
			if k != len(order) {
				t.Fatalf("the pass ran %d VJPs, Order lists %d: %v", k, len(order), order)
			}
			break
		}
		if k >= len(order) || order[k] != e.Node {
			t.Fatalf("VJP step %d ran node %d, Order lists %v", k, e.Node, order)
		}
		checkContribs(t, e, c.tape.prec)
		noteFinal(c, final)
	}
}

func noteFinal(c *Cursor, final map[int]*tensor.Tensor) {
	for i := range c.Nodes() {
		if _, seen := final[i]; !seen && c.Final(i) {
			final[i] = cloneOrNil(c.Grad(i))
		}
	}
}

// checkContribs checks that each contribution's After is Before + Value
// rounded to precision p (Value when Before is nil), bit for bit, and that
// the contributions to one parent chain (the next Before is the previous
// After).
func checkContribs(t *testing.T, e Event, p tensor.Precision) {
	t.Helper()
	last := map[int]*tensor.Tensor{}
	for _, c := range e.Contribs {
		want := c.Value.Clone()
		if c.Before != nil {
			for k := range want.Data {
				want.Data[k] = c.Before.Data[k] + c.Value.Data[k]
			}
			p.Round(want)
		}
		if !tensor.Identical(c.After, want) {
			t.Fatalf("node %d operand %d → %d: After %v, want Before %v + Value %v", e.Node, c.Operand, c.Parent, c.After, c.Before, c.Value)
		}
		if p, ok := last[c.Parent]; ok && !tensor.Identical(p, c.Before) {
			t.Fatalf("node %d: second contribution to %d starts from %v, the first ended at %v", e.Node, c.Parent, c.Before, p)
		}
		last[c.Parent] = c.After
	}
}

func TestCursorMatchesBackwardDenseOnRandomTapes(t *testing.T) {
	for _, prec := range precisions {
		t.Run(prec.String(), func(t *testing.T) { testCursorOnRandomTapes(t, prec) })
	}
}

func testCursorOnRandomTapes(t *testing.T, prec tensor.Precision) {
	for seed := range 1500 {
		r := rand.New(rand.NewPCG(uint64(seed), 7))
		s, out := randTape(r, prec)
		tp := s.Tape()
		c, err := NewCursor(tp, out)
		if err != nil {
			t.Fatal(err)
		}
		final := map[int]*tensor.Tensor{}
		runToEnd(t, c, final)
		if p := c.Position(); p.Phase != PhaseDone || p.Node != -1 || p.Known != out+1 {
			t.Fatalf("seed %d: at the end the cursor is at %+v", seed, p)
		}
		var ref Grads
		if err := tp.BackwardDense(out, onesLike(tp, out), &ref); err != nil {
			t.Fatal(err)
		}
		if i := sameGrads(c, &ref, tp.Len()); i >= 0 {
			t.Fatalf("seed %d (out %d of %d nodes): node %d: cursor gradient %v, BackwardDense %v", seed, out, tp.Len(), i, c.Grad(i), ref.Of(i))
		}
		for i := 0; i <= out; i++ {
			g, ok := final[i]
			if !ok {
				t.Fatalf("seed %d: node %d never became final", seed, i)
			}
			if !tensor.Identical(g, ref.Of(i)) {
				t.Fatalf("seed %d: node %d was declared final at %v, ends at %v", seed, i, g, ref.Of(i))
			}
		}
	}
}

func TestCursorUndoAndResume(t *testing.T) {
	for _, m := range cursorModes {
		t.Run(m.name, func(t *testing.T) { testUndoAndResume(t, m) })
	}
}

// cursorMode is one of the two passes a cursor steps, with the one-shot
// pass it must agree with.
type cursorMode struct {
	name string
	make func(*Tape, int) (*Cursor, error)
	ref  func(*Tape, int, *Grads) error
}

var cursorModes = []cursorMode{
	{"BackwardDense", NewCursor, func(tp *Tape, out int, g *Grads) error {
		return tp.BackwardDense(out, onesLike(tp, out), g)
	}},
	{"BackwardDenseFrom", NewDenseCursor, denseOneHot},
}

// denseOneHot is BackwardDenseFrom with the one-hot pack: ones at out, +0.0
// at every other node.
func denseOneHot(tp *Tape, out int, g *Grads) error {
	seeds := make([]*tensor.Tensor, tp.Len())
	for i := range seeds {
		seeds[i] = tensor.Zeros(tp.Node(i).Value.Shape)
	}
	seeds[out] = onesLike(tp, out)
	return tp.BackwardDenseFrom(seeds, g)
}

func testUndoAndResume(t *testing.T, m cursorMode) {
	for seed := range 400 {
		r := rand.New(rand.NewPCG(uint64(seed), 11))
		s, out := randTape(r, tensor.Float64)
		tp := s.Tape()
		c, err := m.make(tp, out)
		if err != nil {
			t.Fatal(err)
		}
		// A position determines the state: each time the walk comes back to
		// one, every known flag and gradient must be what it was.
		type state struct {
			known []bool
			grads []*tensor.Tensor
		}
		snap := func() state {
			var st state
			for i := 0; i < tp.Len(); i++ {
				st.known = append(st.known, c.Known(i))
				st.grads = append(st.grads, cloneOrNil(c.Grad(i)))
			}
			return st
		}
		seen := map[Position]state{}
		for range 200 {
			var e Event
			var ok bool
			switch k := r.IntN(10); {
			case k < 4:
				e, ok = c.Forward()
			case k < 7:
				e, ok = c.Backward()
			default:
				e, ok = c.Undo()
			}
			if ok && e.Position != c.Position() {
				t.Fatalf("seed %d: event position %+v, cursor at %+v", seed, e.Position, c.Position())
			}
			if ok && e.Kind == EventBackward {
				checkContribs(t, e, tensor.Float64)
			}
			now := snap()
			old, ok := seen[c.Position()]
			if !ok {
				seen[c.Position()] = now
				continue
			}
			for i := range now.known {
				if now.known[i] != old.known[i] || !tensor.Identical(now.grads[i], old.grads[i]) {
					t.Fatalf("seed %d: back at %+v, node %d is known=%v grad=%v, was known=%v grad=%v",
						seed, c.Position(), i, now.known[i], now.grads[i], old.known[i], old.grads[i])
				}
			}
		}
		runToEnd(t, c, map[int]*tensor.Tensor{})
		var ref Grads
		if err := m.ref(tp, out, &ref); err != nil {
			t.Fatal(err)
		}
		if i := sameGrads(c, &ref, tp.Len()); i >= 0 {
			t.Fatalf("seed %d: after undo and resume, node %d: cursor %v, %s %v", seed, i, c.Grad(i), m.name, ref.Of(i))
		}
	}
}

// TestCursorWalkthrough steps y = x·x + x at x = 3 by hand.
func TestCursorWalkthrough(t *testing.T) {
	s := NewSession()
	x := s.Param(tensor.Scalar(3), "x")   // node 0
	sq := op.Mul(s, x, x)                 // node 1
	y := op.Add(s, sq, x)                 // node 2
	c, err := NewCursor(s.Tape(), int(y)) // seeded with 1
	if err != nil {
		t.Fatal(err)
	}
	type contrib struct {
		operand, parent      int
		value, before, after float64
		first                bool // Before is nil
	}
	steps := []struct {
		do       func() (Event, bool)
		kind     EventKind
		node     int
		contribs []contrib
		final0   bool // Final(x) after the step
	}{
		{c.Forward, EventForward, 0, nil, false},
		{c.Forward, EventForward, 1, nil, false},
		{c.Forward, EventForward, 2, nil, false},
		{c.Backward, EventBackward, 2, []contrib{{0, 1, 1, 0, 1, true}, {1, 0, 1, 0, 1, true}}, false},
		{c.Backward, EventBackward, 1, []contrib{{0, 0, 3, 1, 4, false}, {1, 0, 3, 4, 7, false}}, true},
		{c.Undo, EventUndoBackward, 1, []contrib{{0, 0, 3, 1, 4, false}, {1, 0, 3, 4, 7, false}}, false},
		{c.Backward, EventBackward, 1, []contrib{{0, 0, 3, 1, 4, false}, {1, 0, 3, 4, 7, false}}, true},
	}
	for n, st := range steps {
		e, ok := st.do()
		if !ok || e.Kind != st.kind || e.Node != st.node || len(e.Contribs) != len(st.contribs) {
			t.Fatalf("step %d: got %v %v node %d with %d contributions, want %v node %d with %d", n, ok, e.Kind, e.Node, len(e.Contribs), st.kind, st.node, len(st.contribs))
		}
		for k, w := range st.contribs {
			g := e.Contribs[k]
			if g.Operand != w.operand || g.Parent != w.parent || g.Value.Data[0] != w.value || g.After.Data[0] != w.after ||
				(g.Before == nil) != w.first || (!w.first && g.Before.Data[0] != w.before) {
				t.Errorf("step %d contribution %d: got %+v (before %v after %v), want %+v", n, k, g, g.Before, g.After, w)
			}
		}
		if got := c.Final(0); got != st.final0 {
			t.Errorf("step %d: Final(x) = %v, want %v", n, got, st.final0)
		}
	}
	if g := c.Grad(0).Data[0]; g != 7 {
		t.Errorf("dy/dx = %v, want 7", g)
	}
	if _, ok := c.Backward(); ok {
		t.Error("Backward after the last VJP reported a step")
	}
	if p := c.Position(); p.Phase != PhaseDone || p.Steps != 2 || p.Known != 3 {
		t.Errorf("position at the end: %+v", p)
	}
	if e := c.Reset(); e.Kind != EventReset || e.Position != (Position{Phase: PhaseForward}) {
		t.Errorf("Reset returned %v at %+v", e.Kind, e.Position)
	}
	if c.Known(0) || c.Grad(0) != nil || c.Position() != (Position{Phase: PhaseForward}) {
		t.Errorf("after Reset: known(0)=%v grad(0)=%v position %+v", c.Known(0), c.Grad(0), c.Position())
	}
	if _, ok := c.Undo(); ok {
		t.Error("Undo at the start reported a step")
	}
	if _, ok := c.Backward(); ok {
		t.Error("Backward before the forward pass reported a step")
	}
}

func TestCursorForwardRecomputesFromLeaves(t *testing.T) {
	s := NewSession()
	w := tensor.Vector(1, 2)
	x := s.Param(w, "w")
	y := op.Sum(s, op.Tanh(s, op.Mul(s, x, x)))
	c, err := NewCursor(s.Tape(), int(y))
	if err != nil {
		t.Fatal(err)
	}
	w.Data[0], w.Data[1] = -0.5, 0.25 // an optimizer update after recording
	for {
		if _, ok := c.Forward(); !ok {
			break
		}
	}
	fresh := NewSession()
	fy := op.Sum(fresh, op.Tanh(fresh, op.Mul(fresh, fresh.Param(w, "w"), fresh.Param(w, "w"))))
	if !tensor.Identical(c.Value(int(y)), fresh.Tape().Node(int(fy)).Value) {
		t.Errorf("cursor value %v, a fresh recording gives %v", c.Value(int(y)), fresh.Tape().Node(int(fy)).Value)
	}
}

// TestCursorClose checks that a closed cursor takes no step, and that
// closing twice is harmless.
func TestCursorClose(t *testing.T) {
	s := NewSession()
	x := s.Param(tensor.Vector(1, -2, 3), "x")
	c, err := NewCursor(s.Tape(), int(op.Sum(s, op.Tanh(s, x))))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Forward(); !ok {
		t.Fatal("the first Forward took no step")
	}
	c.Close()
	c.Close()
	if _, ok := c.Forward(); ok || c.Err() == nil {
		t.Errorf("Forward after Close: ok=%v err=%v", ok, c.Err())
	}
	if e := c.Reset(); e.Kind == EventReset {
		t.Error("Reset after Close reset the cursor")
	}
}

func TestCursorErrors(t *testing.T) {
	s := NewSession()
	x := s.Param(tensor.Scalar(1), "x")
	y := op.Neg(s, x)
	if _, err := NewCursor(nil, 0); err == nil {
		t.Error("NewCursor(nil): no error")
	}
	for _, out := range []int{-1, 2} {
		if _, err := NewCursor(s.Tape(), out); err == nil || !strings.Contains(err.Error(), "does not exist") {
			t.Errorf("NewCursor(out=%d): err = %v", out, err)
		}
	}
	c, err := NewCursor(s.Tape(), int(y))
	if err != nil {
		t.Fatal(err)
	}
	c.Forward()
	s.Reset()
	s.Param(tensor.Scalar(1), "x")
	if _, ok := c.Forward(); ok {
		t.Error("Forward on a reset tape reported a step")
	}
	if err := c.Err(); err == nil || !strings.Contains(err.Error(), "reset") {
		t.Errorf("Err after the tape was reset: %v", err)
	}
}

// TestCursorMatchesBackwardDenseOnCataloguePrograms runs the cursor over
// tapes of randprog's programs, which draw on every op of the catalogue, from
// the program's output and from a random node.
func TestCursorMatchesBackwardDenseOnCataloguePrograms(t *testing.T) {
	for _, prec := range precisions {
		t.Run(prec.String(), func(t *testing.T) { testCursorOnCataloguePrograms(t, prec) })
	}
}

func testCursorOnCataloguePrograms(t *testing.T, prec tensor.Precision) {
	for seed := range uint64(1000) {
		tp, cs := recordCase(t, seed, prec)
		for _, out := range []int{cs.Output, int(seed) % tp.Len()} {
			c, err := NewCursor(tp, out)
			if err != nil {
				t.Fatal(err)
			}
			final := map[int]*tensor.Tensor{}
			runToEnd(t, c, final)
			var ref Grads
			if err := tp.BackwardDense(out, onesLike(tp, out), &ref); err != nil {
				t.Fatal(err)
			}
			if i := sameGrads(c, &ref, tp.Len()); i >= 0 {
				t.Fatalf("seed %d, out %d: node %d: cursor %v, BackwardDense %v\n%v", seed, out, i, c.Grad(i), ref.Of(i), cs)
			}
			for i, g := range final {
				if !tensor.Identical(g, ref.Of(i)) {
					t.Fatalf("seed %d, out %d: node %d was declared final at %v, ends at %v", seed, out, i, g, ref.Of(i))
				}
			}
			if prec == tensor.Float32 {
				for i := range tp.Len() {
					if v := tp.Node(i).Value; !onGrid32(v) || !onGrid32(ref.Of(i)) {
						t.Fatalf("seed %d: node %d's value %v or gradient %v is not float32\n%v", seed, i, v, ref.Of(i), cs)
					}
				}
			}
		}
	}
}

// onGrid32 reports whether every element of x (nil counts) is a float32.
func onGrid32(x *tensor.Tensor) bool {
	if x == nil {
		return true
	}
	for _, v := range x.Data {
		if tensor.Round32(v) != v && v == v {
			return false
		}
	}
	return true
}

// recordCase records randprog's program number seed on a fresh session in
// precision p.
func recordCase(t *testing.T, seed uint64, p tensor.Precision) (*Tape, *randprog.Case) {
	t.Helper()
	cs := randprog.Generate(seed, randprog.Config{})
	s := NewSession()
	s.SetPrecision(p)
	var in []op.Value
	for _, x := range cs.Inputs {
		if x.RequiresGrad {
			in = append(in, s.Param(x.Value, x.Name))
		} else {
			in = append(in, s.Input(x.Value, x.Name))
		}
	}
	cs.Program(s, in)
	if err := s.Err(); err != nil {
		t.Fatalf("seed %d: %v\n%v", seed, err, cs)
	}
	return s.Tape(), cs
}
