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

// Call applies p to the operands xs through Apply, or through ApplyN when p
// is variadic or takes more than three operands: the one way to replay a
// recorded instruction on any backend.
func Call(o Ops, p *Op, a Attrs, xs ...Value) Value {
	if p.Variadic || len(xs) > 3 {
		return o.ApplyN(p, a, xs)
	}
	var in [3]Value
	for i := range in {
		in[i] = NoValue
		if i < len(xs) {
			in[i] = xs[i]
		}
	}
	return o.Apply(p, a, in[0], in[1], in[2])
}

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

// Div returns the elementwise quotient x ⊘ y (same shapes). Division by zero
// gives ±Inf or NaN as IEEE arithmetic does; it is not an error.
func Div(o Ops, x, y Value) Value { return binary(o, divOp, x, y) }

// Max returns the elementwise maximum of x and y (same shapes); a tie sends
// half the gradient to each.
func Max(o Ops, x, y Value) Value { return binary(o, maxOp, x, y) }

// Min returns the elementwise minimum of x and y (same shapes); a tie sends
// half the gradient to each.
func Min(o Ops, x, y Value) Value { return binary(o, minOp, x, y) }

// LeakyRelu returns x where x > 0 and slope·x elsewhere.
func LeakyRelu(o Ops, x Value, slope float64) Value {
	return o.Apply(leakyReluOp, Attrs{Alpha: slope}, x, NoValue, NoValue)
}

// Sigmoid returns 1/(1+exp(−x)) elementwise.
func Sigmoid(o Ops, x Value) Value { return unary(o, sigmoidOp, x) }

// GELU returns x·Φ(x) elementwise (the exact erf form, PyTorch's default).
func GELU(o Ops, x Value) Value { return unary(o, geluOp, x) }

// Exp returns exp(x) elementwise.
func Exp(o Ops, x Value) Value { return unary(o, expOp, x) }

// Log returns the natural logarithm of x elementwise; a negative entry is a
// domain error (log(0) = −Inf is not).
func Log(o Ops, x Value) Value { return unary(o, logOp, x) }

// Sqrt returns √x elementwise; a negative entry is a domain error.
func Sqrt(o Ops, x Value) Value { return unary(o, sqrtOp, x) }

// Abs returns |x| elementwise.
func Abs(o Ops, x Value) Value { return unary(o, absOp, x) }

// Square returns x² elementwise.
func Square(o Ops, x Value) Value { return unary(o, squareOp, x) }

// Pow returns x raised to the constant power c elementwise; a negative
// entry with a non-integer c is a domain error.
func Pow(o Ops, x Value, c float64) Value {
	return o.Apply(powOp, Attrs{Alpha: c}, x, NoValue, NoValue)
}

// Softmax normalises each row along the last axis of x into probabilities.
func Softmax(o Ops, x Value) Value { return unary(o, softmaxOp, x) }

// LogSoftmax returns the logarithm of Softmax(x), computed stably.
func LogSoftmax(o Ops, x Value) Value { return unary(o, logSoftmaxOp, x) }

// ReduceSum sums x along axis, which is removed from the shape (negative
// axes count from the end).
func ReduceSum(o Ops, x Value, axis int) Value {
	return o.Apply(reduceSumOp, Attrs{Axis: axis}, x, NoValue, NoValue)
}

// ReduceMean averages x along axis, which is removed from the shape
// (negative axes count from the end).
func ReduceMean(o Ops, x Value, axis int) Value {
	return o.Apply(reduceMeanOp, Attrs{Axis: axis}, x, NoValue, NoValue)
}

// Reshape returns x's values, in row-major order, with the given shape
// (same number of elements).
func Reshape(o Ops, x Value, shape tensor.Shape) Value {
	return o.Apply(reshapeOp, Attrs{Shape: shape.Clone()}, x, NoValue, NoValue)
}

// Flatten reshapes x [B d1 d2 …] to [B d1·d2·…].
func Flatten(o Ops, x Value) Value { return unary(o, flattenOp, x) }

// Transpose returns the transpose of the matrix x.
func Transpose(o Ops, x Value) Value { return unary(o, transposeOp, x) }

