package op

import (
	"fmt"
	"math"

	"tapelab/engine/tensor"
)

// Batch normalisation over the features of X [B F] (PyTorch's BatchNorm1d
// on 2-D input). Every kernel recomputes the per-feature statistics it
// needs, column by column, so none needs scratch memory.

var batchNormOp = &Op{
	Name:     "batch_norm",
	Operands: []Operand{{Name: "X"}, {Name: "γ"}, {Name: "β"}},
	Formula:  "Y = γ ⊙ X̂ + β, X̂ = (X − mean_B X) / √(var_B X + ε), var_B biased",
	Rule:     "dX = (γ / (B·√(var + ε))) ⊙ (B·dY − Σ_B dY − X̂ ⊙ Σ_B(dY ⊙ X̂)), dγ = Σ_B dY ⊙ X̂, dβ = Σ_B dY",
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if err := normShapes(in[:3], a); err != nil {
			return dst, err
		}
		if in[0][0] < 2 {
			return dst, fmt.Errorf("train mode needs more than one row per feature to estimate the variance, X has %d", in[0][0])
		}
		return append(dst[:0], in[0]...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nb, nf := x[0].Shape[0], x[0].Shape[1]
		for f := 0; f < nf; f++ {
			mean, inv := batchStats(x[0], f, a.Eps)
			gm, bt := x[1].Data[f], x[2].Data[f]
			for b := 0; b < nb; b++ {
				k := b*nf + f
				y.Data[k] = gm*((x[0].Data[k]-mean)*inv) + bt
			}
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nb, nf := x[0].Shape[0], x[0].Shape[1]
		for f := 0; f < nf; f++ {
			mean, inv := batchStats(x[0], f, a.Eps)
			sg, sgx := 0.0, 0.0
			for b := 0; b < nb; b++ {
				k := b*nf + f
				g := dy.Data[k]
				sg += g
				sgx += g * ((x[0].Data[k] - mean) * inv)
			}
			if dx[1] != nil {
				dx[1].Data[f] = sgx
			}
			if dx[2] != nil {
				dx[2].Data[f] = sg
			}
			if dx[0] == nil {
				continue
			}
			c := x[1].Data[f] * inv / float64(nb)
			for b := 0; b < nb; b++ {
				k := b*nf + f
				xh := (x[0].Data[k] - mean) * inv
				dx[0].Data[k] = c * (float64(nb)*dy.Data[k] - sg - xh*sgx)
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nb, nf := x[0].Shape[0], x[0].Shape[1]
		for f := 0; f < nf; f++ {
			mean, inv := batchStats(x[0], f, a.Eps)
			st, sxt := 0.0, 0.0 // Σ tX and Σ X̂·tX
			if dx[0] != nil {
				for b := 0; b < nb; b++ {
					k := b*nf + f
					t := dx[0].Data[k]
					st += t
					sxt += (x[0].Data[k] - mean) * inv * t
				}
			}
			st, sxt = st/float64(nb), sxt/float64(nb)
			for b := 0; b < nb; b++ {
				k := b*nf + f
				xh := (x[0].Data[k] - mean) * inv
				v := 0.0
				if dx[0] != nil {
					v = x[1].Data[f] * inv * (dx[0].Data[k] - st - xh*sxt)
				}
				dy.Data[k] = v + tangentAt(dx[1], f)*xh + tangentAt(dx[2], f)
			}
		}
	},
	// dX multiplies a zero cotangent by γ/(B·√(var+ε)) and by X̂, dγ by X̂.
	ZeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, a Attrs) bool {
		nb, nf := x[0].Shape[0], x[0].Shape[1]
		for f := 0; f < nf; f++ {
			mean, inv := batchStats(x[0], f, a.Eps)
			if !finite(x[1].Data[f] * inv / float64(nb)) {
				return false
			}
			for b := 0; b < nb; b++ {
				if !finite((x[0].Data[b*nf+f] - mean) * inv) {
					return false
				}
			}
		}
		return true
	},
}

var batchNormEvalOp = &Op{
	Name:     "batch_norm_eval",
	Operands: []Operand{{Name: "X"}, {Name: "γ"}, {Name: "β"}, {Name: "μ", NoGrad: true}, {Name: "σ²", NoGrad: true}},
	Formula:  "Y = γ ⊙ (X − μ) / √(σ² + ε) + β (running statistics μ, σ²)",
	Rule:     "dX = dY ⊙ γ / √(σ² + ε), dγ = Σ_B dY ⊙ (X − μ) / √(σ² + ε), dβ = Σ_B dY",
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if err := normShapes(in, a); err != nil {
			return dst, err
		}
		return append(dst[:0], in[0]...), nil
	},
	Domain: func(x []*tensor.Tensor, _ Attrs) error {
		for f, v := range x[4].Data {
			if v < 0 {
				return fmt.Errorf("running variance σ²[%d] = %v is negative", f, v)
			}
		}
		return nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nf := x[0].Shape[1]
		for k, v := range x[0].Data {
			f := k % nf
			inv := 1 / math.Sqrt(x[4].Data[f]+a.Eps)
			y.Data[k] = x[1].Data[f]*((v-x[3].Data[f])*inv) + x[2].Data[f]
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nf := x[0].Shape[1]
		for f := 0; f < nf; f++ {
			inv := 1 / math.Sqrt(x[4].Data[f]+a.Eps)
			sg, sgx := 0.0, 0.0
			for k := f; k < len(dy.Data); k += nf {
				g := dy.Data[k]
				sg += g
				sgx += g * ((x[0].Data[k] - x[3].Data[f]) * inv)
				if dx[0] != nil {
					dx[0].Data[k] = g * (x[1].Data[f] * inv)
				}
			}
			if dx[1] != nil {
				dx[1].Data[f] = sgx
			}
			if dx[2] != nil {
				dx[2].Data[f] = sg
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		nf := x[0].Shape[1]
		for k, v := range x[0].Data {
			f := k % nf
			inv := 1 / math.Sqrt(x[4].Data[f]+a.Eps)
			t := tangentAt(dx[1], f)*((v-x[3].Data[f])*inv) + tangentAt(dx[2], f)
			if dx[0] != nil {
				t += dx[0].Data[k] * (x[1].Data[f] * inv)
			}
			dy.Data[k] = t
		}
	},
	ZeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, a Attrs) bool {
		nf := x[0].Shape[1]
		for k, v := range x[0].Data {
			f := k % nf
			inv := 1 / math.Sqrt(x[4].Data[f]+a.Eps)
			if !finite(x[1].Data[f]*inv) || !finite((v-x[3].Data[f])*inv) {
				return false
			}
		}
		return true
	},
}

// normShapes checks X [B F] and that every other operand is [F], and ε.
func normShapes(in []tensor.Shape, a Attrs) error {
	if err := rank2("X [B F]", in[0]); err != nil {
		return err
	}
	if !(a.Eps >= 0) || math.IsInf(a.Eps, 1) {
		return fmt.Errorf("eps = %v must be finite and not negative", a.Eps)
	}
	names := [...]string{"X", "γ", "β", "μ", "σ²"}
	for i, s := range in[1:] {
		if len(s) != 1 || s[0] != in[0][1] {
			return fmt.Errorf("%s must have shape [%d] (one per feature of X), has %v", names[i+1], in[0][1], s)
		}
	}
	return nil
}

// batchStats returns the mean of column f of x [B F] and 1/√(var + eps)
// with the biased variance, summing rows in order.
func batchStats(x *tensor.Tensor, f int, eps float64) (mean, inv float64) {
	nb, nf := x.Shape[0], x.Shape[1]
	for b := 0; b < nb; b++ {
		mean += x.Data[b*nf+f]
	}
	mean /= float64(nb)
	v := 0.0
	for b := 0; b < nb; b++ {
		d := x.Data[b*nf+f] - mean
		v += d * d
	}
	return mean, 1 / math.Sqrt(v/float64(nb)+eps)
}

// tangentAt is t's element i, or 0 for a nil (zero) tangent.
func tangentAt(t *tensor.Tensor, i int) float64 {
	if t == nil {
		return 0
	}
	return t.Data[i]
}
