package app

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// cnnDoc is a small CNN on 8×8 images: conv (padding pad) → relu →
// max_pool 2 → flatten → linear 5, cross-entropy.
func cnnDoc(pad int) Doc {
	conv := nn.NewConv2D(3, 3)
	conv.Padding = pad
	return Doc{Input: tensor.Shape{1, 8, 8}, Loss: nn.CrossEntropy, Seed: 3,
		Layers: []nn.Layer{conv, nn.ReLU{}, nn.NewMaxPool2D(2), nn.Flatten{}, nn.NewLinear(5)}}
}

// cnnPlayground records the CNN's step on the first 4 shapes images (rows
// of 64 pixels, as the page's datasets give them) and steps it to the end.
func cnnPlayground(t *testing.T, pad int) *Playground {
	t.Helper()
	tr, _, err := train.Generate(train.DefaultData("shapes"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := MiniBatch(tr.X, tr.Y, 4, nn.CrossEntropy)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(cnnDoc(pad), b)
	if err != nil {
		t.Fatal(err)
	}
	p.Stepper().ToEnd()
	return p
}

func nodeOf(t *testing.T, p *Playground, name string) int {
	t.Helper()
	for _, n := range p.Stepper().Nodes() {
		if n.Op != nil && n.Op.Name == name {
			return n.ID
		}
	}
	t.Fatalf("no %s node", name)
	return -1
}

func TestGridArrangesPlanes(t *testing.T) {
	for _, c := range []struct {
		name             string
		shape            tensor.Shape
		ex               int
		kernel           bool
		offsets          []int
		cols, rows       int
		cell, wide, high float64
	}{
		{"input", tensor.Shape{4, 1, 8, 8}, 2, false, []int{128}, 1, 1, 3, 24, 24},
		{"feature maps", tensor.Shape{4, 3, 6, 6}, 1, false, []int{108, 144, 180}, 3, 1, 5, 3*30 + 2*ImageGap, 30},
		{"example clamped", tensor.Shape{2, 2, 3, 3}, 9, false, []int{18, 27}, 2, 1, 10, 2*30 + ImageGap, 30},
		{"kernels, one input channel", tensor.Shape{3, 1, 3, 3}, 0, true, []int{0, 9, 18}, 3, 1, 10, 3*30 + 2*ImageGap, 30},
		{"kernels, two input channels", tensor.Shape{2, 2, 3, 3}, 0, true, []int{0, 9, 18, 27}, 2, 2, 10, 2*30 + ImageGap, 2*30 + ImageGap},
		{"many channels wrap, evenly", tensor.Shape{1, 10, 2, 2}, 0, false, []int{0, 4, 8, 12, 16, 20, 24, 28, 32, 36}, 5, 2, 10, 5*20 + 4*ImageGap, 2*20 + ImageGap},
		{"a 1×1 plane stays small", tensor.Shape{1, 2, 1, 1}, 0, false, []int{0, 1}, 2, 1, 10, 2*10 + ImageGap, 10},
		{"large image", tensor.Shape{1, 1, 28, 28}, 0, false, []int{0}, 1, 1, 2, 56, 56},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := GridWithin(c.shape, c.ex, c.kernel, 30, math.Inf(1), math.Inf(1))
			if !equalInts(g.Offsets, c.offsets) || g.Cols != c.cols || g.Rows != c.rows || g.Cell != c.cell || g.Width != c.wide || g.Height != c.high {
				t.Fatalf("got offsets %v, %d×%d, cell %v, %v×%v; want %v, %d×%d, cell %v, %v×%v",
					g.Offsets, g.Cols, g.Rows, g.Cell, g.Width, g.Height, c.offsets, c.cols, c.rows, c.cell, c.wide, c.high)
			}
			// every plane lies inside the grid, none overlaps the next
			for k := range g.Offsets {
				x, y := g.Origin(k)
				if x+g.Cell*float64(g.W) > g.Width+1e-9 || y+g.Cell*float64(g.H) > g.Height+1e-9 {
					t.Errorf("plane %d at (%v, %v) leaves the %v×%v grid", k, x, y, g.Width, g.Height)
				}
			}
		})
	}
}

