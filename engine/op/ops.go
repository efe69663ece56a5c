package op

import "tapelab/engine/tensor"

// Value names a value inside a backend: a tape node id in an eager session,
// an SSA index in a graph builder.
type Value int

// NoValue fills the unused operand slots of Ops.Apply and is what a backend
// returns after its first error.
const NoValue Value = -1

// Ops is what a program is written against. A program written once over Ops
// runs eagerly (autograd.Session records a tape) or is compiled
// (graph.Builder records an SSA graph). A backend remembers its first error;
// after it, every call returns NoValue and does nothing, so programs need no
// error checks between ops.
type Ops interface {
	// Apply applies o to up to three operands; unused slots are NoValue.
	Apply(o *Op, a Attrs, x, y, z Value) Value
	// ApplyN applies a variadic op (concat) to any number of operands.
	ApplyN(o *Op, a Attrs, xs []Value) Value
	// Const introduces a constant that receives no gradient.
	Const(t *tensor.Tensor) Value
	// Err reports the first error, or nil.
	Err() error
}

// Program is a computation written once against Ops: given the backend and
// its input values, it returns its output value.
type Program func(o Ops, in []Value) Value

func unary(o Ops, p *Op, x Value) Value     { return o.Apply(p, Attrs{}, x, NoValue, NoValue) }
func binary(o Ops, p *Op, x, y Value) Value { return o.Apply(p, Attrs{}, x, y, NoValue) }

// Add returns x + y (same shapes).
func Add(o Ops, x, y Value) Value { return binary(o, addOp, x, y) }

// Sub returns x − y (same shapes).
func Sub(o Ops, x, y Value) Value { return binary(o, subOp, x, y) }

// Mul returns the elementwise product x ⊙ y (same shapes).
func Mul(o Ops, x, y Value) Value { return binary(o, mulOp, x, y) }

// Neg returns −x.
func Neg(o Ops, x Value) Value { return unary(o, negOp, x) }

// Scale returns c·x for a constant c.
func Scale(o Ops, x Value, c float64) Value {
	return o.Apply(scaleOp, Attrs{Alpha: c}, x, NoValue, NoValue)
}

// AddBias adds the row b of shape [n] to every row of x of shape [..., n].
func AddBias(o Ops, x, b Value) Value { return binary(o, addBiasOp, x, b) }

// MatMul returns the matrix product of x [m k] and y [k n].
func MatMul(o Ops, x, y Value) Value { return binary(o, matmulOp, x, y) }

// Linear returns x·Wᵀ + b for x [batch in], W [out in] (PyTorch layout) and b [out].
func Linear(o Ops, x, w, b Value) Value { return o.Apply(linearOp, Attrs{}, x, w, b) }

// Tanh returns tanh(x) elementwise.
func Tanh(o Ops, x Value) Value { return unary(o, tanhOp, x) }

// Relu returns max(x, 0) elementwise.
func Relu(o Ops, x Value) Value { return unary(o, reluOp, x) }

// Sum returns the sum of all elements as a scalar.
func Sum(o Ops, x Value) Value { return unary(o, sumOp, x) }

// Mean returns the mean of all elements as a scalar.
func Mean(o Ops, x Value) Value { return unary(o, meanOp, x) }

// MSELoss returns mean((pred − target)²) as a scalar, like torch.nn.MSELoss.
func MSELoss(o Ops, pred, target Value) Value { return binary(o, mseLossOp, pred, target) }
