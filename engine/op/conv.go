package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

// conv2d is PyTorch's Conv2d (cross-correlation, zero padding, no dilation,
// one group). Every sum runs in one fixed order (convInto, convBack),
// whichever kernel computes it: a GEMM over the unfolded input where that
// gives the same bits (im2col.go, with scratch memory reused across
// calls), direct loops along output rows or over four channels at once
// (conv_narrow.go) otherwise.
var conv2dOp = &Op{
	Name:     "conv2d",
	Operands: []Operand{{Name: "X"}, {Name: "W"}, {Name: "b"}},
	Formula:  "Y[n,o,i,j] = b[o] + Σ_c,p,q X[n,c,i·s+p−pad,j·s+q−pad]·W[o,c,p,q]",
	Rule:     "dX[n,c,h,w] = Σ dY[n,o,i,j]·W[o,c,p,q] over the windows that read X[n,c,h,w], dW[o,c,p,q] = Σ_n,i,j dY[n,o,i,j]·X[n,c,i·s+p−pad,j·s+q−pad], db[o] = Σ_n,i,j dY[n,o,i,j]",
	Window:   "Y at one position = b + Σ W·X over the patch of X under the kernel; backward, each X of the patch receives dY·W and each W receives dY·X",
	// Each output element sums C·kH·kW products.
	Work: func(y tensor.Shape, in []tensor.Shape, _ Attrs) float64 {
		return float64(y.Size()) * float64(in[1][1:].Size())
	},
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		x, w, b := in[0], in[1], in[2]
		if len(x) != 4 {
			return dst, fmt.Errorf("X must be [B C H W], has shape %v", x)
		}
		if len(w) != 4 {
			return dst, fmt.Errorf("W must be [O C kH kW], has shape %v", w)
		}
		if w[1] != x[1] {
			return dst, fmt.Errorf("W expects %d input channels, X has %d", w[1], x[1])
		}
		if len(b) != 1 || b[0] != w[0] {
			return dst, fmt.Errorf("b must have shape [%d], has %v", w[0], b)
		}
		h, wd, err := windows(x[2], x[3], w[2], w[3], a.Stride, a.Padding)
		if err != nil {
			return dst, err
		}
		return append(dst[:0], x[0], w[0], h, wd), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		convInto(y, x[0], x[1], x[2], a, false)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		convBack(dx[0], dx[1], dy, x[0], x[1], a)
		if db := dx[2]; db != nil {
			sumChannels(db, dy)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			convInto(dy, dx[0], x[1], dx[2], a, true)
		} else if dx[2] != nil {
			addChannels(dy, dx[2])
		}
		if dx[1] != nil {
			convInto(dy, x[0], dx[1], nil, a, true)
		}
	},
	// dX multiplies the cotangent by W and dW by X; db only sums it.
	ZeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) bool {
		return x[0].Finite() && x[1].Finite()
	},
}

// windows returns the output height and width of a k×l window sliding over
// an h×w image padded by pad on each side, with the given stride.
func windows(h, w, k, l, stride, pad int) (int, int, error) {
	if stride < 1 {
		return 0, 0, fmt.Errorf("stride %d must be at least 1", stride)
	}
	if pad < 0 {
		return 0, 0, fmt.Errorf("padding %d must not be negative", pad)
	}
	if h+2*pad < k || w+2*pad < l {
		return 0, 0, fmt.Errorf("the %d×%d window does not fit in the %d×%d image with padding %d", k, l, h, w, pad)
	}
	return (h+2*pad-k)/stride + 1, (w+2*pad-l)/stride + 1, nil
}

// conv is the geometry of one conv2d application.
type conv struct {
	n, c, h, w     int // X [n c h w]
	o, kh, kw      int // W [o c kh kw]
	oh, ow         int // Y [n o oh ow]
	stride, pad    int
	xStride, wSize int // elements per image of X, per filter of W
}

func geometry(x, w *tensor.Tensor, a Attrs) conv {
	g := conv{n: x.Shape[0], c: x.Shape[1], h: x.Shape[2], w: x.Shape[3],
		o: w.Shape[0], kh: w.Shape[2], kw: w.Shape[3], stride: a.Stride, pad: a.Padding}
	g.oh, g.ow, _ = windows(g.h, g.w, g.kh, g.kw, g.stride, g.pad)
	g.xStride, g.wSize = g.c*g.h*g.w, g.c*g.kh*g.kw
	return g
}

