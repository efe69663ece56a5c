// Package op is TapeLab's op catalogue: every operation is defined here once,
// with its shape rule, forward kernel, vector-Jacobian product (VJP), optional
// Jacobian-vector product (JVP), domain check and the chain-rule text the
// playground shows. The eager tape, the SSA graph, the IR and the views all
// use these definitions and nothing else.
//
// Kernels write into caller-owned output buffers so that a training step can
// run without allocating.
package op

import "tapelab/engine/tensor"

// Operand describes one input of an op.
type Operand struct {
	// Name is the operand's name in Formula and Rule, e.g. "A" or "W".
	Name string
	// NoGrad marks an operand that receives no gradient (class indices, masks).
	NoGrad bool
}

// Attrs holds the non-tensor arguments of an op application. Each op documents
// which fields it reads; the others must be left zero.
type Attrs struct {
	// Axis selects the axis of reduce_sum, reduce_mean and concat.
	Axis int
	// Alpha is the factor of scale, the negative slope of leaky_relu, the
	// exponent of pow and the drop probability p of dropout.
	Alpha float64
	// Shape is the target shape of reshape and broadcast_to.
	Shape tensor.Shape
	// Seed seeds dropout's mask; the same seed gives the same mask.
	Seed uint64
	// Stride is the step between windows of conv2d, max_pool2d and
	// avg_pool2d (≥ 1).
	Stride int
	// Padding is the number of zero rows and columns conv2d adds on each
	// side of the image (≥ 0).
	Padding int
	// Kernel is the side of max_pool2d's and avg_pool2d's square window
	// (≥ 1); conv2d reads its kernel size from the weight's shape instead.
	Kernel int
	// Eps is the ε added to the variance by batch_norm, batch_norm_eval and
	// layer_norm (≥ 0).
	Eps float64
}

// Op is one entry of the catalogue. All function fields except JVP, Domain
// and ZeroSafe are always set.
type Op struct {
	// Name is the op's stable name, used in the IR, the UI and links.
	Name string
	// Operands lists the inputs in order. When Variadic is set the op takes
	// one or more operands, all described by Operands[0].
	Operands []Operand
	Variadic bool
	// Formula is the forward rule in the notation of Rule, e.g. "Y = A·B".
	Formula string
	// Rule is the chain rule the playground shows, e.g. "dA = dY·Bᵀ, dB = Aᵀ·dY".
	Rule string
	// Window, for the ops that slide a window over an image (conv2d,
	// max_pool2d), is Formula and Rule said at one output position: the
	// window it reads and where that position's gradient goes. Empty for
	// the others.
	Window string

	// Infer returns the output shape for operand shapes in (already checked
	// for arity), appending to dst[:0] so that callers can reuse storage.
	Infer func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error)
	// Forward writes the op's value into y, which already has the inferred shape.
	Forward func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs)
	// VJP writes into dx[i] the contribution of cotangent dy to operand i.
	// dx[i] has operand i's shape, or is nil when that contribution is not
	// wanted; y is the forward value. Contributions overwrite dx[i].
	VJP func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a Attrs)
	// JVP, when set, writes into dy the directional derivative of the op
	// along the operand tangents dx (nil tangent = zero).
	JVP func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, x []*tensor.Tensor, a Attrs)
	// Domain, when set, reports why operand values lie outside the op's
	// domain (the log of a negative number, a class index out of range).
	// Checked paths call it before Forward.
	Domain func(x []*tensor.Tensor, a Attrs) error
	// ZeroSafe certifies compact backward support: it reports whether a
	// zero cotangent yields only ±0 contributions for these saved values
	// (so skipping the VJP changes nothing). An op without ZeroSafe cannot
	// certify its support, and single-output backward falls back to the
	// dense pass on any tape that holds it.
	ZeroSafe func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) bool
	// Work, when set, returns the multiply-adds of one forward evaluation
	// for operand shapes in and output shape y. Nil means one per element
	// of the largest of them, which is right within a small factor for the
	// elementwise ops, the reductions and the ops that move data. Work
	// budgets (engine/budget) read it through MultiplyAdds.
	Work func(y tensor.Shape, in []tensor.Shape, a Attrs) float64
	// Why, set on the elementwise ops whose operands all have the output's
	// shape, says why an output element is NaN or infinite from the
	// operands' values x at that element (and the element's value y) in
	// format f: "log(0) = −∞", "0 · +∞ = NaN", "exp(710) overflows …".
	// It returns "" when the value only passed on from a non-finite
	// operand (NaN + 1), or when it has nothing to say of the op; it is
	// not asked of a one-operand op whose operand is not finite (the
	// value passed on).
	Why func(x []float64, y float64, a Attrs, f Float) string
}

