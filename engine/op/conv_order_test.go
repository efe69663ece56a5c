package op

import (
	endian "encoding/binary"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	"tapelab/engine/tensor"
)

// The convolution kernels before they ran along rows (3339261), one output
// or one cotangent at a time: the summation order the row kernels keep.

func convIntoScalar(y, x, w, b *tensor.Tensor, a Attrs, accumulate bool) {
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
							xr := (c*g.h+i*g.stride+p-g.pad)*g.w + j*g.stride - g.pad
							wr := (c*g.kh + p) * g.kw
							for q := q0; q < q1; q++ {
								s += float64(img[xr+q] * filt[wr+q])
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

func convBackScalar(dx, dw, dy, x, w *tensor.Tensor, a Attrs) {
	dx.Fill(0)
	dw.Fill(0)
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
							xr := off + (c*g.h+i*g.stride+p-g.pad)*g.w + j*g.stride - g.pad
							wr := o*g.wSize + (c*g.kh+p)*g.kw
							for q := q0; q < q1; q++ {
								dx.Data[xr+q] += float64(gv * w.Data[wr+q])
								dw.Data[wr+q] += float64(gv * x.Data[xr+q])
							}
						}
					}
				}
			}
		}
	}
}

// convCases are geometries with and without padding, strides 1 to 3,
// kernels wider than tall, windows that lie wholly in the padding, and
// outputs wide enough for the row kernels and too narrow (minRow), with
// channel counts that are and are not multiples of the narrow kernels' 4,
// forward products wide enough to be computed transposed (tallRatio), and
// images small enough for dX's GEMM (convGemmInputs).
var convCases = []struct {
	name        string
	x, w        tensor.Shape
	stride, pad int
}{
	{"cnn conv 1", tensor.Shape{8, 1, 8, 8}, tensor.Shape{4, 1, 3, 3}, 1, 1},
	{"cnn conv 2", tensor.Shape{2, 8, 4, 4}, tensor.Shape{5, 8, 3, 3}, 1, 0},
	{"stride 2 padding 1", tensor.Shape{2, 3, 7, 5}, tensor.Shape{3, 3, 3, 3}, 2, 1},
	{"stride 3 wide kernel", tensor.Shape{1, 2, 9, 11}, tensor.Shape{2, 2, 2, 4}, 3, 2},
	{"padding past the kernel", tensor.Shape{2, 1, 2, 3}, tensor.Shape{2, 1, 2, 2}, 1, 3},
	{"one by one", tensor.Shape{2, 3, 4, 4}, tensor.Shape{2, 3, 1, 1}, 1, 0},
	{"wide, stride 2", tensor.Shape{6, 2, 12, 12}, tensor.Shape{2, 2, 3, 3}, 2, 1},
	{"small image stride 2", tensor.Shape{3, 3, 4, 4}, tensor.Shape{5, 3, 3, 3}, 2, 1},
	{"narrow stride 2", tensor.Shape{2, 5, 6, 6}, tensor.Shape{6, 5, 3, 3}, 2, 1},
	{"narrow, mostly padding", tensor.Shape{2, 4, 1, 1}, tensor.Shape{9, 4, 3, 3}, 1, 2},
}

// TestConvRowKernelsKeepTheOrder checks every conv2d kernel (the rows,
// the narrow ones and the GEMM paths) against the one-at-a-time kernels
// bit for bit (any NaN matching any NaN), forward (with and without bias
// and accumulation), dW and dX, on values whose sums round differently in
// another order, signed zeros and non-finite values included.
func TestConvRowKernelsKeepTheOrder(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 40))
	fill := func(s tensor.Shape) *tensor.Tensor {
		v := tensor.Zeros(s)
		for i := range v.Data {
			switch r.IntN(8) {
			case 0:
				v.Data[i] = math.Copysign(0, -1)
			case 1:
				v.Data[i] = 0
			default:
				v.Data[i] = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(7)-3))
			}
		}
		return v
	}
	same := func(t *testing.T, what string, got, want *tensor.Tensor) {
		t.Helper()
		for i := range want.Data {
			if g, w := got.Data[i], want.Data[i]; math.Float64bits(g) != math.Float64bits(w) && !(g != g && w != w) {
				t.Fatalf("%s[%d] = %v, want %v bit for bit", what, i, got.Data[i], want.Data[i])
			}
		}
	}
	// The variants decide which kernels run: the GEMM paths (im2col.go)
	// need no −0 bias and, with padding, a finite W (forward) and dY (dW).
	variants := []struct {
		name                     string
		negZeroBias, infW, nanDY bool
	}{
		{"gemm", false, false, false},
		{"-0 bias", true, false, false},
		{"inf in W", false, true, false},
		{"nan in dY", false, false, true},
	}
	for _, tc := range convCases {
		for _, v := range variants {
			t.Run(tc.name+"/"+v.name, func(t *testing.T) {
				a := Attrs{Stride: tc.stride, Padding: tc.pad}
				x, w, b := fill(tc.x), fill(tc.w), fill(tensor.Shape{tc.w[0]})
				for i, bv := range b.Data {
					if bv == 0 {
						b.Data[i] = 0
					}
				}
				if v.negZeroBias {
					b.Data[len(b.Data)-1] = math.Copysign(0, -1)
				}
				if v.infW {
					w.Data[len(w.Data)/2] = math.Inf(-1)
				}
				ys, err := conv2dOp.Infer(nil, []tensor.Shape{tc.x, tc.w, {tc.w[0]}}, a)
				if err != nil {
					t.Fatal(err)
				}
				dy := fill(ys)
				if v.nanDY {
					dy.Data[0] = math.NaN()
				}
				g := geometry(x, w, a)
				if gemm := convGemmForward(w, b, g); gemm != (!v.negZeroBias && !(v.infW && tc.pad > 0)) {
					t.Errorf("convGemmForward = %v", gemm)
				}
				if gemm := convGemmWeights(dy, g); gemm != (!v.nanDY || tc.pad == 0) {
					t.Errorf("convGemmWeights = %v", gemm)
				}
				for _, bias := range []*tensor.Tensor{b, nil} {
					for _, acc := range []bool{false, true} {
						y0 := fill(ys)
						got, want := y0.Clone(), y0.Clone()
						convInto(got, x, w, bias, a, acc)
						convIntoScalar(want, x, w, bias, a, acc)
						same(t, "Y", got, want)
					}
				}
				dx, dw := fill(tc.x), fill(tc.w) // stale values the kernels must overwrite
				wantX, wantW := tensor.Zeros(tc.x), tensor.Zeros(tc.w)
				convBack(dx, dw, dy, x, w, a)
				convBackScalar(wantX, wantW, dy, x, w, a)
				same(t, "dX", dx, wantX)
				same(t, "dW", dw, wantW)
			})
		}
	}
}

