package op_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// opCase is one application of a catalogue op on random operands: the
// shared fixture of the gradient, adjoint, zero-safety and allocation tests.
type opCase struct {
	op     string // catalogue name
	label  string // distinguishes several cases of one op
	attrs  op.Attrs
	shapes []tensor.Shape
	// gen fills operand i with values away from the op's kinks and ties (so
	// that finite differences apply); nil fills uniform values in [−2, 2].
	gen func(r *rand.Rand, i int, t *tensor.Tensor)
}

func (c opCase) String() string {
	if c.label == "" {
		return c.op
	}
	return c.op + "/" + c.label
}

type shapes = []tensor.Shape

// The generators below draw values that keep finite differences valid.
var (
	uniform   = func(r *rand.Rand, _ int, t *tensor.Tensor) { fill(t, func() float64 { return 4*r.Float64() - 2 }) }
	awayFrom0 = func(r *rand.Rand, _ int, t *tensor.Tensor) {
		fill(t, func() float64 { return sign(r) * (0.2 + 1.8*r.Float64()) })
	}
	positive = func(r *rand.Rand, _ int, t *tensor.Tensor) { fill(t, func() float64 { return 0.5 + 2.5*r.Float64() }) }
	// distinct draws a shuffled grid with gaps of 0.1, so no two entries tie.
	distinct = func(r *rand.Rand, _ int, t *tensor.Tensor) {
		for i, p := range r.Perm(len(t.Data)) {
			t.Data[i] = 0.1*float64(p) - 0.05*float64(len(t.Data))
		}
	}
)

func fill(t *tensor.Tensor, f func() float64) {
	for i := range t.Data {
		t.Data[i] = f()
	}
}

func sign(r *rand.Rand) float64 {
	if r.IntN(2) == 0 {
		return -1
	}
	return 1
}

// per returns a generator that uses gens[i] for operand i.
func per(gens ...func(*rand.Rand, int, *tensor.Tensor)) func(*rand.Rand, int, *tensor.Tensor) {
	return func(r *rand.Rand, i int, t *tensor.Tensor) { gens[i](r, i, t) }
}

// classes draws integer class indices in [0, n).
func classes(n int) func(*rand.Rand, int, *tensor.Tensor) {
	return func(r *rand.Rand, _ int, t *tensor.Tensor) { fill(t, func() float64 { return float64(r.IntN(n)) }) }
}