// MultiplyAdds returns the multiply-adds of one forward evaluation of the
// op on operands of shapes in with output shape y (see Op.Work). A
// reverse pass costs about twice as much.
func (o *Op) MultiplyAdds(y tensor.Shape, in []tensor.Shape, a Attrs) float64 {
	if o.Work != nil {
		return o.Work(y, in, a)
	}
	n := y.Size()
	for _, s := range in {
		n = max(n, s.Size())
	}
	return float64(n)
}

// Arity reports how many operands the op takes (the minimum when Variadic).
func (o *Op) Arity() int { return len(o.Operands) }

// AcceptsArity reports whether n operands are allowed.
func (o *Op) AcceptsArity(n int) bool {
	if o.Variadic {
		return n >= len(o.Operands)
	}
	return n == len(o.Operands)
}

// Grads reports whether operand i receives a gradient.
func (o *Op) Grads(i int) bool {
	if o.Variadic && i >= len(o.Operands) {
		i = len(o.Operands) - 1
	}
	return !o.Operands[i].NoGrad
}

// Shape checks the arity and infers the output shape, appending to dst[:0].
// The error names the op and the operand shapes.
func (o *Op) Shape(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
	if !o.AcceptsArity(len(in)) {
		want := itoa(len(o.Operands))
		if o.Variadic {
			want = "at least " + want
		}
		return dst, &Error{Node: -1, Op: o.Name, Shapes: cloneShapes(in), Msg: "takes " + want + " operands, got " + itoa(len(in))}
	}
	s, err := o.Infer(dst, in, a)
	if err != nil {
		return dst, &Error{Node: -1, Op: o.Name, Shapes: cloneShapes(in), Msg: err.Error()}
	}
	return s, nil
}

// Check runs the op's domain check, if it has one. The error names the op and
// the operand shapes.
func (o *Op) Check(x []*tensor.Tensor, a Attrs) error {
	if o.Domain == nil {
		return nil
	}
	if err := o.Domain(x, a); err != nil {
		return &Error{Node: -1, Op: o.Name, Shapes: shapesOf(x), Msg: err.Error()}
	}
	return nil
}

// Eval checks shapes and domain and returns a freshly allocated result. It is
// the slow, simple path for reference interpreters and tests.
func (o *Op) Eval(x []*tensor.Tensor, a Attrs) (*tensor.Tensor, error) {
	s, err := o.Shape(nil, shapesOf(x), a)
	if err != nil {
		return nil, err
	}
	if err := o.Check(x, a); err != nil {
		return nil, err
	}
	y := tensor.Zeros(s)
	o.Forward(y, x, a)
	return y, nil
}

// Finite is a ZeroSafe certificate for ops whose VJP multiplies the
// cotangent by saved values: a zero cotangent gives ±0 when every operand and
// the output are finite (0·∞ would be NaN).
func Finite(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) bool {
	if !y.Finite() {
		return false
	}
	for _, t := range x {
		if !t.Finite() {
			return false
		}
	}
	return true
}

// Always is a ZeroSafe certificate for ops whose VJP only moves, sums or
// selects cotangent entries, so a zero cotangent always gives ±0.
func Always(*tensor.Tensor, []*tensor.Tensor, Attrs) bool { return true }

func shapesOf(x []*tensor.Tensor) []tensor.Shape {
	s := make([]tensor.Shape, len(x))
	for i, t := range x {
		s[i] = t.Shape.Clone()
	}
	return s
}

func cloneShapes(in []tensor.Shape) []tensor.Shape {
	s := make([]tensor.Shape, len(in))
	for i, t := range in {
		s[i] = t.Clone()
	}
	return s
}
