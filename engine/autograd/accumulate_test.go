package autograd

import (
	"math"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// hygieneTape records loss = Σ tanh(x·Wᵀ + b)² + 0.01·Σ W⊙W: W feeds
// the layer and, twice, the penalty (three contributions per pass), b one.
// The values are not dyadic, so sums round.
func hygieneTape(t *testing.T) (*Tape, int, []int) {
	t.Helper()
	s := NewSession()
	x := s.Input(tensor.Matrix([][]float64{{0.1, -0.7}, {1.3, 0.29}, {-0.61, 0.37}}), "x")
	w := s.Param(tensor.Matrix([][]float64{{0.31, -0.47}, {0.83, 0.11}}), "W")
	b := s.Param(tensor.Vector(0.017, -0.23), "b")
	h := op.Tanh(s, op.Linear(s, x, w, b))
	loss := op.Add(s, op.Sum(s, op.Mul(s, h, h)), op.Scale(s, op.Sum(s, op.Mul(s, w, w)), 0.01))
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return s.Tape(), int(loss), []int{int(w), int(b)}
}

// twice reports whether got is exactly 2·want, element for element.
func twice(got, want *tensor.Tensor) bool {
	if got == nil || want == nil || len(got.Data) != len(want.Data) {
		return false
	}
	for k, v := range want.Data {
		if math.Float64bits(got.Data[k]) != math.Float64bits(2*v) {
			return false
		}
	}
	return true
}

// TestAccumulateDoubles: two backward passes without zeroing give exactly
// twice each parameter's gradient (bit for bit), through the one-shot pass
// and through both cursors; op nodes keep one pass's gradient; zeroing
// first gives one pass's gradient again. (Adding each contribution into
// the kept gradient in turn, instead of the pass's sum, misses 2× by one
// ulp on one element of W here: the test tells the two folds apart.)
func TestAccumulateDoubles(t *testing.T) {
	tape, loss, params := hygieneTape(t)
	var once Grads
	if err := tape.BackwardDense(loss, tensor.Scalar(1), &once); err != nil {
		t.Fatal(err)
	}
	check := func(name string, acc *Grads, recs []Accumulation) {
		t.Helper()
		for _, p := range params {
			if !twice(acc.Of(p), once.Of(p)) {
				t.Errorf("%s: node %d's gradient %v after two passes, want exactly 2 × %v", name, p, acc.Of(p), once.Of(p))
			}
		}
		if len(recs) != len(params) {
			t.Fatalf("%s: %d accumulations, want one per parameter", name, len(recs))
		}
		for k, r := range recs {
			if r.Leaf != params[k] || !tensor.Identical(r.Kept, once.Of(r.Leaf)) || !tensor.Identical(r.Pass, once.Of(r.Leaf)) || !tensor.Identical(r.After, acc.Of(r.Leaf)) {
				t.Errorf("%s: accumulation %+v", name, r)
			}
		}
		for i := 0; i < tape.Len(); i++ {
			if tape.Node(i).Op != nil && once.Of(i) != nil && !tensor.Identical(acc.Of(i), once.Of(i)) {
				t.Errorf("%s: op node %d holds %v, want this pass's %v", name, i, acc.Of(i), once.Of(i))
			}
		}
		if acc.Of(0) != nil {
			t.Errorf("%s: the input x, which requires no gradient, has one", name)
		}
	}

	var acc Grads
	var recs []Accumulation
	for pass := range 2 {
		var err error
		if recs, err = tape.BackwardAccumulate(loss, tensor.Scalar(1), &acc); err != nil {
			t.Fatal(err)
		}
		if pass == 0 {
			for _, r := range recs {
				if r.Kept != nil || !tensor.Identical(r.After, once.Of(r.Leaf)) {
					t.Errorf("first pass: %+v, want nothing kept and the pass's gradient", r)
				}
			}
		}
	}
	check("BackwardAccumulate", &acc, recs)

	acc.Zero()
	if _, err := tape.BackwardAccumulate(loss, tensor.Scalar(1), &acc); err != nil {
		t.Fatal(err)
	}
	for _, p := range params {
		if !tensor.Identical(acc.Of(p), once.Of(p)) {
			t.Errorf("zeroed first: node %d holds %v, want one pass's %v", p, acc.Of(p), once.Of(p))
		}
	}

	for _, mk := range []struct {
		name string
		new  func(*Tape, int) (*Cursor, error)
	}{{"NewCursor", NewCursor}, {"NewDenseCursor", NewDenseCursor}} {
		c, err := mk.new(tape, loss)
		if err != nil {
			t.Fatal(err)
		}
		if c.Grads() != nil {
			t.Errorf("%s: gradients before the backward phase", mk.name)
		}
		var acc Grads
		for range 2 {
			c.Reset()
			for _, ok := c.Forward(); ok; _, ok = c.Forward() {
			}
			for _, ok := c.Backward(); ok; _, ok = c.Backward() {
			}
			if recs, err = tape.AccumulateLeaves(&acc, c.Grads()); err != nil {
				t.Fatal(err)
			}
		}
		c.Close()
		check(mk.name, &acc, recs)
	}
}

// TestAccumulateErrors: a pass or kept gradients from another tape are
// refused.
func TestAccumulateErrors(t *testing.T) {
	tape, loss, _ := hygieneTape(t)
	var g Grads
	if err := tape.BackwardDense(loss, tensor.Scalar(1), &g); err != nil {
		t.Fatal(err)
	}
	small := NewSession()
	small.Param(tensor.Scalar(1), "a")
	if _, err := small.Tape().AccumulateLeaves(&Grads{}, &g); err == nil {
		t.Error("a pass over a longer tape is folded")
	}
	var kept Grads
	if _, err := small.Tape().AccumulateLeaves(&kept, &Grads{}); err != nil {
		t.Fatal(err)
	}
	if _, err := tape.AccumulateLeaves(&kept, &g); err == nil {
		t.Error("gradients kept for another tape are folded into")
	}
}
