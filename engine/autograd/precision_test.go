package autograd

import (
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// TestFloat32Session records y = sum(a·b + a) on a float32 session and
// checks each rounding point against the arithmetic written out: leaves
// rounded on entry (the caller's tensors untouched), each op's value, each
// contribution and the sum of a's two contributions rounded to float32.
func TestFloat32Session(t *testing.T) {
	a, b := tensor.Vector(0.1, 1e-46, 3e38), tensor.Vector(0.7, 2, 10)
	a0, b0 := a.Clone(), b.Clone()
	s := NewSession()
	s.SetPrecision(tensor.Float32)
	va, vb := s.Param(a, "a"), s.Param(b, "b")
	ab := op.Mul(s, va, vb)
	y := op.Sum(s, op.Add(s, ab, va))
	var g Grads
	if err := s.Backward(y, &g); err != nil {
		t.Fatal(err)
	}
	if !tensor.Identical(a, a0) || !tensor.Identical(b, b0) {
		t.Fatalf("the caller's leaves changed: a %v, b %v", a, b)
	}
	r := tensor.Round32
	ra, rb := []float64{r(0.1), 0, r(3e38)}, []float64{r(0.7), 2, 10}
	tp := s.Tape()
	for i, want := range ra {
		if got := tp.Node(int(va)).Value.Data[i]; got != want {
			t.Errorf("a[%d] on the tape = %v, want its float32 %v", i, got, want)
		}
		prod := r(want * rb[i]) // 3e38·10 overflows float32: +Inf
		if got := tp.Node(int(ab)).Value.Data[i]; got != prod {
			t.Errorf("(a·b)[%d] = %v, want %v", i, got, prod)
		}
		// a's gradient: b (from a·b) + 1 (from + a), rounded after the add.
		if got, want := g.Of(int(va)).Data[i], r(rb[i]+1); got != want {
			t.Errorf("da[%d] = %v, want %v", i, got, want)
		}
	}
	if got := tp.Node(int(ab)).Value.Data[2]; got < 1e300 {
		t.Errorf("3e38·10 in float32 storage = %v, want +Inf", got)
	}

	// The same on a float64 session: the caller's tensor is the leaf.
	s64 := NewSession()
	if s64.Param(a, "a"); s64.Tape().Node(0).Value != a {
		t.Error("a float64 leaf is not the caller's tensor")
	}
}

// TestFloat32CursorReadsTheLeavesAgain: a float32 cursor rounds a leaf
// from the caller's tensor as it is when the leaf's step runs, as a
// float64 cursor reads it, so an in-place update between recording and
// stepping is seen.
func TestFloat32CursorReadsTheLeavesAgain(t *testing.T) {
	x := tensor.Scalar(1)
	s := NewSession()
	s.SetPrecision(tensor.Float32)
	y := op.Mul(s, s.Param(x, "x"), s.Const(tensor.Scalar(3)))
	x.Data[0] = 0.1
	c, err := NewCursor(s.Tape(), int(y))
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, ok := c.Forward(); !ok {
			break
		}
	}
	if got, want := c.Value(int(y)).Data[0], tensor.Round32(tensor.Round32(0.1)*3); got != want {
		t.Errorf("y = %v, want %v", got, want)
	}
	if x.Data[0] != 0.1 {
		t.Errorf("the cursor changed the caller's x to %v", x.Data[0])
	}
}
