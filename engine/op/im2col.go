package op

import (
	"math"
	"sync"

	"tapelab/engine/tensor"
)

// conv2d's forward and weight gradient as one product each of the tested
// GEMM (tensor.Gemm, assembly on amd64 and in wasm) over the unfolded
// input (im2col): the GEMM sums each element from +0 in the order of its
// shared dimension, which the unfolding lays out in the order convInto
// and convBack promise. The forward puts the bias first in that dimension
// (times a row of ones), so its sums start b + … as convInto's do.
//
// The unfolded input holds +0 where a window lies on the padding, where
// the direct kernels add no term. Such a term changes nothing when the
// product is a zero, since a sum that starts at +0 or at a number other
// than −0 never becomes −0 (x + y is −0 only for −0 + −0): so the GEMM
// paths are taken only when their products with padding are zeros (no
// padding, or W, for the forward, and dY, for dW, finite) and no bias is
// −0 (+0 + −0 is +0); otherwise the direct kernels run. Either way the
// bits are the same (TestConvRowKernelsKeepTheOrder).

// gemmScratch holds one call's unfolded input and products; calls reuse
// them through gemmScratchPool, so a steady training loop allocates
// nothing.
type gemmScratch struct {
	cols, w, c tensor.Tensor
	// Views of the caller's tensors as matrices, for the call only.
	dw, dy, dx tensor.Tensor
}

var gemmScratchPool = sync.Pool{New: func() any { return new(gemmScratch) }}

// convGemmForward reports whether convInto may compute y = conv(x, w) + b
// by convIntoGemm.
func convGemmForward(w, b *tensor.Tensor, g conv) bool {
	for _, v := range b.Data {
		if v == 0 && math.Signbit(v) {
			return false
		}
	}
	return g.pad == 0 || w.Finite()
}

// convGemmWeights reports whether convBack may compute dW by
// convBackWGemm.
func convGemmWeights(dy *tensor.Tensor, g conv) bool {
	return g.pad == 0 || dy.Finite()
}

// convIntoGemm writes y = conv(x, w) + b as [b W]·[1; im2col(x)], a
// product [O × 1+C·kH·kW]·[1+C·kH·kW × N·oH·oW], whose columns are then
// copied to y's [N O oH oW] layout. When the product is much wider than
// tall (the first layer of a CNN) it is computed transposed instead,
// [1; im2col(x)]ᵀ·[b W]ᵀ, which the GEMM's kernels, tiling rows, take
// faster (natively and in wasm): the same sums either way.
func convIntoGemm(y, x, w, b *tensor.Tensor, g conv) {
	s := gemmScratchPool.Get().(*gemmScratch)
	defer gemmScratchPool.Put(s)
	plane := g.oh * g.ow
	np, k := g.n*plane, 1+g.wSize
	s.cols.Reshape(tensor.Shape{k, np})
	ones := s.cols.Data[:np]
	for i := range ones {
		ones[i] = 1
	}
	im2col(s.cols.Data[np:], x, g)
	if np <= tallRatio*g.o {
		s.w.Reshape(tensor.Shape{g.o, k})
		for o := 0; o < g.o; o++ {
			row := s.w.Data[o*k:][:k]
			row[0] = b.Data[o]
			copy(row[1:], w.Data[o*g.wSize:][:g.wSize])
		}
		s.c.Reshape(tensor.Shape{g.o, np})
		tensor.Gemm(false, false, 1, &s.w, &s.cols, 0, &s.c)
		for n := 0; n < g.n; n++ {
			for o := 0; o < g.o; o++ {
				copy(y.Data[(n*g.o+o)*plane:][:plane], s.c.Data[o*np+n*plane:][:plane])
			}
		}
		return
	}
	s.w.Reshape(tensor.Shape{k, g.o}) // [b W]ᵀ
	copy(s.w.Data[:g.o], b.Data)
	for o := 0; o < g.o; o++ {
		for r, v := range w.Data[o*g.wSize:][:g.wSize] {
			s.w.Data[(1+r)*g.o+o] = v
		}
	}
	s.c.Reshape(tensor.Shape{np, g.o})
	tensor.Gemm(true, false, 1, &s.cols, &s.w, 0, &s.c)
	for n := 0; n < g.n; n++ {
		for o := 0; o < g.o; o++ {
			out := y.Data[(n*g.o+o)*plane:][:plane]
			src := s.c.Data[n*plane*g.o+o:]
			for k := range out {
				out[k] = src[k*g.o]
			}
		}
	}
}

// tallRatio is how much wider than tall the forward's product may be
// before convIntoGemm computes it transposed (2048 columns against 8 rows
// takes about twice as long as its transpose; 128 against 16, a little
// less: BenchmarkConv2DCNN1, BenchmarkConv2DCNN2).
const tallRatio = 64

