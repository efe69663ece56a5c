package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

// max_pool2d is PyTorch's MaxPool2d with a square kernel, no padding and no
// dilation. The VJP recomputes each window's winner instead of storing the
// indices, so it needs no scratch memory.
var maxPool2DOp = &Op{
	Name:     "max_pool2d",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y[n,c,i,j] = max of X[n,c] over the k×k window at (i·s, j·s)",
	Rule:     "dX = dY routed to each window's first maximum (row-major), summed where windows overlap",
	Window:   "Y at one position = the maximum of its window of X; backward, only that maximum (the argmax) receives dY, the rest of the window receives 0",
	Work:     poolWork,
	Infer:    poolShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		maxPoolInto(y, x[0], a)
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		maxPoolBack(dx[0], dy, y, x[0], a)
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		eachWindow(y, x[0], a, func(k, win int) { dy.Data[k] = dx[0].Data[win] })
	},
	ZeroSafe: Always,
}

// avg_pool2d is PyTorch's AvgPool2d with a square kernel, no padding (so
// count_include_pad does not arise: every window has kernel² elements),
// ceil_mode false and no divisor_override. Like PyTorch's CPU kernel it sums
// each window row by row and then divides by kernel².
var avgPool2DOp = &Op{
	Name:     "avg_pool2d",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y[n,c,i,j] = mean of X[n,c] over the k×k window at (i·s, j·s)",
	Rule:     "dX = dY / k² spread over each window's k² elements, summed where windows overlap",
	Window:   "Y at one position = the sum of its window of X divided by k²; backward, every element of the window receives dY / k²",
	Work:     poolWork,
	Infer:    poolShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		y.Fill(0)
		eachCell(y, x[0], a, func(k, cell int) { y.Data[k] += x[0].Data[cell] })
		scaleDown(y, a.Kernel)
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dx[0].Fill(0)
		n := float64(a.Kernel * a.Kernel)
		eachCell(y, x[0], a, func(k, cell int) { dx[0].Data[cell] += dy.Data[k] / n })
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dy.Fill(0)
		if dx[0] == nil {
			return
		}
		eachCell(y, x[0], a, func(k, cell int) { dy.Data[k] += dx[0].Data[cell] })
		scaleDown(dy, a.Kernel)
	},
	ZeroSafe: Always,
}

// scaleDown divides every entry of t by kernel², as PyTorch's average pool
// divides each window's sum.
func scaleDown(t *tensor.Tensor, kernel int) {
	n := float64(kernel * kernel)
	for i := range t.Data {
		t.Data[i] /= n
	}
}

// eachCell calls f(k, cell) for every output position k of y (row-major)
// and every flat index cell of its window in x, the window read row by row.
func eachCell(y, x *tensor.Tensor, a Attrs, f func(k, cell int)) {
	h, w := x.Shape[2], x.Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	ks, s := a.Kernel, a.Stride
	k := 0
	for plane := 0; plane < x.Shape[0]*x.Shape[1]; plane++ {
		base := plane * h * w
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				for p := 0; p < ks; p++ {
					row := base + (i*s+p)*w + j*s
					for q := 0; q < ks; q++ {
						f(k, row+q)
					}
				}
				k++
			}
		}
	}
}

// poolShape is the shape rule of both pools: X must be [B C H W] and the
// kernel×kernel window, stride apart, must fit in the image.
func poolShape(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
	x := in[0]
	if len(x) != 4 {
		return dst, fmt.Errorf("X must be [B C H W], has shape %v", x)
	}
	if a.Kernel < 1 {
		return dst, fmt.Errorf("kernel size %d must be at least 1", a.Kernel)
	}
	h, w, err := windows(x[2], x[3], a.Kernel, a.Kernel, a.Stride, 0)
	if err != nil {
		return dst, err
	}
	return append(dst[:0], x[0], x[1], h, w), nil
}

// eachWindow calls f(k, win) for every output position k of y (row-major)
// with the flat index win of its window's winner in x (winner).
func eachWindow(y, x *tensor.Tensor, a Attrs, f func(k, win int)) {
	h, w := x.Shape[2], x.Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	k := 0
	for plane := 0; plane < x.Shape[0]*x.Shape[1]; plane++ {
		base := plane * h * w
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				f(k, winner(x.Data, base+i*a.Stride*w+j*a.Stride, w, a.Kernel))
				k++
			}
		}
	}
}

// winner returns the flat index in xs of the winner of the ks×ks window
// whose first element is xs[at], in an image w wide. The winner is chosen
// as PyTorch's CPU kernel does: scanning the window row by row, an element
// wins when it is greater than the best so far or NaN, starting from −Inf
// at the window's first element; so ties go to the first maximum and a NaN
// wins over numbers. (The first element wins against −Inf unless it is
// −Inf itself, when it is the winner anyway: so the scan starts from it.)
func winner(xs []float64, at, w, ks int) int {
	if ks == 2 {
		return winner2(xs, at, w)
	}
	best, win := xs[at], at
	for p := 0; p < ks; p++ {
		row := xs[at+p*w:][:ks]
		for q, v := range row {
			if v > best || v != v {
				best, win = v, at+p*w+q
			}
		}
	}
	return win
}

