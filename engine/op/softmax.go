package op

import (
	"errors"
	"math"

	"tapelab/engine/tensor"
)

// Softmax and log-softmax act on the last axis: each row of n = last
// dimension entries is normalised on its own. Both subtract the row maximum
// before exponentiating, so finite inputs never overflow.

var softmaxOp = &Op{
	Name:     "softmax",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = exp(X) / Σ_row exp(X)",
	Rule:     "dX = Y ⊙ (dY − Σ_row(dY ⊙ Y))",
	Infer:    lastAxis,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		n := lastDim(x[0])
		for r := 0; r < len(y.Data); r += n {
			xr, yr := x[0].Data[r:r+n], y.Data[r:r+n]
			m, s := rowMax(xr), 0.0
			for j, v := range xr { // the terms of logSumExpParts, kept in Y
				yr[j] = math.Exp(v - m)
				s += yr[j]
			}
			for j := range yr {
				yr[j] /= s
			}
		}
	},
	// The Jacobian diag(Y) − Y·Yᵀ of each row is symmetric, so the VJP and
	// the JVP are the same product.
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		softmaxJacobian(dx[0], y, dy)
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		softmaxJacobian(dy, y, dx[0])
	},
	// The VJP multiplies by Y only; Y is finite whenever X is.
	ZeroSafe: finiteOutput,
}

var logSoftmaxOp = &Op{
	Name:     "log_softmax",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = X − log Σ_row exp(X)",
	Rule:     "dX = dY − exp(Y) ⊙ Σ_row dY",
	Infer:    lastAxis,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		n := lastDim(x[0])
		for r := 0; r < len(y.Data); r += n {
			xr, yr := x[0].Data[r:r+n], y.Data[r:r+n]
			m, s := logSumExpParts(xr)
			ls := math.Log(s)
			for j, v := range xr {
				yr[j] = v - m - ls
			}
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		n := lastDim(y)
		for r := 0; r < len(y.Data); r += n {
			gr, yr, dr := dy.Data[r:r+n], y.Data[r:r+n], dx[0].Data[r:r+n]
			sum := total(gr)
			for j, g := range gr {
				dr[j] = g - math.Exp(yr[j])*sum
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		n := lastDim(y)
		for r := 0; r < len(y.Data); r += n {
			tr, yr, out := dx[0].Data[r:r+n], y.Data[r:r+n], dy.Data[r:r+n]
			dot := 0.0
			for j, t := range tr {
				dot += math.Exp(yr[j]) * t
			}
			for j, t := range tr {
				out[j] = t - dot
			}
		}
	},
	// exp(Y)·0 is ±0 when exp(Y) is finite: Y ≤ 0, as every log-probability
	// is (exp(−Inf) = 0 is fine); NaN fails the test.
	ZeroSafe: func(y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) bool {
		for _, v := range y.Data {
			if !(v <= 0) {
				return false
			}
		}
		return true
	},
}

// softmaxJacobian sets out = J·v row by row, where J = diag(Y) − Y·Yᵀ is
// the Jacobian of the softmax with output y: out = Y ⊙ (v − Σ_row(v ⊙ Y)).
func softmaxJacobian(out, y, v *tensor.Tensor) {
	n := lastDim(y)
	for r := 0; r < len(y.Data); r += n {
		vr, yr, or := v.Data[r:r+n], y.Data[r:r+n], out.Data[r:r+n]
		dot := 0.0
		for j, g := range vr {
			dot += g * yr[j]
		}
		for j, g := range vr {
			or[j] = yr[j] * (g - dot)
		}
	}
}

// lastAxis is the shape rule of the row-wise ops: X needs at least one
// dimension, and Y has X's shape.
func lastAxis(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
	if len(in[0]) == 0 {
		return dst, errors.New("X must have at least one dimension (rows along the last axis)")
	}
	return append(dst[:0], in[0]...), nil
}

// lastDim is the length of t's last axis.
func lastDim(t *tensor.Tensor) int { return t.Shape[len(t.Shape)-1] }

// logSumExpParts returns the maximum m of xs and s = Σ exp(x − m), so that
// log Σ exp(x) = m + log s without overflow. The sum runs in index order.
func logSumExpParts(xs []float64) (m, s float64) {
	m = rowMax(xs)
	for _, v := range xs {
		s += math.Exp(v - m)
	}
	return m, s
}

// rowMax returns the maximum of xs (−Inf for none), or NaN if any is NaN.
func rowMax(xs []float64) float64 {
	m := math.Inf(-1)
	for _, v := range xs {
		if v > m || math.IsNaN(v) {
			m = v
		}
	}
	return m
}