var cases = []opCase{
	{op: "add", shapes: shapes{{2, 3}, {2, 3}}},
	{op: "sub", shapes: shapes{{2, 3}, {2, 3}}},
	{op: "mul", shapes: shapes{{2, 3}, {2, 3}}},
	{op: "div", shapes: shapes{{2, 3}, {2, 3}}, gen: per(uniform, awayFrom0)},
	{op: "max", shapes: shapes{{3, 4}, {3, 4}}}, // newInstance separates A and B
	{op: "min", shapes: shapes{{3, 4}, {3, 4}}}, // newInstance separates A and B
	{op: "neg", shapes: shapes{{4}}},
	{op: "scale", attrs: op.Attrs{Alpha: -1.5}, shapes: shapes{{2, 2}}},
	{op: "add_bias", shapes: shapes{{3, 4}, {4}}},
	{op: "add_bias", label: "rank3", shapes: shapes{{2, 2, 3}, {3}}},
	{op: "matmul", shapes: shapes{{2, 3}, {3, 4}}},
	{op: "linear", shapes: shapes{{4, 3}, {2, 3}, {2}}},
	{op: "tanh", shapes: shapes{{2, 3}}},
	{op: "relu", shapes: shapes{{2, 3}}, gen: awayFrom0},
	{op: "leaky_relu", attrs: op.Attrs{Alpha: 0.01}, shapes: shapes{{2, 5}}, gen: awayFrom0},
	{op: "leaky_relu", label: "slope-0.3", attrs: op.Attrs{Alpha: -0.3}, shapes: shapes{{6}}, gen: awayFrom0},
	{op: "sigmoid", shapes: shapes{{2, 3}}},
	{op: "gelu", shapes: shapes{{2, 4}}, gen: func(r *rand.Rand, _ int, t *tensor.Tensor) { fill(t, func() float64 { return 6*r.Float64() - 3 }) }},
	{op: "exp", shapes: shapes{{2, 3}}},
	{op: "log", shapes: shapes{{2, 3}}, gen: positive},
	{op: "sqrt", shapes: shapes{{2, 3}}, gen: positive},
	{op: "abs", shapes: shapes{{2, 3}}, gen: awayFrom0},
	{op: "square", shapes: shapes{{2, 3}}},
	{op: "pow", attrs: op.Attrs{Alpha: 3}, shapes: shapes{{2, 3}}},
	{op: "pow", label: "sqrt", attrs: op.Attrs{Alpha: 0.5}, shapes: shapes{{4}}, gen: positive},
	{op: "pow", label: "reciprocal", attrs: op.Attrs{Alpha: -1}, shapes: shapes{{2, 2}}, gen: awayFrom0},
	{op: "softmax", shapes: shapes{{3, 4}}},
	{op: "softmax", label: "rank1", shapes: shapes{{5}}},
	{op: "log_softmax", shapes: shapes{{3, 4}}},
	{op: "sum", shapes: shapes{{2, 3}}},
	{op: "mean", shapes: shapes{{2, 3}}},
	{op: "reduce_sum", attrs: op.Attrs{Axis: 1}, shapes: shapes{{2, 3, 4}}},
	{op: "reduce_sum", label: "axis-1", attrs: op.Attrs{Axis: -1}, shapes: shapes{{2, 3}}},
	{op: "reduce_mean", attrs: op.Attrs{Axis: 0}, shapes: shapes{{3, 2, 2}}},
	{op: "reduce_mean", label: "axis2", attrs: op.Attrs{Axis: 2}, shapes: shapes{{2, 3, 4}}},
	{op: "reshape", attrs: op.Attrs{Shape: tensor.Shape{3, 4}}, shapes: shapes{{2, 6}}},
	{op: "flatten", shapes: shapes{{2, 3, 2, 2}}},
	{op: "transpose", shapes: shapes{{2, 3}}},
	{op: "concat", attrs: op.Attrs{Axis: 1}, shapes: shapes{{2, 1}, {2, 3}, {2, 2}}},
	{op: "concat", label: "axis0", attrs: op.Attrs{Axis: 0}, shapes: shapes{{1, 3}, {2, 3}}},
	{op: "broadcast_to", attrs: op.Attrs{Shape: tensor.Shape{2, 3}}, shapes: shapes{{3}}},
	{op: "broadcast_to", label: "scalar", attrs: op.Attrs{Shape: tensor.Shape{2, 2}}, shapes: shapes{{}}},
	{op: "broadcast_to", label: "inner", attrs: op.Attrs{Shape: tensor.Shape{4, 2, 3}}, shapes: shapes{{2, 1}}},
	{op: "broadcast_to", label: "same", attrs: op.Attrs{Shape: tensor.Shape{2, 3}}, shapes: shapes{{2, 3}}},
	{op: "detach", shapes: shapes{{2, 3}}},
	{op: "dropout", attrs: op.Attrs{Alpha: 0.3, Seed: 42}, shapes: shapes{{4, 5}}},
	{op: "mse_loss", shapes: shapes{{3, 2}, {3, 2}}},
	{op: "cross_entropy", shapes: shapes{{4, 3}, {4}}, gen: per(uniform, classes(3))},
	{op: "bce_with_logits", shapes: shapes{{3, 2}, {3, 2}},
		gen: per(uniform, func(r *rand.Rand, _ int, t *tensor.Tensor) { fill(t, r.Float64) })},
	{op: "conv2d", attrs: op.Attrs{Stride: 2, Padding: 1}, shapes: shapes{{2, 2, 5, 5}, {3, 2, 3, 3}, {3}}},
	{op: "conv2d", label: "stride1", attrs: op.Attrs{Stride: 1}, shapes: shapes{{1, 1, 4, 3}, {2, 1, 2, 2}, {2}}},
	{op: "max_pool2d", attrs: op.Attrs{Kernel: 3, Stride: 2}, shapes: shapes{{2, 2, 5, 5}}, gen: distinct},
	{op: "max_pool2d", label: "k2s2", attrs: op.Attrs{Kernel: 2, Stride: 2}, shapes: shapes{{1, 2, 4, 4}}, gen: distinct},
	{op: "avg_pool2d", attrs: op.Attrs{Kernel: 3, Stride: 2}, shapes: shapes{{2, 2, 5, 5}}},
	{op: "avg_pool2d", label: "k2s1", attrs: op.Attrs{Kernel: 2, Stride: 1}, shapes: shapes{{1, 2, 3, 4}}},
	{op: "batch_norm", attrs: op.Attrs{Eps: 1e-5}, shapes: shapes{{4, 3}, {3}, {3}}},
	{op: "batch_norm_eval", attrs: op.Attrs{Eps: 1e-5}, shapes: shapes{{3, 2}, {2}, {2}, {2}, {2}},
		gen: per(uniform, uniform, uniform, uniform, positive)},
	{op: "layer_norm", attrs: op.Attrs{Eps: 1e-5}, shapes: shapes{{3, 4}, {4}, {4}}},
	{op: "layer_norm", label: "rank3", attrs: op.Attrs{Eps: 0.1}, shapes: shapes{{2, 2, 3}, {3}, {3}}},
}