func TestGridWithin(t *testing.T) {
	for _, c := range []struct {
		name               string
		shape              tensor.Shape
		kernel             bool
		wide               float64
		cols, rows         int
		cell, gridW, gridH float64
	}{
		{"feature maps wrap to keep their pixels large", tensor.Shape{4, 4, 6, 6}, false, 240, 2, 2, 14, 2*84 + ImageGap, 2*84 + ImageGap},
		{"feature maps in one row when it fits", tensor.Shape{4, 4, 6, 6}, false, 400, 4, 1, 14, 4*84 + 3*ImageGap, 84},
		{"kernels keep one output channel per row", tensor.Shape{2, 2, 3, 3}, true, 100, 2, 2, 16, 2*48 + ImageGap, 2*48 + ImageGap},
		{"one column when only it fits", tensor.Shape{1, 8, 8, 8}, false, 40, 1, 8, 5, 40, 8*40 + 7*ImageGap},
		{"nothing fits: the narrowest", tensor.Shape{1, 3, 8, 8}, false, 10, 1, 3, 2, 16, 3*16 + 2*ImageGap},
	} {
		t.Run(c.name, func(t *testing.T) {
			g := GridWithin(c.shape, 0, c.kernel, 84, c.wide, math.Inf(1))
			if g.Cols != c.cols || g.Rows != c.rows || g.Cell != c.cell || g.Width != c.gridW || g.Height != c.gridH {
				t.Fatalf("got %d×%d, cell %v, %v×%v; want %d×%d, cell %v, %v×%v",
					g.Cols, g.Rows, g.Cell, g.Width, g.Height, c.cols, c.rows, c.cell, c.gridW, c.gridH)
			}
			if want := GridWithin(c.shape, 0, c.kernel, 84, math.Inf(1), math.Inf(1)); !equalInts(g.Offsets, want.Offsets) {
				t.Errorf("planes %v, Grid's %v", g.Offsets, want.Offsets)
			}
		})
	}
}

// TestTapeGrids holds the tape's arrangement of the default CNN's images:
// square-ish grids of planes as large as ImageBoxSide allows.
func TestTapeGrids(t *testing.T) {
	for _, c := range []struct {
		name       string
		n          NodeInfo
		cols, rows int
		cell       float64
	}{
		{"the input", NodeInfo{Shape: tensor.Shape{4, 1, 8, 8}}, 1, 1, 12},
		{"four 6×6 feature maps", NodeInfo{Shape: tensor.Shape{4, 4, 6, 6}}, 2, 2, 8},
		{"four 3×3 pooled maps", NodeInfo{Shape: tensor.Shape{4, 4, 3, 3}}, 2, 2, 16},
		{"eight 6×6 feature maps", NodeInfo{Shape: tensor.Shape{4, 8, 6, 6}}, 3, 3, 5},
		{"four 3×3 kernels", NodeInfo{Kind: autograd.Param, Shape: tensor.Shape{4, 1, 3, 3}}, 2, 2, 10},
	} {
		t.Run(c.name, func(t *testing.T) {
			g, ok := NodeGrid(c.n, 1)
			if !ok || g.Cols != c.cols || g.Rows != c.rows || g.Cell != c.cell {
				t.Fatalf("got %v: %d×%d, cell %v; want %d×%d, cell %v", ok, g.Cols, g.Rows, g.Cell, c.cols, c.rows, c.cell)
			}
			if g.Width > ImageBoxSide || g.Height > ImageBoxSide {
				t.Errorf("the grid is %v×%v, more than %v", g.Width, g.Height, ImageBoxSide)
			}
		})
	}
}

