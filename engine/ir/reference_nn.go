package ir

// The reference kernels of the network ops: products, convolution,
// pooling, batch normalisation and losses.

import (
	"math"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// dot is Σ_p a[p·as]·b[p·bs] over k terms, in order from +0, each product
// rounded before it is added.
func dot(a []float64, as int, b []float64, bs, k int) float64 {
	s := 0.0
	for p := 0; p < k; p++ {
		s += float64(a[p*as] * b[p*bs])
	}
	return s
}

// refMatMul is Y[i,j] = Σ_p A[i,p]·B[p,j].
func refMatMul(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	m, k, n := x[0].Shape[0], x[0].Shape[1], x[1].Shape[1]
	for i := 0; i < m; i++ {
		for j := 0; j < n; j++ {
			y.Data[i*n+j] = dot(x[0].Data[i*k:], 1, x[1].Data[j:], n, k)
		}
	}
}

// refLinear is Y[i,o] = Σ_p X[i,p]·W[o,p] + b[o] (W in PyTorch's [out in] layout).
func refLinear(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	m, k, n := x[0].Shape[0], x[0].Shape[1], x[1].Shape[0]
	for i := 0; i < m; i++ {
		for o := 0; o < n; o++ {
			y.Data[i*n+o] = dot(x[0].Data[i*k:], 1, x[1].Data[o*k:], 1, k) + x[2].Data[o]
		}
	}
}

// refConv2D is Y[n,o,i,j] = b[o] + Σ_c,p,q X[n,c,i·s+p−pad,j·s+q−pad]·W[o,c,p,q],
// the terms added in (c, p, q) order; positions in the zero padding
// contribute no term.
func refConv2D(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	X, W, b := x[0], x[1], x[2].Data
	C, H, Wd := X.Shape[1], X.Shape[2], X.Shape[3]
	O, kh, kw := W.Shape[0], W.Shape[2], W.Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	at := func(t *tensor.Tensor, i, j, k, l int) float64 {
		s := t.Shape
		return t.Data[((i*s[1]+j)*s[2]+k)*s[3]+l]
	}
	for n := 0; n < X.Shape[0]; n++ {
		for o := 0; o < O; o++ {
			for i := 0; i < oh; i++ {
				for j := 0; j < ow; j++ {
					s := b[o]
					for c := 0; c < C; c++ {
						for p := 0; p < kh; p++ {
							for q := 0; q < kw; q++ {
								r, col := i*a.Stride+p-a.Padding, j*a.Stride+q-a.Padding
								if r >= 0 && r < H && col >= 0 && col < Wd {
									s += float64(at(X, n, c, r, col) * at(W, o, c, p, q))
								}
							}
						}
					}
					y.Data[((n*O+o)*oh+i)*ow+j] = s
				}
			}
		}
	}
}

// refMaxPool2D is the maximum over each k×k window at (i·s, j·s), NaN
// propagating; among equal values the first in row-major order is kept.
func refMaxPool2D(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	H, W := x[0].Shape[2], x[0].Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	for plane := 0; plane < x[0].Shape[0]*x[0].Shape[1]; plane++ {
		img := x[0].Data[plane*H*W : (plane+1)*H*W]
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				m := math.Inf(-1)
				for p := 0; p < a.Kernel; p++ {
					for q := 0; q < a.Kernel; q++ {
						v := img[(i*a.Stride+p)*W+j*a.Stride+q]
						if m == m && (v > m || v != v) {
							m = v
						}
					}
				}
				y.Data[(plane*oh+i)*ow+j] = m
			}
		}
	}
}

// refAvgPool2D is the sum over each k×k window at (i·s, j·s), in row-major
// order from +0, divided by k².
func refAvgPool2D(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	H, W := x[0].Shape[2], x[0].Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	for plane := 0; plane < x[0].Shape[0]*x[0].Shape[1]; plane++ {
		img := x[0].Data[plane*H*W : (plane+1)*H*W]
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				s := 0.0
				for p := 0; p < a.Kernel; p++ {
					for q := 0; q < a.Kernel; q++ {
						s += img[(i*a.Stride+p)*W+j*a.Stride+q]
					}
				}
				y.Data[(plane*oh+i)*ow+j] = s / float64(a.Kernel*a.Kernel)
			}
		}
	}
}

