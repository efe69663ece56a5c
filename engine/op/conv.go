package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

// conv2d is PyTorch's Conv2d (cross-correlation, zero padding, no dilation,
// one group) computed directly, without an unfolded copy of the input, so it
// needs no scratch memory. Every sum runs in a fixed loop order.
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
// terms in the order bias, then channel, kernel row, kernel column.
func convInto(y, x, w, b *tensor.Tensor, a Attrs, accumulate bool) {
	g := geometry(x, w, a)
	k := 0
	for n := 0; n < g.n; n++ {
		img := x.Data[n*g.xStride : (n+1)*g.xStride]
		for o := 0; o < g.o; o++ {
			filt := w.Data[o*g.wSize : (o+1)*g.wSize]
			for i := 0; i < g.oh; i++ {
				for j := 0; j < g.ow; j++ {
					s := 0.0
					switch {
					case accumulate && b != nil:
						s = y.Data[k] + b.Data[o]
					case accumulate:
						s = y.Data[k]
					case b != nil:
						s = b.Data[o]
					}
					p0, p1 := span(i, g.stride, g.pad, g.kh, g.h)
					q0, q1 := span(j, g.stride, g.pad, g.kw, g.w)
					for c := 0; c < g.c; c++ {
						for p := p0; p < p1; p++ {
							// X[n, c, i·s+p−pad, j·s+q−pad] is img[xr+q]; W[o, c, p, q] is filt[wr+q].
							xr := (c*g.h+i*g.stride+p-g.pad)*g.w + j*g.stride - g.pad
							wr := (c*g.kh + p) * g.kw
							for q := q0; q < q1; q++ {
								s += img[xr+q] * filt[wr+q]
							}
						}
					}
					y.Data[k] = s
					k++
				}
			}
		}
	}
}

// convBack writes dX and dW (each when wanted) for cotangent dy. Both are
// scattered from dy in its row-major order, so every sum has a fixed order.
func convBack(dx, dw, dy, x, w *tensor.Tensor, a Attrs) {
	if dx == nil && dw == nil {
		return
	}
	if dx != nil {
		dx.Fill(0)
	}
	if dw != nil {
		dw.Fill(0)
	}
	g := geometry(x, w, a)
	k := 0
	for n := 0; n < g.n; n++ {
		off := n * g.xStride
		for o := 0; o < g.o; o++ {
			for i := 0; i < g.oh; i++ {
				for j := 0; j < g.ow; j++ {
					gv := dy.Data[k]
					k++
					p0, p1 := span(i, g.stride, g.pad, g.kh, g.h)
					q0, q1 := span(j, g.stride, g.pad, g.kw, g.w)
					for c := 0; c < g.c; c++ {
						for p := p0; p < p1; p++ {
							// X[n, c, i·s+p−pad, j·s+q−pad] is xr+q; W[o, c, p, q] is wr+q.
							xr := off + (c*g.h+i*g.stride+p-g.pad)*g.w + j*g.stride - g.pad
							wr := o*g.wSize + (c*g.kh+p)*g.kw
							if dx != nil {
								for q := q0; q < q1; q++ {
									dx.Data[xr+q] += gv * w.Data[wr+q]
								}
							}
							if dw != nil {
								for q := q0; q < q1; q++ {
									dw.Data[wr+q] += gv * x.Data[xr+q]
								}
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
