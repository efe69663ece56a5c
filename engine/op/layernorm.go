package op

import (
	"errors"
	"fmt"
	"math"

	"tapelab/engine/tensor"
)

// Layer normalisation over the last axis of X [… F] (PyTorch's LayerNorm
// with normalized_shape = F): every row of F values is normalised with its
// own mean and biased variance, then scaled by γ [F] and shifted by β [F].
// Every kernel recomputes a row's statistics when it reaches the row, so
// none needs scratch memory.

var layerNormOp = &Op{
	Name:     "layer_norm",
	Operands: []Operand{{Name: "X"}, {Name: "γ"}, {Name: "β"}},
	Formula:  "Y = γ ⊙ X̂ + β, X̂ = (X − mean_F X) / √(var_F X + ε) over the last axis, var_F biased",
	Rule:     "dX = (1 / (F·√(var + ε))) ⊙ (F·dX̂ − Σ_F dX̂ − X̂ ⊙ Σ_F(dX̂ ⊙ X̂)) with dX̂ = dY ⊙ γ, dγ = Σ_rows dY ⊙ X̂, dβ = Σ_rows dY",
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if len(in[0]) == 0 {
			return dst, errors.New("X must have at least one dimension")
		}
		if !(a.Eps >= 0) || math.IsInf(a.Eps, 1) {
			return dst, fmt.Errorf("eps = %v must be finite and not negative", a.Eps)
		}
		f := in[0][len(in[0])-1]
		for i, name := range [...]string{"γ", "β"} {
			if s := in[i+1]; len(s) != 1 || s[0] != f {
				return dst, fmt.Errorf("%s must have shape [%d] (one per entry of X's last axis), has %v", name, f, s)
			}
		}
		return append(dst[:0], in[0]...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nf := len(x[1].Data)
		for r := 0; r < len(y.Data); r += nf {
			row := x[0].Data[r : r+nf]
			mean, inv := rowStats(row, a.Eps)
			for f, v := range row {
				y.Data[r+f] = x[1].Data[f]*((v-mean)*inv) + x[2].Data[f]
			}
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nf := len(x[1].Data)
		for _, d := range dx[1:] {
			if d != nil {
				d.Fill(0)
			}
		}
		for r := 0; r < len(dy.Data); r += nf {
			row, g := x[0].Data[r:r+nf], dy.Data[r:r+nf]
			mean, inv := rowStats(row, a.Eps)
			sg, sgx := 0.0, 0.0 // Σ dX̂ and Σ dX̂ ⊙ X̂
			for f, v := range row {
				xh := (v - mean) * inv
				gh := g[f] * x[1].Data[f]
				sg += gh
				sgx += gh * xh
				if dx[1] != nil {
					dx[1].Data[f] += g[f] * xh
				}
				if dx[2] != nil {
					dx[2].Data[f] += g[f]
				}
			}
			if dx[0] == nil {
				continue
			}
			c := inv / float64(nf)
			for f, v := range row {
				xh := (v - mean) * inv
				dx[0].Data[r+f] = c * (float64(nf)*(g[f]*x[1].Data[f]) - sg - xh*sgx)
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nf := len(x[1].Data)
		for r := 0; r < len(dy.Data); r += nf {
			row := x[0].Data[r : r+nf]
			mean, inv := rowStats(row, a.Eps)
			st, sxt := 0.0, 0.0 // mean of tX and of X̂ ⊙ tX
			if dx[0] != nil {
				for f, v := range row {
					t := dx[0].Data[r+f]
					st += t
					sxt += (v - mean) * inv * t
				}
			}
			st, sxt = st/float64(nf), sxt/float64(nf)
			for f, v := range row {
				xh := (v - mean) * inv
				t := 0.0
				if dx[0] != nil {
					t = x[1].Data[f] * inv * (dx[0].Data[r+f] - st - xh*sxt)
				}
				dy.Data[r+f] = t + tangentAt(dx[1], f)*xh + tangentAt(dx[2], f)
			}
		}
	},
	// A zero cotangent is multiplied by γ, by X̂ and by 1/(F·√(var + ε)).
	ZeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, a Attrs) bool {
		if !x[1].Finite() {
			return false
		}
		nf := len(x[1].Data)
		for r := 0; r < len(x[0].Data); r += nf {
			row := x[0].Data[r : r+nf]
			mean, inv := rowStats(row, a.Eps)
			if !finite(inv) {
				return false
			}
			for _, v := range row {
				if !finite((v - mean) * inv) {
					return false
				}
			}
		}
		return true
	},
}

// rowStats returns the mean of row and 1/√(var + eps) with the biased
// variance, summing in order.
func rowStats(row []float64, eps float64) (mean, inv float64) {
	for _, v := range row {
		mean += v
	}
	mean /= float64(len(row))
	s := 0.0
	for _, v := range row {
		d := v - mean
		s += d * d
	}
	return mean, 1 / math.Sqrt(s/float64(len(row))+eps)
}
