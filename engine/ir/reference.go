package ir

import (
	"math"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// refKernel writes the value of an op kind into y (already shaped as the
// node declares) from the operand values x.
type refKernel func(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs)

// reference holds Denote's kernels, one per op kind, each written from the
// op's meaning (PyTorch's definition) with plain loops. It is never modified.
var reference = map[string]refKernel{
	"add":      zip(func(a, b float64) float64 { return a + b }),
	"sub":      zip(func(a, b float64) float64 { return a - b }),
	"mul":      zip(func(a, b float64) float64 { return a * b }),
	"neg":      each(func(v float64) float64 { return -v }),
	"tanh":     each(math.Tanh),
	"relu":     each(relu),
	"scale":    refScale,
	"add_bias": refAddBias,
	"sum":      refSum,
	"mean":     refMean,
	"mse_loss": refMSELoss,
	"matmul":   refMatMul,
	"linear":   refLinear,
}

// relu is max(v, 0) with NaN propagating, as torch.relu does.
func relu(v float64) float64 {
	if v > 0 || v != v {
		return v
	}
	return 0
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

func refScale(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	for i, v := range x[0].Data {
		y.Data[i] = a.Alpha * v
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

// total adds the elements left to right, starting from 0.
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

// refMSELoss is mean((p − t)²), torch.nn.MSELoss with reduction "mean".
func refMSELoss(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	s := 0.0
	for i, p := range x[0].Data {
		d := p - x[1].Data[i]
		s += d * d
	}
	y.Data[0] = s / float64(len(x[0].Data))
}

// refMatMul is A·B through tensor.Gemm (see Reference).
func refMatMul(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	tensor.Gemm(false, false, 1, x[0], x[1], 0, y)
}

// refLinear is X·Wᵀ + b: every row starts as b, then Gemm adds X·Wᵀ.
func refLinear(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	b := x[2].Data
	for r := 0; r < len(y.Data); r += len(b) {
		copy(y.Data[r:], b)
	}
	tensor.Gemm(false, true, 1, x[0], x[1], 1, y)
}
