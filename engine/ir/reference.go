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
// op's stated meaning (its Formula and the numerical conventions the
// catalogue documents: sums run in index order from +0, products are rounded
// before they are added, softmax subtracts the row maximum) with plain loops
// of its own. It is never modified. Kinds missing here (dropout, whose mask
// is defined by the catalogue's generator) fall back to the op's Forward.
var reference = map[string]refKernel{
	"add":  zip(func(a, b float64) float64 { return a + b }),
	"sub":  zip(func(a, b float64) float64 { return a - b }),
	"mul":  zip(func(a, b float64) float64 { return a * b }),
	"div":  zip(func(a, b float64) float64 { return a / b }),
	"max":  zip(math.Max),
	"min":  zip(math.Min),
	"neg":  each(func(v float64) float64 { return -v }),
	"abs":  each(math.Abs),
	"exp":  each(math.Exp),
	"log":  each(math.Log),
	"sqrt": each(math.Sqrt),
	"square": each(func(v float64) float64 {
		return v * v
	}),
	"tanh":        each(math.Tanh),
	"relu":        each(relu),
	"sigmoid":     each(sigmoid),
	"gelu":        each(gelu),
	"detach":      each(func(v float64) float64 { return v }),
	"reshape":     each(func(v float64) float64 { return v }),
	"flatten":     each(func(v float64) float64 { return v }),
	"scale":       refScale,
	"leaky_relu":  refLeakyReLU,
	"add_bias":    refAddBias,
	"sum":         refSum,
	"mean":        refMean,
	"reduce_sum":  refReduce(false),
	"reduce_mean": refReduce(true),
	"softmax":     refSoftmax,
	"log_softmax": refLogSoftmax,
	"transpose":   refTranspose,
	"concat":      refConcat,
	"matmul":      refMatMul,
	"linear":      refLinear,
	"conv2d":      refConv2D,
	"max_pool2d":  refMaxPool2D,
	"batch_norm":  refBatchNorm,
	"batch_norm_eval": func(y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
		normalize(y, x[0], x[1], x[2], x[3].Data, x[4].Data, a.Eps)
	},
	"mse_loss":        refMSELoss,
	"cross_entropy":   refCrossEntropy,
	"bce_with_logits": refBCEWithLogits,
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

// relu is max(v, 0): v where v > 0, else +0.
func relu(v float64) float64 {
	if v > 0 {
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
			s += math.NaN()
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