// BenchmarkConvKernels times a forward and a backward of the cnn
// workload's second convolution, the row kernels against the
// one-at-a-time kernels, in one run.
func BenchmarkConvKernels(b *testing.B) {
	for _, tc := range convCases[:2] {
		x, w, bias := tensor.Zeros(tc.x), tensor.Zeros(tc.w), tensor.Zeros(tensor.Shape{tc.w[0]})
		x.Shape[0] = 32
		x = tensor.Zeros(x.Shape)
		for i := range x.Data {
			x.Data[i] = float64(i%7) - 3
		}
		for i := range w.Data {
			w.Data[i] = float64(i%5) - 2
		}
		a := Attrs{Stride: tc.stride, Padding: tc.pad}
		ys, _ := conv2dOp.Infer(nil, []tensor.Shape{x.Shape, tc.w, {tc.w[0]}}, a)
		y, dy, dx, dw := tensor.Zeros(ys), tensor.Zeros(ys), tensor.Zeros(x.Shape), tensor.Zeros(tc.w)
		b.Run(tc.name+"/rows", func(b *testing.B) {
			for b.Loop() {
				convInto(y, x, w, bias, a, false)
				convBack(dx, dw, dy, x, w, a)
			}
		})
		b.Run(tc.name+"/scalar", func(b *testing.B) {
			for b.Loop() {
				convIntoScalar(y, x, w, bias, a, false)
				convBackScalar(dx, dw, dy, x, w, a)
			}
		})
	}
}

// TestConvBitsEverywhere pins a hash of the cnn workload's two
// convolutions (forward, dW, dX) and its pool (forward, VJP) on fixed
// data: the same on every platform, wasm included, since none of their
// kernels fuses a multiply-add or calls a function of package math that
// is assembly on one platform only. It was recorded with the kernels of
// 3339261 (the one-at-a-time loops).
func TestConvBitsEverywhere(t *testing.T) {
	const want uint64 = 0xdf5ae293803597f6
	r := rand.New(rand.NewPCG(40, 1))
	h := fnv.New64a()
	put := func(ts ...*tensor.Tensor) {
		for _, v := range ts {
			for _, x := range v.Data {
				h.Write(endian.LittleEndian.AppendUint64(nil, math.Float64bits(x)))
			}
		}
	}
	rnd := func(s tensor.Shape) *tensor.Tensor {
		v := tensor.Zeros(s)
		for i := range v.Data {
			v.Data[i] = r.Float64()*2 - 1
		}
		return v
	}
	for _, tc := range convCases[:2] {
		x := rnd(tensor.Shape{32, tc.x[1], tc.x[2], tc.x[3]})
		w, b := rnd(tc.w), rnd(tensor.Shape{tc.w[0]})
		a := Attrs{Stride: tc.stride, Padding: tc.pad}
		ys, _ := conv2dOp.Infer(nil, []tensor.Shape{x.Shape, tc.w, {tc.w[0]}}, a)
		y, dy := tensor.Zeros(ys), rnd(ys)
		dx, dw := tensor.Zeros(x.Shape), tensor.Zeros(tc.w)
		conv2dOp.Forward(y, []*tensor.Tensor{x, w, b}, a)
		convBack(dx, dw, dy, x, w, a)
		put(y, dx, dw)
	}
	x := rnd(tensor.Shape{32, 8, 8, 8})
	a := Attrs{Kernel: 2, Stride: 2}
	y, dy, dx := tensor.Zeros(tensor.Shape{32, 8, 4, 4}), rnd(tensor.Shape{32, 8, 4, 4}), tensor.Zeros(x.Shape)
	maxPool2DOp.Forward(y, []*tensor.Tensor{x}, a)
	maxPool2DOp.VJP([]*tensor.Tensor{dx}, dy, y, []*tensor.Tensor{x}, a)
	put(y, dx)
	if got := h.Sum64(); got != want {
		t.Errorf("hash %#x, want %#x", got, want)
	}
}
