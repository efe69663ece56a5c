package ir

import (
	"math"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// refKernel writes the value of an op kind into y (already shaped as the
// node declares) from the operand values x.
type refKernel func(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs)

// reference returns Denote's kernel of an op kind, each written from the
// op's stated meaning (its Formula and the numerical conventions the
// catalogue documents: sums run in index order from +0, products are rounded
// before they are added, softmax subtracts the row maximum) with plain loops
// of its own. Kinds it returns nil for (dropout, whose mask is defined by
// the catalogue's generator) fall back to the op's Forward. It is a switch,
// not a map, so that a program that never calls Denote (the playground)
// links none of these kernels.
func reference(kind string) refKernel {
	switch kind {
	case "add":
		return zip(func(a, b float64) float64 { return a + b })
	case "sub":
		return zip(func(a, b float64) float64 { return a - b })
	case "mul":
		return zip(func(a, b float64) float64 { return a * b })
	case "div":
		return zip(func(a, b float64) float64 { return a / b })
	case "max":
		return zip(math.Max)
	case "min":
		return zip(math.Min)
	case "neg":
		return each(func(v float64) float64 { return -v })
	case "abs":
		return each(math.Abs)
	case "exp":
		return each(math.Exp)
	case "log":
		return each(math.Log)
	case "sqrt":
		return each(math.Sqrt)
	case "square":
		return each(func(v float64) float64 {
			return v * v
		})
		// tanh is the engine's portable tanh (the same bits natively and in
		// wasm); natively math.Tanh may differ from it in the last bit.
	case "tanh":
		return func(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) { tensor.Tanh(y, x[0]) }
	case "relu":
		return each(relu)
	case "sigmoid":
		return each(sigmoid)
	case "gelu":
		return each(gelu)
	case "detach":
		return each(func(v float64) float64 { return v })
	case "reshape":
		return each(func(v float64) float64 { return v })
	case "flatten":
		return each(func(v float64) float64 { return v })
	case "scale":
		return refScale
	case "leaky_relu":
		return refLeakyReLU
	case "add_bias":
		return refAddBias
	case "sum":
		return refSum
	case "mean":
		return refMean
	case "reduce_sum":
		return refReduce(false)
	case "reduce_mean":
		return refReduce(true)
	case "softmax":
		return refSoftmax
	case "log_softmax":
		return refLogSoftmax
	case "transpose":
		return refTranspose
	case "concat":
		return refConcat
	case "matmul":
		return refMatMul
	case "linear":
		return refLinear
	case "conv2d":
		return refConv2D
	case "max_pool2d":
		return refMaxPool2D
	case "avg_pool2d":
		return refAvgPool2D
	case "batch_norm":
		return refBatchNorm
	case "batch_norm_eval":
		return func(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
			normalize(y, x[0], x[1], x[2], x[3].Data, x[4].Data, a.Eps)
		}
	case "layer_norm":
		return refLayerNorm
	case "pow":
		return func(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
			each(func(v float64) float64 { return math.Pow(v, a.Alpha) })(y, x, a)
		}
	case "broadcast_to":
		return refBroadcastTo
	case "mse_loss":
		return refMSELoss
	case "cross_entropy":
		return refCrossEntropy
	case "bce_with_logits":
		return refBCEWithLogits
	}
	return nil
}

// each lifts a scalar function to an elementwise kernel.
func each(f func(float64) float64) refKernel {
	return func(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
		for i, v := range x[0].Data {
			y.Data[i] = f(v)
		}
	}
}

// zip lifts a binary scalar function to a kernel over two alike tensors.
func zip(f func(a, b float64) float64) refKernel {
	return func(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
		for i := range y.Data {
			y.Data[i] = f(x[0].Data[i], x[1].Data[i])
		}
	}
}

// relu is max(v, 0): v where v > 0 or v is NaN (as in PyTorch), else +0.
func relu(v float64) float64 {
	if v > 0 || math.IsNaN(v) {
		return v
	}
	return 0
}

// sigmoid is 1/(1+e^−v), evaluated as e^v/(1+e^v) for negative v so that
// e^−v cannot overflow.
func sigmoid(v float64) float64 {
	if v < 0 {
		e := math.Exp(v)
		return e / (1 + e)
	}
	return 1 / (1 + math.Exp(-v))
}

// gelu is v·Φ(v) with Φ(v) = ½·erfc(−v/√2); at −Inf it is the limit −0.
func gelu(v float64) float64 {
	if v == math.Inf(-1) {
		return math.Copysign(0, -1)
	}
	return v * (0.5 * math.Erfc(-v*(1/math.Sqrt2)))
}

func refScale(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	for i, v := range x[0].Data {
		y.Data[i] = a.Alpha * v
	}
}

// refLeakyReLU is v where v > 0, else slope·v.
func refLeakyReLU(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	for i, v := range x[0].Data {
		if v > 0 {
			y.Data[i] = v
		} else {
			y.Data[i] = a.Alpha * v
		}
	}
}

// refAddBias adds b[j] to element j of every row (the last axis).
func refAddBias(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	n := len(x[1].Data)
	for r := 0; r < len(y.Data); r += n {
		for j := 0; j < n; j++ {
			y.Data[r+j] = x[0].Data[r+j] + x[1].Data[j]
		}
	}
}

// total adds the elements in index order, starting from +0.
func total(xs []float64) float64 {
	s := 0.0
	for _, v := range xs {
		s += v
	}
	return s
}

func refSum(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) { y.Data[0] = total(x[0].Data) }

func refMean(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	y.Data[0] = total(x[0].Data) / float64(len(x[0].Data))
}

// axisOf maps an axis in [−rank, rank) to [0, rank) (shapes are checked).
func axisOf(axis, rank int) int {
	if axis < 0 {
		return axis + rank
	}
	return axis
}

// refReduce sums along the axis: the first slice, then each further slice
// added in axis order; the mean divides the sum by the axis length.
func refReduce(mean bool) refKernel {
	return func(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
		s := x[0].Shape
		k := axisOf(a.Axis, len(s))
		n, inner := s[k], s[k+1:].Size()
		for i := range y.Data {
			o, in := i/inner, i%inner
			v := x[0].Data[o*n*inner+in]
			for j := 1; j < n; j++ {
				v += x[0].Data[(o*n+j)*inner+in]
			}
			if mean {
				v /= float64(n)
			}
			y.Data[i] = v
		}
	}
}

// rowMax returns the row's maximum, NaN if the row holds one.
func rowMax(row []float64) float64 {
	m := math.Inf(-1)
	for _, v := range row {
		if v != v {
			return v
		}
		if v > m {
			m = v
		}
	}
	return m
}

// expSum returns Σ e^(v−m) over the row, in order from +0.
func expSum(row []float64, m float64) float64 {
	s := 0.0
	for _, v := range row {
		s += math.Exp(v - m)
	}
	return s
}

// refSoftmax is e^(v−m)/Σ e^(v−m) over each row of the last axis, m the row maximum.
func refSoftmax(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	n := x[0].Shape[len(x[0].Shape)-1]
	for r := 0; r < len(y.Data); r += n {
		row := x[0].Data[r : r+n]
		m := rowMax(row)
		s := expSum(row, m)
		for j, v := range row {
			y.Data[r+j] = math.Exp(v-m) / s
		}
	}
}

// refLogSoftmax is v − m − log Σ e^(v−m) over each row of the last axis.
func refLogSoftmax(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	n := x[0].Shape[len(x[0].Shape)-1]
	for r := 0; r < len(y.Data); r += n {
		row := x[0].Data[r : r+n]
		m := rowMax(row)
		ls := math.Log(expSum(row, m))
		for j, v := range row {
			y.Data[r+j] = v - m - ls
		}
	}
}

// refTranspose swaps the two axes of a matrix.
func refTranspose(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	rows, cols := x[0].Shape[0], x[0].Shape[1]
	for i := 0; i < cols; i++ {
		for j := 0; j < rows; j++ {
			y.Data[i*rows+j] = x[0].Data[j*cols+i]
		}
	}
}

// refConcat places each output element by finding which operand holds its
// position along the axis.
func refConcat(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	k := axisOf(a.Axis, len(y.Shape))
	n, inner := y.Shape[k], y.Shape[k+1:].Size()
	for i := range y.Data {
		o, pos, in := i/(n*inner), (i/inner)%n, i%inner
		for _, t := range x {
			m := t.Shape[k]
			if pos < m {
				y.Data[i] = t.Data[(o*m+pos)*inner+in]
				break
			}
			pos -= m
		}
	}
}

// refBroadcastTo repeats X along the axes where NumPy's rule grows it:
// output index i reads the operand at the same index, right-aligned, with
// every axis of size 1 (or missing) read at 0.
func refBroadcastTo(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	out, in := y.Shape, x[0].Shape
	lead := len(out) - len(in)
	idx := make([]int, len(out))
	for i := range y.Data {
		rest := i
		for k := len(out) - 1; k >= 0; k-- {
			idx[k] = rest % out[k]
			rest /= out[k]
		}
		j := 0
		for k, d := range in {
			c := idx[lead+k]
			if d == 1 {
				c = 0
			}
			j = j*d + c
		}
		y.Data[i] = x[0].Data[j]
	}
}