// refBatchNorm normalises each feature (column) of X [B F] with the batch's
// mean and biased variance: Y = γ·((X − mean)·(1/√(var + ε))) + β.
func refBatchNorm(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	B, F := x[0].Shape[0], x[0].Shape[1]
	mean, variance := make([]float64, F), make([]float64, F)
	for f := 0; f < F; f++ {
		s := 0.0
		for b := 0; b < B; b++ {
			s += x[0].Data[b*F+f]
		}
		mean[f] = s / float64(B)
		v := 0.0
		for b := 0; b < B; b++ {
			d := x[0].Data[b*F+f] - mean[f]
			v += float64(d * d)
		}
		variance[f] = v / float64(B)
	}
	normalize(y, x[0], x[1], x[2], mean, variance, a.Eps)
}

// normalize writes Y = γ·((X − mean)·(1/√(var + ε))) + β, per feature.
func normalize(y, X, gamma, beta *tensor.Tensor, mean, variance []float64, eps float64) {
	F := X.Shape[1]
	for i, v := range X.Data {
		f := i % F
		inv := 1 / math.Sqrt(variance[f]+eps)
		y.Data[i] = float64(gamma.Data[f]*float64((v-mean[f])*inv)) + beta.Data[f]
	}
}

// refMSELoss is mean((p − t)²), torch.nn.MSELoss with reduction "mean".
func refMSELoss(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	s := 0.0
	for i, p := range x[0].Data {
		d := p - x[1].Data[i]
		s += float64(d * d)
	}
	y.Data[0] = s / float64(len(x[0].Data))
}

// refCrossEntropy is the mean over rows of logsumexp(z) − z[c], with
// logsumexp(z) = m + log Σ e^(z−m); a class index that is not an integer
// in range gives NaN (Denote's domain check reports it first).
func refCrossEntropy(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	C := x[0].Shape[1]
	s := 0.0
	for b, c := range x[1].Data {
		row := x[0].Data[b*C : (b+1)*C]
		m := rowMax(row)
		lse := m + math.Log(expSum(row, m))
		if c >= 0 && c < float64(C) && c == math.Floor(c) {
			s += lse - row[int(c)]
		} else {
			s = math.NaN() // and it stays NaN
		}
	}
	y.Data[0] = s / float64(len(x[1].Data))
}

// refBCEWithLogits is the mean of max(z, 0) − z·t + log(1 + e^−|z|), the
// stable form of −[t·log σ(z) + (1 − t)·log(1 − σ(z))], with the first two
// terms taken per sign of z as z·(1 − t) or (−z)·t, a zero factor giving 0
// even against an infinite logit.
func refBCEWithLogits(y *tensor.Tensor, x []*tensor.Tensor, _ op.Attrs) {
	times := func(a, c float64) float64 {
		if c == 0 {
			return 0
		}
		return a * c
	}
	s := 0.0
	for i, z := range x[0].Data {
		t := x[1].Data[i]
		if z > 0 {
			s += times(z, 1-t) + math.Log1p(math.Exp(-z))
		} else {
			s += times(-z, t) + math.Log1p(math.Exp(z))
		}
	}
	y.Data[0] = s / float64(len(x[0].Data))
}

// refLayerNorm is torch.nn.LayerNorm over the last dimension: each row
// normalised by its own mean and biased variance, then γ·X̂ + β per feature.
func refLayerNorm(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
	F := len(x[1].Data)
	for r := 0; r < len(x[0].Data); r += F {
		row := x[0].Data[r : r+F]
		s := 0.0
		for _, v := range row {
			s += v
		}
		mean := s / float64(F)
		v := 0.0
		for _, e := range row {
			d := e - mean
			v += float64(d * d)
		}
		inv := 1 / math.Sqrt(v/float64(F)+a.Eps)
		for f, e := range row {
			y.Data[r+f] = float64(x[1].Data[f]*float64((e-mean)*inv)) + x[2].Data[f]
		}
	}
}