// convInto writes the convolution of x with w (plus b[o] when b is set)
// into y, or adds it to y when accumulate is set. Each output sums its
// terms in the order bias, then channel, kernel row, kernel column,
// skipping the padding. The loops run along output rows: for each term
// (c, p, q) one product is added to every output of the row whose window
// reaches an image column, so each output still receives its terms in
// that order.
func convInto(y, x, w, b *tensor.Tensor, a Attrs, accumulate bool) {
	g := geometry(x, w, a)
	switch {
	case !accumulate && b != nil && convGemmForward(w, b, g):
		convIntoGemm(y, x, w, b, g)
		return
	case g.ow < minRow:
		convIntoNarrow(y, x, w, b, g, accumulate)
		return
	}
	plane := g.oh * g.ow
	for n := 0; n < g.n; n++ {
		img := x.Data[n*g.xStride : (n+1)*g.xStride]
		for o := 0; o < g.o; o++ {
			filt := w.Data[o*g.wSize : (o+1)*g.wSize]
			out := y.Data[(n*g.o+o)*plane : (n*g.o+o+1)*plane]
			startSums(out, b, o, accumulate)
			for i := 0; i < g.oh; i++ {
				row := out[i*g.ow : (i+1)*g.ow]
				p0, p1 := span(i, g.stride, g.pad, g.kh, g.h)
				for c := 0; c < g.c; c++ {
					for p := p0; p < p1; p++ {
						// X[n, c, i·s+p−pad, ·] and W[o, c, p, ·].
						xrow := img[(c*g.h+i*g.stride+p-g.pad)*g.w:][:g.w]
						wrow := filt[(c*g.kh+p)*g.kw:][:g.kw]
						for q, wv := range wrow {
							j0, j1 := g.cols(q)
							if g.stride == 1 {
								ys := row[j0:j1]
								xs := xrow[j0+q-g.pad:][:len(ys)]
								for j := range ys {
									ys[j] += float64(xs[j] * wv)
								}
								continue
							}
							for j := j0; j < j1; j++ {
								row[j] += float64(xrow[j*g.stride+q-g.pad] * wv)
							}
						}
					}
				}
			}
		}
	}
}

// minRow is the narrowest output for which the row kernels beat the
// one-at-a-time ones (BenchmarkConvKernels): along shorter rows their loop
// overhead outweighs what they save.
const minRow = 4

// startSums sets each output of channel o's plane out to its sum's first
// term: y + b[o], y, b[o] or +0, as accumulate and b say.
func startSums(out []float64, b *tensor.Tensor, o int, accumulate bool) {
	switch {
	case accumulate && b != nil:
		bv := b.Data[o]
		for k := range out {
			out[k] += bv
		}
	case accumulate:
	case b != nil:
		bv := b.Data[o]
		for k := range out {
			out[k] = bv
		}
	default:
		clear(out)
	}
}

// cols returns the output columns [j0, j1) whose window's column q falls
// on the image rather than on the padding.
func (g *conv) cols(q int) (j0, j1 int) {
	return reach(q, g.stride, g.pad, g.w, g.ow)
}

// reach returns the output positions [lo, hi), of n in all, whose window
// offset k lands inside an input of size size: 0 ≤ i·stride + k − pad < size.
func reach(k, stride, pad, size, n int) (lo, hi int) {
	if d := pad - k; d > 0 {
		lo = (d + stride - 1) / stride
	}
	e := size - 1 + pad - k
	if e < 0 {
		return 0, 0
	}
	hi = min(n, e/stride+1)
	return lo, max(lo, hi)
}

// convBack writes dX and dW (each when wanted) for cotangent dy. Each sum
// runs in the order of a scatter from dy in its row-major order: dW[o,c,p,q]
// adds its terms in (n, i, j) order and dX[n,c,h,w] in (o, i, j) order.
func convBack(dx, dw, dy, x, w *tensor.Tensor, a Attrs) {
	g := geometry(x, w, a)
	narrow := g.ow < minRow
	switch {
	case dw == nil:
	case convGemmWeights(dy, g):
		convBackWGemm(dw, dy, x, g)
	case narrow:
		convBackWNarrow(dw, dy, x, g)
	default:
		convBackW(dw, dy, x, g)
	}
	switch {
	case dx == nil:
	case convGemmInputs(dy, g):
		convBackXGemm(dx, dy, w, g)
	case narrow:
		convBackXNarrow(dx, dy, w, g)
	default:
		convBackX(dx, dy, w, g)
	}
}

