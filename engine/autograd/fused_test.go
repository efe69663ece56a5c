package autograd

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// fusable lists the activations a training pass fuses with the linear
// layer before them, with the attributes they are tried with.
var fusable = []struct {
	name  string
	attrs op.Attrs
}{
	{"tanh", op.Attrs{}}, {"relu", op.Attrs{}}, {"sigmoid", op.Attrs{}}, {"gelu", op.Attrs{}},
	{"leaky_relu", op.Attrs{Alpha: 0.01}}, {"leaky_relu", op.Attrs{Alpha: -3.5}},
}

func entry(t *testing.T, name string) *op.Op {
	t.Helper()
	o, ok := op.Lookup(name)
	if !ok {
		t.Fatalf("no op %q in the catalogue", name)
	}
	return o
}

// randFill fills v with values of a random scale, with now and then -0.0,
// a value large enough to overflow a product, ±Inf or NaN.
func randFill(r *rand.Rand, v *tensor.Tensor, specials bool) {
	scale := []float64{1e-3, 0.5, 1, 4, 30}[r.IntN(5)]
	for i := range v.Data {
		v.Data[i] = scale * r.NormFloat64()
		if !specials || r.IntN(12) != 0 {
			continue
		}
		v.Data[i] = []float64{math.Copysign(0, -1), 0, 1e200, -1e200, math.Inf(1), math.Inf(-1), math.NaN()}[r.IntN(7)]
	}
}

// TestApplyActIsLinearThenActivation is the fused node's promise: over
// random shapes and values (-0.0, overflowing products, ±Inf and NaN
// among them), for every fusable activation, a fused node gives bit for
// bit the values and gradients of the linear node and the activation node
// recorded one after the other: its Pre is the linear node's value, its
// Value the activation's, PreGrad the linear node's gradient, and the
// gradients of X, W and b are the same, by the one-shot pass and by a
// cursor stepped through the fused tape.
func TestApplyActIsLinearThenActivation(t *testing.T) {
	r := rand.New(rand.NewPCG(17, 3))
	linear := entry(t, "linear")
	cases := 400
	if testing.Short() {
		cases = 100
	}
	for c := range cases {
		prec := precisions[c/2%2] // both precisions, with and without specials
		f := fusable[c%len(fusable)]
		act := entry(t, f.name)
		n, in, out := 1+r.IntN(9), 1+r.IntN(12), 1+r.IntN(12)
		x, w, b := tensor.Zeros(tensor.Shape{n, in}), tensor.Zeros(tensor.Shape{out, in}), tensor.Zeros(tensor.Shape{out})
		seed := tensor.Zeros(tensor.Shape{n, out})
		specials := c%3 == 0
		for _, v := range []*tensor.Tensor{x, w, b, seed} {
			randFill(r, v, specials)
		}
		xGrad := r.IntN(2) == 0

		plain := NewSession()
		plain.SetPrecision(prec)
		px, pw, pb := plain.Leaf(x, "x", Input, xGrad), plain.Param(w, "W"), plain.Param(b, "b")
		z := plain.Apply(linear, op.Attrs{}, px, pw, pb)
		y := plain.Apply(act, f.attrs, z, op.NoValue, op.NoValue)
		fused := NewSession()
		fused.SetPrecision(prec)
		fx, fw, fb := fused.Leaf(x, "x", Input, xGrad), fused.Param(w, "W"), fused.Param(b, "b")
		fy := fused.ApplyAct(linear, op.Attrs{}, fx, fw, fb, act, f.attrs)
		if err := plain.Err(); err != nil {
			t.Fatal(err)
		}
		if err := fused.Err(); err != nil {
			t.Fatal(err)
		}
		pt, ft := plain.Tape(), fused.Tape()
		if ft.Len() != pt.Len()-1 {
			t.Fatalf("case %d: fused tape has %d nodes, the plain one %d", c, ft.Len(), pt.Len())
		}
		nd := ft.Node(int(fy))
		if !tensor.Identical(nd.Pre, pt.Node(int(z)).Value) || !tensor.Identical(nd.Value, pt.Node(int(y)).Value) {
			t.Fatalf("case %d (%s, %dx%d·%dx%d): forward differs\nPre %v\nZ   %v\nY   %v\nY'  %v", c, f.name, n, in, out, in,
				nd.Pre, pt.Node(int(z)).Value, nd.Value, pt.Node(int(y)).Value)
		}
		var pg, fg Grads
		if err := pt.BackwardDense(int(y), seed, &pg); err != nil {
			t.Fatal(err)
		}
		if err := ft.BackwardDense(int(fy), seed, &fg); err != nil {
			t.Fatal(err)
		}
		want := map[string][2]*tensor.Tensor{
			"dZ": {pg.Of(int(z)), ft.PreGrad(int(fy), &fg)},
			"dY": {pg.Of(int(y)), fg.Of(int(fy))},
			"dX": {pg.Of(int(px)), fg.Of(int(fx))},
			"dW": {pg.Of(int(pw)), fg.Of(int(fw))},
			"db": {pg.Of(int(pb)), fg.Of(int(fb))},
		}
		for name, p := range want {
			if (p[0] == nil) != (p[1] == nil) || p[0] != nil && !tensor.Identical(p[0], p[1]) {
				t.Fatalf("case %d (%s, %dx%d·%dx%d): %s differs:\nplain %v\nfused %v", c, f.name, n, in, out, in, name, p[0], p[1])
			}
		}
		if !xGrad && fg.Of(int(fx)) != nil {
			t.Fatalf("case %d: x wants no gradient but has one", c)
		}

		// A cursor re-evaluates the fused node and steps its VJP (seeded
		// with ones): the values and gradients of the one-shot pass.
		ones := tensor.Zeros(seed.Shape)
		ones.Fill(1)
		var og Grads
		if err := ft.BackwardDense(int(fy), ones, &og); err != nil {
			t.Fatal(err)
		}
		cur, err := NewCursor(ft, int(fy))
		if err != nil {
			t.Fatal(err)
		}
		for {
			if _, ok := cur.Forward(); !ok {
				break
			}
		}
		if !tensor.Identical(cur.Value(int(fy)), pt.Node(int(y)).Value) {
			t.Fatalf("case %d (%s): the cursor's value of the fused node differs", c, f.name)
		}
		for {
			if _, ok := cur.Backward(); !ok {
				break
			}
		}
		for _, id := range []op.Value{fw, fb} {
			if !tensor.Identical(cur.Grad(int(id)), og.Of(int(id))) {
				t.Fatalf("case %d (%s): the cursor's gradient of node %d differs from the pass's", c, f.name, id)
			}
		}
	}
}

