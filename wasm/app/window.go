package app

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/tensor"
)

// WindowCard is the chain rule of a conv2d, max_pool2d or avg_pool2d node at one output
// position, with its numbers: the window of X it reads, what each element
// of the window contributes forward, and what each receives backward.
type WindowCard struct {
	Op   string // "conv2d", "max_pool2d" or "avg_pool2d"
	Text string // the catalogue's rule at one position (op.Op.Window)
	// At is the output position (n, channel, i, j); Flat its index in Y.
	At   [4]int
	Flat int
	// K and L are the window's rows and columns (the kernel's, or the
	// pool's k×k); Row and Col the window's top-left corner in X, which
	// padding may put outside the image.
	K, L, Row, Col int
	// Terms are the window's elements, channel by channel, row by row: the
	// order the engine sums them in (it skips the padding).
	Terms []WindowTerm
	// Bias is b[o] (conv2d); Value is Y at the position, summed in the
	// engine's order (bias first) so that it equals the engine's Y bit for
	// bit.
	Bias, Value float64
	// Argmax indexes the term max_pool2d routes the gradient to (-1 for
	// conv2d and avg_pool2d).
	Argmax int
	// DY is the upstream gradient at the position; HasDY says it is known
	// (the backward pass has reached the node).
	DY    float64
	HasDY bool
}

// WindowTerm is one element of the window.
type WindowTerm struct {
	C, P, Q int // its channel and its offset in the window
	// Pad marks a conv2d element on the zero padding, outside the image:
	// it holds no numbers and adds nothing.
	Pad    bool
	XIndex int // its index in X's data
	X      float64
	// For conv2d: WIndex is the kernel weight's index in W's data, W its
	// value and Product W·X, the term of the sum.
	WIndex     int
	W, Product float64
	// DX is what this position's dY sends to the element (conv2d: dY·W;
	// max_pool2d: dY at the argmax, 0 elsewhere; avg_pool2d: dY / k²); DW is what it sends to
	// the weight (conv2d: dY·X). Both are 0 until dY is known.
	DX, DW float64
}

// Field returns one of the term's numbers by position: 0 X, 1 W, 2 W·X,
// 3 DX, 4 DW (the columns of the inspector's window tables).
func (t WindowTerm) Field(k int) float64 {
	return [5]float64{t.X, t.W, t.Product, t.DX, t.DW}[k]
}

// IsWindowOp reports whether node n's card can show one output position.
func IsWindowOp(n NodeInfo) bool {
	return n.Op != nil && n.Op.Window != "" && len(n.Parents) > 0 && len(n.Shape) == 4
}

// WindowAt explains node i (IsWindowOp) at output position flat, an index
// into its value; ok is false when the node is not such an op, its value
// is not known yet, or flat is out of range.
func (s *Stepper) WindowAt(i, flat int) (WindowCard, bool) {
	n := s.nodes[i]
	if !IsWindowOp(n) {
		return WindowCard{}, false
	}
	x, y := s.Value(n.Parents[0]), s.Value(i)
	if x == nil || y == nil || flat < 0 || flat >= len(y.Data) {
		return WindowCard{}, false
	}
	sh := y.Shape
	c := WindowCard{Op: n.Op.Name, Text: n.Op.Window, Flat: flat, Argmax: -1,
		At: [4]int{flat / (sh[1] * sh[2] * sh[3]), flat / (sh[2] * sh[3]) % sh[1], flat / sh[3] % sh[2], flat % sh[3]}}
	if dy := s.Grad(i); dy != nil {
		c.DY, c.HasDY = dy.Data[flat], true
	}
	stride := n.Attrs.Stride
	switch n.Op.Name {
	case "conv2d":
		w, b := s.Value(n.Parents[1]), s.Value(n.Parents[2])
		if w == nil || b == nil {
			return WindowCard{}, false
		}
		c.conv(x, w, b, stride, n.Attrs.Padding)
	case "avg_pool2d":
		c.avgPool(x, n.Attrs.Kernel, stride)
	default:
		c.pool(x, n.Attrs.Kernel, stride)
	}
	return c, true
}

// conv fills the card of a conv2d position, summing as the engine does:
// bias, then channel, kernel row, kernel column.
func (c *WindowCard) conv(x, w, b *tensor.Tensor, stride, pad int) {
	xs, ws := x.Shape, w.Shape
	c.K, c.L = ws[2], ws[3]
	c.Row, c.Col = c.At[2]*stride-pad, c.At[3]*stride-pad
	o := c.At[1]
	c.Bias = b.Data[o]
	sum := c.Bias
	for ch := range xs[1] {
		for p := range c.K {
			for q := range c.L {
				h, v := c.Row+p, c.Col+q
				if h < 0 || h >= xs[2] || v < 0 || v >= xs[3] {
					c.Terms = append(c.Terms, WindowTerm{C: ch, P: p, Q: q, Pad: true})
					continue
				}
				t := WindowTerm{C: ch, P: p, Q: q, XIndex: ((c.At[0]*xs[1]+ch)*xs[2]+h)*xs[3] + v,
					WIndex: ((o*ws[1]+ch)*ws[2]+p)*ws[3] + q}
				t.X, t.W = x.Data[t.XIndex], w.Data[t.WIndex]
				t.Product = t.X * t.W
				sum += t.Product
				if c.HasDY {
					t.DX, t.DW = c.DY*t.W, c.DY*t.X
				}
				c.Terms = append(c.Terms, t)
			}
		}
	}
	c.Value = sum
}