func TestImageRange(t *testing.T) {
	g := ImageGrid{H: 1, W: 2, Offsets: []int{2}} // draws elements 2 and 3 only
	for _, c := range []struct {
		data  []float64
		k     float64
		label string
	}{
		{[]float64{9, 9, -2.06e-4, 1e-4}, 2 / 2.06e-4, "±2.1e-4"},
		{[]float64{0, 0, 0.37, -0.1}, 2 / 0.37, "±0.37"},
		{[]float64{0, 0, 1.5, 0}, 2 / 1.5, "±1.5"},
		{[]float64{0, 0, -12345, 0}, 2 / 12345.0, "±1.2e+4"},
		{[]float64{0, 0, math.NaN(), math.Inf(-1)}, 1, "±0"},
		{[]float64{0, 0, math.NaN(), 3}, 2 / 3.0, "±3"},
		{[]float64{5, 5, 0, 0}, 1, "±0"},
	} {
		k, label := ImageRange(&tensor.Tensor{Shape: tensor.Shape{4}, Data: c.data}, g)
		if math.Abs(k-c.k) > 1e-12*c.k || label != c.label {
			t.Errorf("ImageRange(%v) = %v, %q; want %v, %q", c.data, k, label, c.k, c.label)
		}
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestImageNodesGetTallerBoxes(t *testing.T) {
	p := cnnPlayground(t, 0)
	lay, err := Layout(p.Stepper().Nodes())
	if err != nil {
		t.Fatal(err)
	}
	for i, n := range p.Stepper().Nodes() {
		g, ok := NodeGrid(n, 0)
		b := lay.Boxes[i]
		if !ok {
			if b.H != BoxH {
				t.Errorf("node %d %v: height %v, want %v", i, n.Shape, b.H, BoxH)
			}
			continue
		}
		_, gy := ImageRows(g)
		if b.H < gy+g.Height || b.W < StripX+StripLabelW+g.Width {
			t.Errorf("node %d %v: box %v×%v does not hold its %v×%v grids", i, n.Shape, b.W, b.H, g.Width, g.Height)
		}
	}
}

// TestConvWindowIsTheEngines holds every output position's card to the
// engine: the sum equals Y bit for bit, and the contributions of all
// positions add up to the engine's VJP (dX, dW) within rounding.
func TestConvWindowIsTheEngines(t *testing.T) {
	for _, pad := range []int{0, 1} {
		p := cnnPlayground(t, pad)
		s := p.Stepper()
		i := nodeOf(t, p, "conv2d")
		n := s.Nodes()[i]
		x, w, b := s.Value(n.Parents[0]), s.Value(n.Parents[1]), s.Value(n.Parents[2])
		y, dy := s.Value(i), s.Grad(i)
		dx := tensor.Zeros(x.Shape)
		dw := tensor.Zeros(w.Shape)
		n.Op.VJP([]*tensor.Tensor{dx, dw, nil}, dy, y, []*tensor.Tensor{x, w, b}, n.Attrs)
		sumX, sumW := tensor.Zeros(x.Shape), tensor.Zeros(w.Shape)
		for k := range y.Data {
			c, ok := s.WindowAt(i, k)
			if !ok {
				t.Fatalf("pad %d: no card at %d", pad, k)
			}
			if math.Float64bits(c.Value) != math.Float64bits(y.Data[k]) {
				t.Fatalf("pad %d, Y%v: card %v, engine %v", pad, c.At, c.Value, y.Data[k])
			}
			if !c.HasDY || c.DY != dy.Data[k] {
				t.Fatalf("pad %d, Y%v: dY %v, engine %v", pad, c.At, c.DY, dy.Data[k])
			}
			if want := 9; pad == 0 && len(c.Terms) != want {
				t.Fatalf("Y%v: %d terms, want %d", c.At, len(c.Terms), want)
			}
			for _, tm := range c.Terms {
				if tm.Pad {
					continue
				}
				sumX.Data[tm.XIndex] += tm.DX
				sumW.Data[tm.WIndex] += tm.DW
			}
		}
		closeTo(t, "dX", sumX, dx)
		closeTo(t, "dW", sumW, dw)
	}
}

func closeTo(t *testing.T, what string, got, want *tensor.Tensor) {
	t.Helper()
	for k := range want.Data {
		if math.Abs(got.Data[k]-want.Data[k]) > 1e-12*math.Max(1, math.Abs(want.Data[k])) {
			t.Fatalf("%s[%d]: cards sum to %v, engine %v", what, k, got.Data[k], want.Data[k])
		}
	}
}

func TestConvWindowAtAPaddedCorner(t *testing.T) {
	p := cnnPlayground(t, 1)
	c, ok := p.Stepper().WindowAt(nodeOf(t, p, "conv2d"), 0)
	if !ok {
		t.Fatal("no card")
	}
	// Y[0,0,0,0] with padding 1: the window starts at (−1, −1), and only
	// its lower-right 2×2 lies on the image.
	var on []WindowTerm
	for _, tm := range c.Terms {
		if !tm.Pad {
			on = append(on, tm)
		}
	}
	if c.Row != -1 || c.Col != -1 || len(c.Terms) != 9 || len(on) != 4 || on[0].P != 1 || on[0].Q != 1 {
		t.Fatalf("window at (%d, %d) with %d terms, %d on the image, the first at (%d, %d)", c.Row, c.Col, len(c.Terms), len(on), on[0].P, on[0].Q)
	}
	if got, want := c.Equation(), "Y[0,0,0,0] = b + Σ W·X = "; !strings.HasPrefix(got, want) {
		t.Errorf("equation %q, want it to start %q", got, want)
	}
	if tm := on[0]; tm.Field(0) != tm.X || tm.Field(1) != tm.W || tm.Field(2) != tm.Product || tm.Field(3) != tm.DX || tm.Field(4) != tm.DW {
		t.Errorf("the fields of %+v", tm)
	}
}

// TestPoolWindowRoutesToTheArgmax: the card's winner is the element the
// engine's VJP sends dY to, and only it receives anything.
func TestPoolWindowRoutesToTheArgmax(t *testing.T) {
	p := cnnPlayground(t, 0)
	s := p.Stepper()
	i := nodeOf(t, p, "max_pool2d")
	n := s.Nodes()[i]
	x, y, dy := s.Value(n.Parents[0]), s.Value(i), s.Grad(i)
	for k := range y.Data {
		c, _ := s.WindowAt(i, k)
		// the engine's routing of a one-hot cotangent at k
		one := tensor.Zeros(y.Shape)
		one.Data[k] = 1
		dx := tensor.Zeros(x.Shape)
		n.Op.VJP([]*tensor.Tensor{dx}, one, y, []*tensor.Tensor{x}, n.Attrs)
		for j, tm := range c.Terms {
			if (dx.Data[tm.XIndex] == 1) != (j == c.Argmax) {
				t.Fatalf("Y%v: the engine routes to X[%d], the card's argmax is term %d", c.At, tm.XIndex, c.Argmax)
			}
			want := 0.0
			if j == c.Argmax {
				want = dy.Data[k]
			}
			if tm.DX != want {
				t.Fatalf("Y%v term %d receives %v, want %v", c.At, j, tm.DX, want)
			}
		}
		if c.Value != y.Data[k] {
			t.Fatalf("Y%v: card %v, engine %v", c.At, c.Value, y.Data[k])
		}
	}
}

// TestAvgPoolWindowSpreadsDY: the card of every avg_pool2d position has
// the engine's value bit for bit, every element of its window receives
// dY / k², and the cards' dX summed over all positions are the engine's
// VJP.
func TestAvgPoolWindowSpreadsDY(t *testing.T) {
	doc := cnnDoc(0)
	doc.Layers[2] = nn.AvgPool2D{KernelSize: 3, Stride: 2} // overlapping windows
	tr, _, err := train.Generate(train.DefaultData("shapes"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := MiniBatch(tr.X, tr.Y, 4, nn.CrossEntropy)
	if err != nil {
		t.Fatal(err)
	}
	p, err := New(doc, b)
	if err != nil {
		t.Fatal(err)
	}
	p.Stepper().ToEnd()
	s := p.Stepper()
	i := nodeOf(t, p, "avg_pool2d")
	n := s.Nodes()[i]
	x, y, dy := s.Value(n.Parents[0]), s.Value(i), s.Grad(i)
	dx := tensor.Zeros(x.Shape)
	n.Op.VJP([]*tensor.Tensor{dx}, dy, y, []*tensor.Tensor{x}, n.Attrs)
	sum := tensor.Zeros(x.Shape)
	for k := range y.Data {
		c, ok := s.WindowAt(i, k)
		if !ok || c.Op != "avg_pool2d" || c.Argmax != -1 || len(c.Terms) != 9 {
			t.Fatalf("Y[%d]: card %v (ok %v)", k, c, ok)
		}
		if math.Float64bits(c.Value) != math.Float64bits(y.Data[k]) {
			t.Fatalf("Y%v: card %v, engine %v", c.At, c.Value, y.Data[k])
		}
		for _, tm := range c.Terms {
			if tm.DX != dy.Data[k]/9 {
				t.Fatalf("Y%v: an element receives %v, want dY / 9 = %v", c.At, tm.DX, dy.Data[k]/9)
			}
			sum.Data[tm.XIndex] += tm.DX
		}
	}
	closeTo(t, "dX", sum, dx)
}

func TestAvgPoolEquation(t *testing.T) {
	c := WindowCard{Op: "avg_pool2d", At: [4]int{0, 1, 0, 0}}
	x := &tensor.Tensor{Shape: tensor.Shape{1, 2, 2, 2}, Data: []float64{9, 9, 9, 9, 0.5, 0.25, 1, 0.05}}
	c.avgPool(x, 2, 2)
	if got, want := c.Equation(), "Y[0,1,0,0] = Σ X / 4 = 1.8 / 4 = 0.45"; got != want {
		t.Errorf("equation %q, want %q", got, want)
	}
}

func TestPoolTiesGoToTheFirstMaximum(t *testing.T) {
	c := WindowCard{At: [4]int{0, 0, 0, 0}, HasDY: true, DY: 2}
	x := &tensor.Tensor{Shape: tensor.Shape{1, 1, 2, 2}, Data: []float64{0.5, 0.9, 0.9, 0.1}}
	c.pool(x, 2, 2)
	if c.Argmax != 1 || c.Terms[1].DX != 2 || c.Terms[2].DX != 0 {
		t.Fatalf("argmax %d, routed %v", c.Argmax, c.Terms)
	}
	if got, want := c.Equation(), "Y[0,0,0,0] = max of the window = 0.9 at X[0,0,0,1]"; got != want {
		t.Errorf("equation %q, want %q", got, want)
	}
}

func TestWindowCardNeedsAWindowOp(t *testing.T) {
	p := cnnPlayground(t, 0)
	if _, ok := p.Stepper().WindowAt(nodeOf(t, p, "relu"), 0); ok {
		t.Error("relu has a window card")
	}
	p.Stepper().Reset()
	if _, ok := p.Stepper().WindowAt(nodeOf(t, p, "conv2d"), 0); ok {
		t.Error("a card before the value is known")
	}
	if got := p.Stepper().DefaultWindow(nodeOf(t, p, "conv2d"), 0); got != -1 {
		t.Errorf("default position %d before the value is known", got)
	}
}

func TestDefaultWindowIsTheLargestContribution(t *testing.T) {
	p := cnnPlayground(t, 0)
	s := p.Stepper()
	for _, name := range []string{"conv2d", "max_pool2d"} {
		i := nodeOf(t, p, name)
		y, dy := s.Value(i), s.Grad(i)
		per := len(y.Data) / y.Shape[0]
		k := s.DefaultWindow(i, 1)
		if k < per || k >= 2*per {
			t.Fatalf("%s: position %d is not in example 1", name, k)
		}
		for j := per; j < 2*per; j++ {
			if math.Abs(y.Data[j]*dy.Data[j]) > math.Abs(y.Data[k]*dy.Data[k]) {
				t.Fatalf("%s: |Y·dY| at %d beats the chosen %d", name, j, k)
			}
		}
		if y.Data[k] == 0 {
			t.Errorf("%s: the chosen position holds 0", name)
		}
	}
}

// TestInputGradIsTheConvVJP: the saliency map equals the first
// convolution's dX from its final dY, and a finite difference.
func TestInputGradIsTheConvVJP(t *testing.T) {
	p := cnnPlayground(t, 1)
	g, err := p.InputGrad()
	if err != nil {
		t.Fatal(err)
	}
	s := p.Stepper()
	i := nodeOf(t, p, "conv2d")
	n := s.Nodes()[i]
	x := s.Value(n.Parents[0])
	if !g.Shape.Equal(x.Shape) {
		t.Fatalf("dL/dx has shape %v, x %v", g.Shape, x.Shape)
	}
	dx := tensor.Zeros(x.Shape)
	n.Op.VJP([]*tensor.Tensor{dx, nil, nil}, s.Grad(i), s.Value(i), []*tensor.Tensor{x, s.Value(n.Parents[1]), s.Value(n.Parents[2])}, n.Attrs)
	for k := range dx.Data {
		if math.Float64bits(dx.Data[k]) != math.Float64bits(g.Data[k]) {
			t.Fatalf("dL/dx[%d] = %v, the conv's VJP gives %v", k, g.Data[k], dx.Data[k])
		}
	}
	// a central difference on the pixel with the largest gradient
	k := 0
	for j := range g.Data {
		if math.Abs(g.Data[j]) > math.Abs(g.Data[k]) {
			k = j
		}
	}
	loss := func(d float64) float64 {
		b := p.Batch()
		x := b.X.Clone()
		x.Data[k] += d
		r, err := Record(p.Model(), Batch{X: x, Y: b.Y}, Modes{}, 1)
		if err != nil {
			t.Fatal(err)
		}
		return r.Tape.Node(r.Loss).Value.Data[0]
	}
	const h = 1e-6
	if fd := (loss(h) - loss(-h)) / (2 * h); math.Abs(fd-g.Data[k]) > 1e-6*math.Max(1, math.Abs(fd)) {
		t.Fatalf("dL/dx[%d] = %v, finite difference %v", k, g.Data[k], fd)
	}
}

func TestInkPixels(t *testing.T) {
	var empty Ink
	for _, v := range empty.Pixels(8) {
		if v != 0 {
			t.Fatal("an empty drawing has ink")
		}
	}
	// a vertical bar down the middle of a 200×200 canvas
	var bar Ink
	bar.Add(Point{100, 20}, true)
	bar.Add(Point{100, 180}, false)
	px := bar.Pixels(8)
	for r := range 8 {
		for c := range 8 {
			v := px[r*8+c]
			if v*16 != math.Round(v*16) || v < 0 || v > 1 {
				t.Fatalf("pixel (%d,%d) = %v is not one of the 17 levels", r, c, v)
			}
			middle := c == 3 || c == 4
			if middle != (v > 0) {
				t.Errorf("pixel (%d,%d) = %v: the bar should cover exactly columns 3 and 4", r, c, v)
			}
		}
	}
	// the drawing's scale and place do not matter, only its shape
	var small Ink
	small.Add(Point{10, 1}, true)
	small.Add(Point{10, 9}, false)
	if got := small.Pixels(8); !equalFloats(got, px) {
		t.Errorf("a smaller bar elsewhere gives %v, want %v", got, px)
	}
	// a dot (one point) still leaves ink; two strokes both count
	var dot Ink
	dot.Add(Point{5, 5}, true)
	if sum(dot.Pixels(8)) == 0 {
		t.Error("a dot leaves no ink")
	}
	var cross Ink
	cross.Add(Point{0, 50}, true)
	cross.Add(Point{100, 50}, false)
	cross.Add(Point{50, 0}, true)
	cross.Add(Point{50, 100}, false)
	if len(cross.Strokes) != 2 || sum(cross.Pixels(8)) <= sum(px) {
		t.Errorf("the cross has %d strokes and %v ink", len(cross.Strokes), sum(cross.Pixels(8)))
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func sum(v []float64) float64 {
	s := 0.0
	for _, x := range v {
		s += x
	}
	return s
}

// TestUseImageClassifiesTheDrawing: the drawing becomes the example, its
// target the prediction, and the tape's input holds its pixels.
func TestUseImageClassifiesTheDrawing(t *testing.T) {
	p := cnnPlayground(t, 0)
	var ink Ink
	ink.Add(Point{0, 50}, true)
	ink.Add(Point{100, 50}, false)
	px := ink.Pixels(8)
	pr, err := p.UseImage(2, px)
	if err != nil {
		t.Fatal(err)
	}
	r := p.Recording()
	x := r.Tape.Node(0).Value
	if !equalFloats(x.Data[2*64:3*64], px) {
		t.Fatal("the tape's input does not hold the drawing")
	}
	logits := r.Tape.Node(r.Pred).Value.Data[2*5 : 3*5]
	for k, v := range logits {
		if v > logits[pr.Class] {
			t.Fatalf("class %d has logit %v above the predicted %d's %v", k, v, pr.Class, logits[pr.Class])
		}
	}
	if y := r.Tape.Node(1).Value.Data[2]; y != float64(pr.Class) {
		t.Errorf("the drawing's target is %v, want the prediction %d", y, pr.Class)
	}
	if !(pr.Prob > 0.2 && pr.Prob <= 1) {
		t.Errorf("probability %v of the top of 5 classes", pr.Prob)
	}
	if _, err := p.UseImage(9, px); err == nil {
		t.Error("example 9 of 4 accepted")
	}
	if _, err := p.UseImage(0, px[:10]); err == nil {
		t.Error("10 pixels accepted for an 8×8 input")
	}
}

// TestExplainConvNamesEachClause: conv2d's chain rule is written element
// by element (dW[o,c,p,q] = …), and each contribution line of its card
// still says which clause it is, with no numbers to fill in.
func TestExplainConvNamesEachClause(t *testing.T) {
	p := cnnPlayground(t, 1)
	s := p.Stepper()
	s.ToEnd()
	c := s.Explain(nodeOf(t, p, "conv2d"))
	if len(c.Contribs) == 0 {
		t.Fatal("conv2d's card has no contribution lines at the end of the step")
	}
	for _, l := range c.Contribs {
		if !strings.HasPrefix(l.Clause, "d"+l.Operand+"[") || l.Numbers != "" {
			t.Errorf("operand %s: clause %q, numbers %q", l.Operand, l.Clause, l.Numbers)
		}
	}
}
