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
	dw         tensor.Tensor // dW seen as [O × C·kH·kW], for the call only
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

// convIntoGemm writes y = conv(x, w) + b as [b W]·[1; im2col(x)]: a
// product [O × 1+C·kH·kW]·[1+C·kH·kW × N·oH·oW] whose columns are then
// copied to y's [N O oH oW] layout.
func convIntoGemm(y, x, w, b *tensor.Tensor, g conv) {
	s := gemmScratchPool.Get().(*gemmScratch)
	defer gemmScratchPool.Put(s)
	np, k := g.n*g.oh*g.ow, 1+g.wSize
	s.cols.Reshape(tensor.Shape{k, np})
	ones := s.cols.Data[:np]
	for i := range ones {
		ones[i] = 1
	}
	im2col(s.cols.Data[np:], x, g)
	s.w.Reshape(tensor.Shape{g.o, k})
	for o := 0; o < g.o; o++ {
		row := s.w.Data[o*k:][:k]
		row[0] = b.Data[o]
		copy(row[1:], w.Data[o*g.wSize:][:g.wSize])
	}
	s.c.Reshape(tensor.Shape{g.o, np})
	tensor.Gemm(false, false, 1, &s.w, &s.cols, 0, &s.c)
	plane := g.oh * g.ow
	for n := 0; n < g.n; n++ {
		for o := 0; o < g.o; o++ {
			copy(y.Data[(n*g.o+o)*plane:][:plane], s.c.Data[o*np+n*plane:][:plane])
		}
	}
}

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