// convBackW writes dW[o,c,p,q] = Σ_n,i,j dY[n,o,i,j]·X[n,c,i·s+p−pad,j·s+q−pad],
// one sum at a time from +0, in (n, i, j) order.
func convBackW(dw, dy, x *tensor.Tensor, g conv) {
	plane := g.oh * g.ow
	for o := 0; o < g.o; o++ {
		for c := 0; c < g.c; c++ {
			for p := 0; p < g.kh; p++ {
				i0, i1 := reach(p, g.stride, g.pad, g.h, g.oh)
				for q := 0; q < g.kw; q++ {
					j0, j1 := g.cols(q)
					s := 0.0
					for n := 0; n < g.n; n++ {
						gy := dy.Data[(n*g.o+o)*plane:][:plane]
						img := x.Data[n*g.xStride+c*g.h*g.w:][:g.h*g.w]
						for i := i0; i < i1; i++ {
							dyrow := gy[i*g.ow:][:g.ow]
							xrow := img[(i*g.stride+p-g.pad)*g.w:][:g.w]
							if g.stride == 1 {
								ds := dyrow[j0:j1]
								xs := xrow[j0+q-g.pad:][:len(ds)]
								for j := range ds {
									s += float64(ds[j] * xs[j])
								}
								continue
							}
							for j := j0; j < j1; j++ {
								s += float64(dyrow[j] * xrow[j*g.stride+q-g.pad])
							}
						}
					}
					dw.Data[((o*g.c+c)*g.kh+p)*g.kw+q] = s
				}
			}
		}
	}
}

// convBackX writes dX by scattering dY[n,o,i,j]·W[o,c,p,q] into
// X[n,c,i·s+p−pad,j·s+q−pad] along rows of dY, the kernel columns q taken
// from the last: for one element of dX, a smaller q is a larger j, so its
// terms still arrive in (o, i, j) order.
func convBackX(dx, dy, w *tensor.Tensor, g conv) {
	dx.Fill(0)
	plane := g.oh * g.ow
	for n := 0; n < g.n; n++ {
		img := dx.Data[n*g.xStride : (n+1)*g.xStride]
		for o := 0; o < g.o; o++ {
			filt := w.Data[o*g.wSize : (o+1)*g.wSize]
			gy := dy.Data[(n*g.o+o)*plane:][:plane]
			for i := 0; i < g.oh; i++ {
				dyrow := gy[i*g.ow:][:g.ow]
				p0, p1 := span(i, g.stride, g.pad, g.kh, g.h)
				for c := 0; c < g.c; c++ {
					for p := p0; p < p1; p++ {
						xrow := img[(c*g.h+i*g.stride+p-g.pad)*g.w:][:g.w]
						wrow := filt[(c*g.kh+p)*g.kw:][:g.kw]
						for q := g.kw - 1; q >= 0; q-- {
							wv := wrow[q]
							j0, j1 := g.cols(q)
							if g.stride == 1 {
								ds := dyrow[j0:j1]
								xs := xrow[j0+q-g.pad:][:len(ds)]
								for j := range ds {
									xs[j] += float64(ds[j] * wv)
								}
								continue
							}
							for j := j0; j < j1; j++ {
								xrow[j*g.stride+q-g.pad] += float64(dyrow[j] * wv)
							}
						}
					}
				}
			}
		}
	}
}

// span returns the kernel offsets [lo, hi) of output position i whose input
// position i·stride + offset − pad lies inside [0, n): the window's part

// span returns the kernel offsets [lo, hi) of output position i whose input
// position i·stride + offset − pad lies inside [0, n): the window's part
// that does not fall on padding.
func span(i, stride, pad, k, n int) (lo, hi int) {
	start := i*stride - pad
	lo, hi = max(0, -start), min(k, n-start)
	return lo, hi
}

// sumChannels writes db[o] = Σ_n,i,j dy[n,o,i,j], summing in row-major order.
func sumChannels(db, dy *tensor.Tensor) {
	n, o, plane := dy.Shape[0], dy.Shape[1], dy.Shape[2]*dy.Shape[3]
	db.Fill(0)
	for b := 0; b < n; b++ {
		for c := 0; c < o; c++ {
			s := db.Data[c]
			for _, v := range dy.Data[(b*o+c)*plane : (b*o+c+1)*plane] {
				s += v
			}
			db.Data[c] = s
		}
	}
}

// addChannels adds b[o] to every entry of channel o of y [n o h w].
func addChannels(y, b *tensor.Tensor) {
	n, o, plane := y.Shape[0], y.Shape[1], y.Shape[2]*y.Shape[3]
	for k := 0; k < n; k++ {
		for c := 0; c < o; c++ {
			seg := y.Data[(k*o+c)*plane : (k*o+c+1)*plane]
			for i := range seg {
				seg[i] += b.Data[c]
			}
		}
	}
}
