package autograd

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// checkDense steps a dense cursor from out to the end and checks it against
// BackwardDenseFrom with the one-hot pack, bit for bit: every gradient at
// the end, every gradient when it was declared final, the order (every node
// with a VJP, last id first) and the position.
func checkDense(t *testing.T, tp *Tape, out int, what string) {
	t.Helper()
	c, err := NewDenseCursor(tp, out)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Dense() || c.Nodes() != tp.Len() || c.Output() != out {
		t.Fatalf("%s: Dense %v, Nodes %d (tape %d), Output %d (want %d)", what, c.Dense(), c.Nodes(), tp.Len(), c.Output(), out)
	}
	var want []int
	for k := tp.Len() - 1; k >= 0; k-- {
		if nd := tp.Node(k); nd.Op != nil && nd.RequiresGrad {
			want = append(want, k)
		}
	}
	if got := c.Order(); !slices.Equal(got, want) {
		t.Fatalf("%s: Order %v, want every node with a VJP from the last: %v", what, got, want)
	}
	final := map[int]*tensor.Tensor{}
	runToEnd(t, c, final)
	if p := c.Position(); p.Phase != PhaseDone || p.Node != -1 || p.Known != tp.Len() || p.Steps != len(want) {
		t.Fatalf("%s: at the end the cursor is at %+v", what, p)
	}
	var ref Grads
	if err := denseOneHot(tp, out, &ref); err != nil {
		t.Fatal(err)
	}
	if i := sameGrads(c, &ref, tp.Len()); i >= 0 {
		t.Fatalf("%s (out %d of %d nodes): node %d: cursor %v, BackwardDenseFrom %v", what, out, tp.Len(), i, c.Grad(i), ref.Of(i))
	}
	for i := range tp.Len() {
		g, ok := final[i]
		if !ok {
			t.Fatalf("%s: node %d never became final", what, i)
		}
		if !tensor.Identical(g, ref.Of(i)) {
			t.Fatalf("%s: node %d was declared final at %v, ends at %v", what, i, g, ref.Of(i))
		}
	}
}

func TestDenseCursorMatchesBackwardDenseFromOnRandomTapes(t *testing.T) {
	for _, prec := range precisions {
		for seed := range 1500 {
			r := rand.New(rand.NewPCG(uint64(seed), 7))
			s, out := randTape(r, prec)
			checkDense(t, s.Tape(), out, prec.String()+" seed "+strconv.Itoa(seed))
		}
	}
}

// TestDenseCursorMatchesBackwardDenseFromOnCataloguePrograms covers every
// op of the catalogue, with -0.0, ±Inf and NaN in the values (so some zero
// cotangents meet infinities: 0·∞ = NaN must appear exactly where the
// one-shot pass puts it).
func TestDenseCursorMatchesBackwardDenseFromOnCataloguePrograms(t *testing.T) {
	for _, prec := range precisions {
		for seed := range uint64(1000) {
			tp, cs := recordCase(t, seed, prec)
			for _, out := range []int{cs.Output, int(seed) % tp.Len()} {
				checkDense(t, tp, out, prec.String()+" program "+strconv.Itoa(int(seed)))
			}
		}
	}
}

// TestDenseCursorVisitsTheSideNode steps y = x·x with a metric m = tanh(x)
// recorded beside it: the dense pass runs m's VJP on its +0.0 seed (x gets
// +0 added), BackwardDense never reaches m.
func TestDenseCursorVisitsTheSideNode(t *testing.T) {
	s := NewSession()
	x := s.Param(tensor.Scalar(3), "x") // node 0
	m := op.Tanh(s, x)                  // node 1, beside the loss
	y := op.Mul(s, x, x)                // node 2
	single, err := NewCursor(s.Tape(), int(y))
	if err != nil {
		t.Fatal(err)
	}
	if got := single.Order(); !slices.Equal(got, []int{2}) {
		t.Errorf("BackwardDense order %v, want [2]", got)
	}
	c, err := NewDenseCursor(s.Tape(), int(y))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Order(); !slices.Equal(got, []int{2, 1}) {
		t.Errorf("dense order %v, want [2 1]", got)
	}
	for range 3 {
		c.Forward()
	}
	if g := c.Grad(int(m)); g == nil || g.Data[0] != 0 || c.Final(0) {
		t.Fatalf("before any VJP: m's gradient %v (want its +0 seed), x final %v", g, c.Final(0))
	}
	e, ok := c.Backward()
	if !ok || e.Node != 2 || len(e.Contribs) != 2 || e.Contribs[0].Before == nil || e.Contribs[1].After.Data[0] != 6 {
		t.Fatalf("first VJP: %v node %d %+v", ok, e.Node, e.Contribs)
	}
	if c.Final(0) {
		t.Error("x is final before m's VJP ran")
	}
	e, ok = c.Backward()
	if !ok || e.Node != int(m) || e.Grad.Data[0] != 0 || len(e.Contribs) != 1 || e.Contribs[0].Value.Data[0] != 0 {
		t.Fatalf("second VJP: %v node %d dY %v %+v, want m's VJP on a zero cotangent", ok, e.Node, e.Grad, e.Contribs)
	}
	if !c.Final(0) || c.Grad(0).Data[0] != 6 || c.Position().Phase != PhaseDone {
		t.Errorf("at the end: x final %v grad %v, phase %v", c.Final(0), c.Grad(0), c.Position().Phase)
	}
	if _, ok := c.Undo(); !ok || c.Final(0) || c.Position().Node != int(m) {
		t.Errorf("Undo: ok %v, x final %v, next %d", ok, c.Final(0), c.Position().Node)
	}
}

func TestNewDenseCursorErrors(t *testing.T) {
	s := NewSession()
	s.Param(tensor.Scalar(1), "x")
	if _, err := NewDenseCursor(nil, 0); err == nil {
		t.Error("NewDenseCursor(nil): no error")
	}
	if _, err := NewDenseCursor(s.Tape(), 1); err == nil {
		t.Error("NewDenseCursor(out=1) on a one-node tape: no error")
	}
}