// instance is one case made concrete: its op, operands and output.
type instance struct {
	c  opCase
	o  *op.Op
	x  []*tensor.Tensor
	y  *tensor.Tensor
	rg *rand.Rand
}

// newInstance looks the op up, draws its operands and runs the checked
// path (shape rule, domain, forward).
func newInstance(t *testing.T, c opCase, seed uint64) *instance {
	t.Helper()
	o, ok := op.Lookup(c.op)
	if !ok {
		t.Fatalf("op %q is not in the catalogue", c.op)
	}
	r := rand.New(rand.NewPCG(seed, 7))
	gen := c.gen
	if gen == nil {
		gen = uniform
	}
	x := make([]*tensor.Tensor, len(c.shapes))
	for i, s := range c.shapes {
		x[i] = tensor.Zeros(s)
		gen(r, i, x[i])
	}
	if c.op == "max" || c.op == "min" { // keep every entry away from a tie
		separate(x[0], x[1])
	}
	y, err := o.Eval(x, c.attrs)
	if err != nil {
		t.Fatalf("%v: %v", c, err)
	}
	return &instance{c: c, o: o, x: x, y: y, rg: r}
}

// separate moves entries of b that lie within 0.2 of a to a + 0.5.
func separate(a, b *tensor.Tensor) {
	for i := range b.Data {
		if math.Abs(a.Data[i]-b.Data[i]) < 0.2 {
			b.Data[i] = a.Data[i] + 0.5
		}
	}
}

// random returns a tensor of shape s with entries uniform in [−1, 1].
func (in *instance) random(s tensor.Shape) *tensor.Tensor {
	t := tensor.Zeros(s)
	fill(t, func() float64 { return 2*in.rg.Float64() - 1 })
	return t
}

// vjp runs the op's VJP for cotangent dy, asking for the operands in want
// (nil = every operand that takes a gradient). Unwanted slots are nil.
func (in *instance) vjp(dy *tensor.Tensor, want []bool) []*tensor.Tensor {
	dx := make([]*tensor.Tensor, len(in.x))
	for i, t := range in.x {
		if in.o.Grads(i) && (want == nil || want[i]) {
			dx[i] = tensor.Zeros(t.Shape)
			dx[i].Fill(math.NaN()) // the VJP must overwrite every entry
		}
	}
	in.o.VJP(dx, dy, in.y, in.x, in.c.attrs)
	return dx
}

// only returns a mask selecting operand i.
func only(n, i int) []bool {
	m := make([]bool, n)
	m[i] = true
	return m
}

func dot(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		s += a[i] * b[i]
	}
	return s
}