// TestApplyActErrors: an activation that is missing, takes two operands or
// changes the shape is refused, naming the node; the session keeps its
// first error.
func TestApplyActErrors(t *testing.T) {
	linear := entry(t, "linear")
	for _, c := range []struct {
		act  *op.Op
		want string
	}{
		{nil, "one-operand activation"},
		{entry(t, "add"), "one-operand activation"},
		{entry(t, "sum"), "not elementwise"},
	} {
		s := NewSession()
		x := s.Input(tensor.Zeros(tensor.Shape{2, 3}), "x")
		w, b := s.Param(tensor.Zeros(tensor.Shape{4, 3}), "W"), s.Param(tensor.Zeros(tensor.Shape{4}), "b")
		if v := s.ApplyAct(linear, op.Attrs{}, x, w, b, c.act, op.Attrs{}); v != op.NoValue {
			t.Errorf("%v: recorded node %d", c.act, v)
		}
		if err := s.Err(); err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "node 3") {
			t.Errorf("%v: error %v, want one naming node 3 and saying %q", c.act, err, c.want)
		}
		if s.Tape().Len() != 3 {
			t.Errorf("%v: the failed node stayed on the tape (%d nodes)", c.act, s.Tape().Len())
		}
	}
}

// TestFusedTapeRecordsWithoutAllocating: re-recording a step with fused
// nodes and running its reverse pass allocates nothing.
func TestFusedTapeRecordsWithoutAllocating(t *testing.T) {
	linear, tanh := entry(t, "linear"), entry(t, "tanh")
	x, w, b := tensor.Zeros(tensor.Shape{8, 3}), tensor.Zeros(tensor.Shape{5, 3}), tensor.Zeros(tensor.Shape{5})
	for _, prec := range precisions {
		s := NewSession()
		s.SetPrecision(prec)
		var g Grads
		step := func() {
			s.Reset()
			h := s.ApplyAct(linear, op.Attrs{}, s.Input(x, "x"), s.Param(w, "W"), s.Param(b, "b"), tanh, op.Attrs{})
			if err := s.Backward(op.Sum(s, h), &g); err != nil {
				t.Fatal(err)
			}
		}
		step()
		if n := testing.AllocsPerRun(20, step); n != 0 {
			t.Errorf("%v: %v allocations per step", prec, n)
		}
	}
}
