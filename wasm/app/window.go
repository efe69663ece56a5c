package app

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/tensor"
)

// WindowCard is the chain rule of a conv2d or max_pool2d node at one output
// position, with its numbers: the window of X it reads, what each element
// of the window contributes forward, and what each receives backward.
type WindowCard struct {
	Op   string // "conv2d" or "max_pool2d"
	Text string // the catalogue's rule at one position (op.Op.Window)
	// At is the output position (n, channel, i, j); Flat its index in Y.
	At   [4]int
	Flat int
	// K and L are the window's rows and columns (the kernel's, or the
	// pool's k×k); Row and Col the window's top-left corner in X, which
	// padding may put outside the image.
	K, L, Row, Col int
	// Terms are the window's elements inside the image, channel by channel,
	// row by row: the order the engine sums them in.
	Terms []WindowTerm
	// Bias is b[o] (conv2d); Value is Y at the position, summed in the
	// engine's order (bias first) so that it equals the engine's Y bit for
	// bit.
	Bias, Value float64
	// Argmax indexes the term max_pool2d routes the gradient to (-1 for
	// conv2d).
	Argmax int
	// DY is the upstream gradient at the position; HasDY says it is known
	// (the backward pass has reached the node).
	DY    float64
	HasDY bool
}

// WindowTerm is one element of the window.
type WindowTerm struct {
	C, P, Q int // its channel and its offset in the window
	XIndex  int // its index in X's data
	X       float64
	// For conv2d: WIndex is the kernel weight's index in W's data, W its
	// value and Product W·X, the term of the sum.
	WIndex     int
	W, Product float64
	// DX is what this position's dY sends to the element (conv2d: dY·W;
	// max_pool2d: dY at the argmax, 0 elsewhere); DW is what it sends to
	// the weight (conv2d: dY·X). Both are 0 until dY is known.
	DX, DW float64
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
	if n.Op.Name == "conv2d" {
		w, b := s.Value(n.Parents[1]), s.Value(n.Parents[2])
		if w == nil || b == nil {
			return WindowCard{}, false
		}
		c.conv(x, w, b, stride, n.Attrs.Padding)
	} else {
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

// DefaultWindow is the output position the card shows for node i and
// example ex: once the backward pass has reached the node, the position of
// ex with the largest |dY| (where the gradient matters most), before that
// the one with the largest |Y|; -1 when the value is not known.
func (s *Stepper) DefaultWindow(i, ex int) int {
	t := s.Grad(i)
	if t == nil {
		t = s.Value(i)
	}
	if t == nil || len(t.Shape) != 4 {
		return -1
	}
	per := len(t.Data) / t.Shape[0]
	ex = max(0, min(ex, t.Shape[0]-1))
	best := ex * per
	for k := best; k < (ex+1)*per; k++ {
		if math.Abs(t.Data[k]) > math.Abs(t.Data[best]) {
			best = k
		}
	}
	return best
}

// Equation says the position's forward sum with its numbers, e.g.
// "Y[0,2,1,1] = b + Σ W·X = 0.1 + (0.5·0.2 + …) = 0.73" (conv2d, at most
// nine terms written out) or "Y[0,1,0,2] = max(…) = 0.9" (max_pool2d).
func (c WindowCard) Equation() string {
	var b strings.Builder
	b.WriteString("Y" + Index(c.At[:]) + " = ")
	const most = 9
	if c.Op == "conv2d" {
		b.WriteString("b + Σ W·X = " + Num(c.Bias) + " + (")
		for k, t := range c.Terms {
			if k == most {
				b.WriteString(" + … " + strconv.Itoa(len(c.Terms)-most) + " more")
				break
			}
			if k > 0 {
				b.WriteString(" + ")
			}
			b.WriteString(Num(t.W) + "·" + Num(t.X))
		}
		b.WriteString(")")
	} else {
		b.WriteString("max(")
		for k, t := range c.Terms {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(Num(t.X))
		}
		b.WriteString(")")
	}
	b.WriteString(" = " + Num(c.Value))
	return b.String()
}

// Patch says where the window lies: "the 3×3 patch of X[0,c,1:4,2:5]"
// (rows and columns as Python slices, clipped to the image).
func (c WindowCard) Patch(xShape tensor.Shape) string {
	r0, r1 := max(0, c.Row), min(xShape[2], c.Row+c.K)
	c0, c1 := max(0, c.Col), min(xShape[3], c.Col+c.L)
	ch := ":"
	if c.Op == "max_pool2d" {
		ch = strconv.Itoa(c.At[1])
	}
	return "the " + strconv.Itoa(c.K) + "×" + strconv.Itoa(c.L) + " window of X[" + strconv.Itoa(c.At[0]) + "," + ch + "," +
		strconv.Itoa(r0) + ":" + strconv.Itoa(r1) + "," + strconv.Itoa(c0) + ":" + strconv.Itoa(c1) + "]"
}

// Index writes a tensor index, e.g. "[0,2,1,1]".
func Index(at []int) string {
	parts := make([]string, len(at))
	for k, v := range at {
		parts[k] = strconv.Itoa(v)
	}
	return "[" + strings.Join(parts, ",") + "]"
}
