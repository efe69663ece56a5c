package op

import (
	"fmt"
	"math"

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
		eachWindow(y, x[0], a, func(k, win int) { y.Data[k] = x[0].Data[win] })
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dx[0].Fill(0)
		eachWindow(y, x[0], a, func(k, win int) { dx[0].Data[win] += dy.Data[k] })
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
// with the flat index win of its window's winner in x. The winner is chosen
// as PyTorch's CPU kernel does: scanning the window row by row, an element
// wins when it is greater than the best so far or NaN, starting from −Inf
// at the window's first element; so ties go to the first maximum and a NaN
// wins over numbers.
func eachWindow(y, x *tensor.Tensor, a Attrs, f func(k, win int)) {
	h, w := x.Shape[2], x.Shape[3]
	oh, ow := y.Shape[2], y.Shape[3]
	ks, s := a.Kernel, a.Stride
	k := 0
	for plane := 0; plane < x.Shape[0]*x.Shape[1]; plane++ {
		base := plane * h * w
		for i := 0; i < oh; i++ {
			for j := 0; j < ow; j++ {
				best, win := math.Inf(-1), base+i*s*w+j*s
				for p := 0; p < ks; p++ {
					row := base + (i*s+p)*w + j*s
					for q := 0; q < ks; q++ {
						if v := x.Data[row+q]; v > best || math.IsNaN(v) {
							best, win = v, row+q
						}
					}
				}
				f(k, win)
				k++
			}
		}
	}
}

// poolWork counts a pooling's work: each output element reads the k·k
// entries of its window.
func poolWork(y tensor.Shape, _ []tensor.Shape, a Attrs) float64 {
	return float64(y.Size()) * float64(a.Kernel) * float64(a.Kernel)
}