// pool fills the card of a max_pool2d position; the winner is chosen as the
// engine chooses it (the first maximum in row-major order, or a NaN).
func (c *WindowCard) pool(x *tensor.Tensor, k, stride int) {
	xs := x.Shape
	c.K, c.L = k, k
	c.Row, c.Col = c.At[2]*stride, c.At[3]*stride
	best := math.Inf(-1)
	c.Argmax = 0
	for p := range k {
		for q := range k {
			t := WindowTerm{C: c.At[1], P: p, Q: q,
				XIndex: ((c.At[0]*xs[1]+c.At[1])*xs[2]+c.Row+p)*xs[3] + c.Col + q}
			t.X = x.Data[t.XIndex]
			if t.X > best || math.IsNaN(t.X) {
				best, c.Argmax = t.X, len(c.Terms)
			}
			c.Terms = append(c.Terms, t)
		}
	}
	c.Value = c.Terms[c.Argmax].X
	if c.HasDY {
		c.Terms[c.Argmax].DX = c.DY
	}
}

// avgPool fills the card of an avg_pool2d position, summing the window row
// by row and dividing by k² as the engine does; every element receives
// dY / k².
func (c *WindowCard) avgPool(x *tensor.Tensor, k, stride int) {
	xs := x.Shape
	c.K, c.L = k, k
	c.Row, c.Col = c.At[2]*stride, c.At[3]*stride
	n := float64(k * k)
	sum := 0.0
	for p := range k {
		for q := range k {
			t := WindowTerm{C: c.At[1], P: p, Q: q,
				XIndex: ((c.At[0]*xs[1]+c.At[1])*xs[2]+c.Row+p)*xs[3] + c.Col + q}
			t.X = x.Data[t.XIndex]
			sum += t.X
			if c.HasDY {
				t.DX = c.DY / n
			}
			c.Terms = append(c.Terms, t)
		}
	}
	c.Value = sum / n
}

// DefaultWindow is the output position the card shows for node i and
// example ex: the position of ex where |Y·dY| is largest once the backward
// pass has reached the node (a large value that matters to the loss; for
// max_pool2d, not a window of zeros), before that where |Y| is largest; -1
// when the value is not known.
func (s *Stepper) DefaultWindow(i, ex int) int {
	y, dy := s.Value(i), s.Grad(i)
	if y == nil || len(y.Shape) != 4 {
		return -1
	}
	per := len(y.Data) / y.Shape[0]
	ex = max(0, min(ex, y.Shape[0]-1))
	best, top := ex*per, -1.0
	for k := best; k < (ex+1)*per; k++ {
		v := math.Abs(y.Data[k])
		if dy != nil {
			v *= math.Abs(dy.Data[k])
		}
		if v > top {
			best, top = k, v
		}
	}
	return best
}

// Equation says the position's forward rule with its numbers, e.g.
// "Y[0,2,1,1] = b + Σ W·X = 0.1 + 0.63 = 0.73" (conv2d; the
// terms are the card's W·X table) or "Y[0,1,0,2] = max of the window =
// 0.9 at X[0,1,0,5]" (max_pool2d) or "Y[0,1,0,2] = Σ X / 4 = 1.8 / 4 =
// 0.45" (avg_pool2d).
func (c WindowCard) Equation() string {
	s := "Y" + Index(c.At[:]) + " = "
	switch c.Op {
	case "conv2d":
		return s + "b + Σ W·X = " + Num(c.Bias) + " + " + Num(c.Value-c.Bias) + " = " + Num(c.Value)
	case "avg_pool2d":
		n := strconv.Itoa(c.K * c.L)
		return s + "Σ X / " + n + " = " + Num(c.windowSum()) + " / " + n + " = " + Num(c.Value)
	}
	t := c.Terms[c.Argmax]
	return s + "max of the window = " + Num(c.Value) + " at X" + Index([]int{c.At[0], t.C, c.Row + t.P, c.Col + t.Q})
}

// windowSum is the sum of the window's X, in the engine's order.
func (c WindowCard) windowSum() float64 {
	s := 0.0
	for _, t := range c.Terms {
		s += t.X
	}
	return s
}

// Index writes a tensor index, e.g. "[0,2,1,1]".
func Index(at []int) string {
	parts := make([]string, len(at))
	for k, v := range at {
		parts[k] = strconv.Itoa(v)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