// BroadcastTo repeats x along the axes where its size is 1, and adds
// leading axes, to give shape (NumPy's broadcasting rule).
func BroadcastTo(o Ops, x Value, shape tensor.Shape) Value {
	return o.Apply(broadcastToOp, Attrs{Shape: shape.Clone()}, x, NoValue, NoValue)
}

// Concat joins xs along axis; all other dimensions must agree.
func Concat(o Ops, axis int, xs ...Value) Value {
	return o.ApplyN(concatOp, Attrs{Axis: axis}, xs)
}

// Detach returns x's value as a new value that passes no gradient back to x.
func Detach(o Ops, x Value) Value { return unary(o, detachOp, x) }

// Dropout zeroes each entry of x with probability p and scales the others
// by 1/(1−p) (inverted dropout, as PyTorch in train mode). The mask is a
// fixed function of seed and the entry's position: the same seed drops the
// same entries.
func Dropout(o Ops, x Value, p float64, seed uint64) Value {
	return o.Apply(dropoutOp, Attrs{Alpha: p, Seed: seed}, x, NoValue, NoValue)
}

// CrossEntropy returns the mean over the batch of −log softmax(logits)[c]
// for logits [B C] and classes [B] holding integer class indices as float64,
// like torch.nn.CrossEntropyLoss. classes receives no gradient; an index
// that is not an integer in [0, C) is a domain error naming its row.
func CrossEntropy(o Ops, logits, classes Value) Value {
	return binary(o, crossEntropyOp, logits, classes)
}

// BCEWithLogits returns the mean binary cross-entropy between sigmoid(logits)
// and targets (same shapes), computed stably from the logits like
// torch.nn.BCEWithLogitsLoss.
func BCEWithLogits(o Ops, logits, targets Value) Value {
	return binary(o, bceWithLogitsOp, logits, targets)
}

// Conv2D convolves x [B C H W] with w [O C kH kW] and adds b [O], like
// torch.nn.functional.conv2d with the given stride (≥ 1) and zero padding
// (≥ 0) on each side.
func Conv2D(o Ops, x, w, b Value, stride, padding int) Value {
	return o.Apply(conv2dOp, Attrs{Stride: stride, Padding: padding}, x, w, b)
}

// MaxPool2D takes the maximum of each kernel×kernel window of x [B C H W],
// windows stride apart, like torch.nn.functional.max_pool2d without padding.
func MaxPool2D(o Ops, x Value, kernel, stride int) Value {
	return o.Apply(maxPool2DOp, Attrs{Kernel: kernel, Stride: stride}, x, NoValue, NoValue)
}

// AvgPool2D takes the mean of each kernel×kernel window of x [B C H W],
// windows stride apart, like torch.nn.functional.avg_pool2d without padding.
func AvgPool2D(o Ops, x Value, kernel, stride int) Value {
	return o.Apply(avgPool2DOp, Attrs{Kernel: kernel, Stride: stride}, x, NoValue, NoValue)
}

// BatchNorm normalises each feature of x [B F] with the batch's mean and
// biased variance, then scales by gamma [F] and shifts by beta [F]
// (PyTorch's BatchNorm1d in train mode, without the running statistics,
// which the layer updates itself). B must be at least 2.
func BatchNorm(o Ops, x, gamma, beta Value, eps float64) Value {
	return o.Apply(batchNormOp, Attrs{Eps: eps}, x, gamma, beta)
}

// BatchNormEval normalises x [B F] with the running statistics
// runningMean [F] and runningVar [F] (which receive no gradient), then
// scales by gamma and shifts by beta (PyTorch's BatchNorm1d in eval mode).
// A negative running variance is a domain error.
func BatchNormEval(o Ops, x, gamma, beta, runningMean, runningVar Value, eps float64) Value {
	return o.ApplyN(batchNormEvalOp, Attrs{Eps: eps}, []Value{x, gamma, beta, runningMean, runningVar})
}

// LayerNorm normalises every row of x's last axis [… F] with the row's
// mean and biased variance, then scales by gamma [F] and shifts by beta
// [F] (PyTorch's LayerNorm with normalized_shape = F).
func LayerNorm(o Ops, x, gamma, beta Value, eps float64) Value {
	return o.Apply(layerNormOp, Attrs{Eps: eps}, x, gamma, beta)
}