// convBackWGemm writes dW = dY'·im2col(x)ᵀ, dY' being dy as
// [O × N·oH·oW]: each element summed from +0 in (n, i, j) order.
func convBackWGemm(dw, dy, x *tensor.Tensor, g conv) {
	s := gemmScratchPool.Get().(*gemmScratch)
	defer gemmScratchPool.Put(s)
	plane := g.oh * g.ow
	np := g.n * plane
	s.cols.Reshape(tensor.Shape{g.wSize, np})
	im2col(s.cols.Data, x, g)
	s.c.Reshape(tensor.Shape{g.o, np})
	for n := 0; n < g.n; n++ {
		for o := 0; o < g.o; o++ {
			copy(s.c.Data[o*np+n*plane:][:plane], dy.Data[(n*g.o+o)*plane:][:plane])
		}
	}
	s.dw.Shape, s.dw.Data = append(s.dw.Shape[:0], g.o, g.wSize), dw.Data
	tensor.Gemm(false, true, 1, &s.c, &s.cols, 0, &s.dw)
	s.dw.Data = nil
}

// convGemmInputs reports whether convBack may compute dX by
// convBackXGemm: dY finite, and images small against the kernel, so that
// the product's zeros (every pixel a window does not reach) at most
// double its work.
func convGemmInputs(dy *tensor.Tensor, g conv) bool {
	return g.h*g.w <= 2*g.kh*g.kw && dy.Finite()
}

// convBackXGemm writes dX, image by image, as dY·M: dY as [N × O·oH·oW]
// and M [O·oH·oW × C·H·W] the matrix of the convolution, M[(o,i,j),
// (c,r,col)] = W[o, c, r+pad−i·s, col+pad−j·s] where that lies in the
// kernel and 0 elsewhere. Each element of dX is then summed from +0 in
// (o, i, j) order, as convBack promises; the zeros of M add zeros.
func convBackXGemm(dx, dy, w *tensor.Tensor, g conv) {
	s := gemmScratchPool.Get().(*gemmScratch)
	defer gemmScratchPool.Put(s)
	k, img := g.o*g.oh*g.ow, g.c*g.h*g.w
	s.w.Reshape(tensor.Shape{k, img})
	clear(s.w.Data)
	for o := 0; o < g.o; o++ {
		for i := 0; i < g.oh; i++ {
			p0, p1 := span(i, g.stride, g.pad, g.kh, g.h)
			for j := 0; j < g.ow; j++ {
				q0, q1 := span(j, g.stride, g.pad, g.kw, g.w)
				if q1 <= q0 {
					continue // the window lies on the padding
				}
				row := s.w.Data[((o*g.oh+i)*g.ow+j)*img:][:img]
				for c := 0; c < g.c; c++ {
					for p := p0; p < p1; p++ {
						at := (c*g.h+i*g.stride+p-g.pad)*g.w + j*g.stride - g.pad
						copy(row[at+q0:at+q1], w.Data[((o*g.c+c)*g.kh+p)*g.kw+q0:][:q1-q0])
					}
				}
			}
		}
	}
	s.dy.Shape, s.dy.Data = append(s.dy.Shape[:0], g.n, k), dy.Data
	s.dx.Shape, s.dx.Data = append(s.dx.Shape[:0], g.n, img), dx.Data
	tensor.Gemm(false, false, 1, &s.dy, &s.w, 0, &s.dx)
	s.dy.Data, s.dx.Data = nil, nil
}

// im2col writes x unfolded into dst, [C·kH·kW × N·oH·oW]: row (c, p, q),
// column (n, i, j) holds X[n, c, i·s+p−pad, j·s+q−pad], or +0 on the
// padding. Its rows are short (oW), so it copies element by element.
func im2col(dst []float64, x *tensor.Tensor, g conv) {
	plane := g.oh * g.ow
	np := g.n * plane
	r := 0
	for c := 0; c < g.c; c++ {
		for p := 0; p < g.kh; p++ {
			i0, i1 := reach(p, g.stride, g.pad, g.h, g.oh)
			for q := 0; q < g.kw; q++ {
				j0, j1 := g.cols(q)
				row := dst[r*np:][:np]
				r++
				for n := 0; n < g.n; n++ {
					img := x.Data[n*g.xStride+c*g.h*g.w:][:g.h*g.w]
					out := row[n*plane:][:plane]
					for k := range out[:i0*g.ow] {
						out[k] = 0
					}
					for k := range out[i1*g.ow:] {
						out[i1*g.ow+k] = 0
					}
					for i := i0; i < i1; i++ {
						o := out[i*g.ow:][:g.ow]
						at := (i*g.stride+p-g.pad)*g.w + q - g.pad
						for j := range o {
							if j < j0 || j >= j1 {
								o[j] = 0
							} else {
								o[j] = img[at+j*g.stride]
							}
						}
					}
				}
			}
		}
	}
}