// winner2 is winner for a 2×2 window, written out.
func winner2(xs []float64, at, w int) int {
	r0, r1 := xs[at:][:2], xs[at+w:][:2]
	best, win := r0[0], at
	if v := r0[1]; v > best || v != v {
		best, win = v, at+1
	}
	if v := r1[0]; v > best || v != v {
		best, win = v, at+w
	}
	if v := r1[1]; v > best || v != v {
		win = at + w + 1
	}
	return win
}

// maxPoolInto writes each window's winner of x into y.
func maxPoolInto(y, x *tensor.Tensor, a Attrs) {
	if a.Kernel == 2 && a.Stride == 2 {
		maxPool2Into(y, x)
		return
	}
	h, w := x.Shape[2], x.Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	k := 0
	for plane := 0; plane < x.Shape[0]*x.Shape[1]; plane++ {
		base := plane * h * w
		for i := 0; i < oh; i++ {
			out := y.Data[k:][:ow]
			k += ow
			for j := range out {
				out[j] = x.Data[winner(x.Data, base+i*a.Stride*w+j*a.Stride, w, a.Kernel)]
			}
		}
	}
}

// maxPoolBack writes dX: dX is 0 but at each window's winner, which
// receives that window's dy, added in y's row-major order where windows
// overlap.
func maxPoolBack(dx, dy, y, x *tensor.Tensor, a Attrs) {
	dx.Fill(0)
	if a.Kernel == 2 && a.Stride == 2 {
		maxPool2Back(dx, dy, x)
		return
	}
	h, w := x.Shape[2], x.Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	k := 0
	for plane := 0; plane < x.Shape[0]*x.Shape[1]; plane++ {
		base := plane * h * w
		for i := 0; i < oh; i++ {
			g := dy.Data[k:][:ow]
			k += ow
			for j, gv := range g {
				dx.Data[winner(x.Data, base+i*a.Stride*w+j*a.Stride, w, a.Kernel)] += gv
			}
		}
	}
}

// maxPool2Into is maxPoolInto for 2×2 windows 2 apart (the usual pool),
// two rows of x at a time: each window's best, as winner scans it.
func maxPool2Into(y, x *tensor.Tensor) {
	h, w := x.Shape[2], x.Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	k := 0
	for plane := 0; plane < x.Shape[0]*x.Shape[1]; plane++ {
		for i := 0; i < oh; i++ {
			r0 := x.Data[plane*h*w+2*i*w:][:2*ow]
			r1 := x.Data[plane*h*w+(2*i+1)*w:][:len(r0)]
			out := y.Data[k:][:ow]
			k += ow
			for j, q := 0, 0; q+1 < len(r0) && q+1 < len(r1); j, q = j+1, q+2 {
				best := r0[q]
				if v := r0[q+1]; v > best || v != v {
					best = v
				}
				if v := r1[q]; v > best || v != v {
					best = v
				}
				if v := r1[q+1]; v > best || v != v {
					best = v
				}
				out[j] = best
			}
		}
	}
}

// maxPool2Back is maxPoolBack for 2×2 windows 2 apart, after dx.Fill(0):
// the windows do not overlap, so each winner receives its dy once.
func maxPool2Back(dx, dy, x *tensor.Tensor) {
	h, w := x.Shape[2], x.Shape[3]
	oh, ow := dy.Shape[2], dy.Shape[3]
	k := 0
	for plane := 0; plane < x.Shape[0]*x.Shape[1]; plane++ {
		for i := 0; i < oh; i++ {
			at := plane*h*w + 2*i*w
			r0, r1 := x.Data[at:][:2*ow], x.Data[at+w:][:2*ow]
			d0, d1 := dx.Data[at:][:2*ow], dx.Data[at+w:][:2*ow]
			g := dy.Data[k:][:ow]
			k += ow
			for j, q := 0, 0; j < len(g) && q+1 < len(r0) && q+1 < len(r1); j, q = j+1, q+2 {
				best, win := r0[q], 0
				if v := r0[q+1]; v > best || v != v {
					best, win = v, 1
				}
				if v := r1[q]; v > best || v != v {
					best, win = v, 2
				}
				if v := r1[q+1]; v > best || v != v {
					win = 3
				}
				switch win {
				case 0:
					d0[q] += g[j]
				case 1:
					d0[q+1] += g[j]
				case 2:
					d1[q] += g[j]
				default:
					d1[q+1] += g[j]
				}
			}
		}
	}
}

// poolWork counts a pooling's work: each output element reads the k·k
// entries of its window.
func poolWork(y tensor.Shape, _ []tensor.Shape, a Attrs) float64 {
	return float64(y.Size()) * float64(a.Kernel) * float64(a.Kernel)
}
