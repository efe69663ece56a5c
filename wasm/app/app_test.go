package app

import (
	"math"
	"os"
	"regexp"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

func testBatch() Batch {
	return Batch{
		X: tensor.Matrix([][]float64{{0.5, -1}, {1, 0.2}, {-0.3, 0.8}, {0, -0.5}}),
		Y: tensor.Matrix([][]float64{{1}, {0}, {-1}, {0.5}}),
	}
}

func newTestPlayground(t *testing.T, m Modes) *Playground {
	t.Helper()
	p, err := New(DefaultDoc(), testBatch())
	if err != nil {
		t.Fatal(err)
	}
	if m != (Modes{}) {
		if err := p.SetModes(m); err != nil {
			t.Fatal(err)
		}
	}
	return p
}

// eagerRecording records p's step again, on an eager session.
func eagerRecording(t *testing.T, p *Playground) *Recording {
	t.Helper()
	modes := p.Modes()
	modes.Compiled = false
	r, err := Record(p.Model().Clone(), p.Batch(), modes, p.seed)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// oneShot returns the engine's one-shot gradients of the recorded step's
// loss for every node, from a fresh recording on an eager session.
func oneShot(t *testing.T, p *Playground) *autograd.Grads {
	t.Helper()
	r := eagerRecording(t, p)
	var g autograd.Grads
	if err := r.Tape.BackwardDense(r.Loss, tensor.Scalar(1), &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

func TestDefaultTape(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	r := p.Recording()
	var got []string
	for _, n := range p.Stepper().Nodes() {
		got = append(got, n.Label)
	}
	want := "x y 0.weight 0.bias 2.weight 2.bias linear tanh linear mean mse_loss"
	if strings.Join(got, " ") != want {
		t.Fatalf("tape = %v, want %s", got, want)
	}
	roles := r.Roles()
	if roles[r.Loss] != RoleLoss || roles[r.Metric] != RoleMetric || roles[r.Pred] != RolePred {
		t.Errorf("roles = %q", roles)
	}
	c := p.Stepper().Counts()
	if c.ForwardTotal != 11 || c.BackwardTotal != 4 || len(p.Stepper().Order()) != 5 {
		t.Errorf("dense: counts = %+v and %d VJPs, want 11 forward nodes and 4 steps (mse with the metric's mean, linear, tanh, linear) running 5 VJPs", c, len(p.Stepper().Order()))
	}
	if err := p.SetModes(Modes{Single: true}); err != nil {
		t.Fatal(err)
	}
	c = p.Stepper().Counts()
	if c.ForwardTotal != 11 || c.BackwardTotal != 4 {
		t.Errorf("single-output: counts = %+v, want 11 forward nodes and 4 VJPs (mse, linear, tanh, linear)", c)
	}
}

// TestStepToEndMatchesOneShot steps every mode to the end: each backward
// step runs the next node of the mode's pass, and at the end every gradient
// shown is the engine's one-shot pass's, bit for bit: BackwardDense from the
// loss in single-output mode, BackwardDenseFrom with the one-hot pack in
// dense mode (where only nodes nothing feeds keep their +0 seed unshown).
func TestStepToEndMatchesOneShot(t *testing.T) {
	for _, m := range []Modes{{}, {Compiled: true}, {L2: 0.1}, {Compiled: true, L2: 0.1}, {Eval: true},
		{Single: true}, {Single: true, Compiled: true}, {Single: true, L2: 0.1}} {
		p := newTestPlayground(t, m)
		s := p.Stepper()
		if s.Dense() == m.Single {
			t.Fatalf("%+v: the stepper's Dense() is %v", m, s.Dense())
		}
		for i := 0; i < s.Counts().ForwardTotal; i++ {
			e, ok := s.Step()
			if !ok || e.Node != i || s.Value(i) == nil || !s.State(i).Has(Known) {
				t.Fatalf("%+v: forward step %d: ok=%v node=%d", m, i, ok, e.Node)
			}
		}
		want := oneShot(t, p)
		if !m.Single {
			want = denseOneShot(t, p)
		}
		for k, j := range steps(s) {
			e, ok := s.Step()
			if !ok || e.Node != j {
				t.Fatalf("%+v: backward step %d ran node %d, want %d", m, k, e.Node, j)
			}
			if !s.State(j).Has(Final | Ran | Focus) {
				t.Errorf("%+v: node %d state %b after its step", m, j, s.State(j))
			}
		}
		if _, ok := s.Step(); ok {
			t.Fatalf("%+v: stepped past the end", m)
		}
		for i, n := range s.Nodes() {
			g, w := s.Grad(i), want.Of(i)
			if g == nil && w != nil && !m.Single && len(s.Received(i)) == 0 && i != s.Output() {
				if !tensor.Identical(w, tensor.Zeros(w.Shape)) {
					t.Errorf("%+v: node %d (%s) shows no gradient, the dense pass gives %v", m, i, n.Title(), w)
				}
				continue // a node nothing feeds: its +0 seed is not shown
			}
			if (g == nil) != (w == nil) || g != nil && !tensor.Identical(g, w) {
				t.Errorf("%+v: node %d grad %v, one-shot %v", m, i, g, w)
			}
		}
		for k, i := range p.Recording().ParamNodes {
			if g := s.Grad(i); g == nil && !p.Model().Seq.Params()[k].Buffer {
				t.Errorf("%+v: parameter node %d shows no gradient", m, i)
			}
		}
	}
}

// steps lists the nodes whose VJP runs as a step of its own, in order.
func steps(s *Stepper) []int {
	var out []int
	for _, i := range s.Order() {
		if !s.Quiet(i) {
			out = append(out, i)
		}
	}
	return out
}

func TestBackAndReset(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	s := p.Stepper()
	s.ForwardToEnd()
	s.Step()
	s.Step()
	if c := s.Counts(); c.Backward != 2 {
		t.Fatalf("counts %+v", c)
	}
	first := steps(s)[1]
	if s.Contribs(first) == nil {
		t.Fatal("no contributions recorded for the second VJP")
	}
	s.Back()
	if s.Contribs(first) != nil || s.Counts().Backward != 1 || s.Focus() != steps(s)[0] {
		t.Fatalf("after Back: counts %+v focus %d", s.Counts(), s.Focus())
	}
	s.Reset()
	if c := s.Counts(); c.Forward != 0 || c.Backward != 0 || s.Focus() != -1 || s.Value(0) != nil {
		t.Fatalf("after Reset: %+v", c)
	}
}

func TestPassesSkipTheMetric(t *testing.T) {
	for _, m := range []Modes{{}, {Compiled: true}} {
		p := newTestPlayground(t, m)
		ps, err := p.Passes()
		if err != nil {
			t.Fatal(err)
		}
		if !ps.Identical {
			t.Errorf("%+v: dense and single-output gradients differ at node %d", m, ps.Mismatch)
		}
		sk := ps.Skipped()
		if len(sk) != 1 || sk[0] != p.Recording().Metric {
			t.Errorf("%+v: skipped %v, want the metric node %d", m, sk, p.Recording().Metric)
		}
		if ps.Dense != 5 || ps.Single != 4 {
			t.Errorf("%+v: dense %d, single %d VJPs; want 5 and 4", m, ps.Dense, ps.Single)
		}
	}
}

func TestFanInShowsAccumulation(t *testing.T) {
	p := newTestPlayground(t, Modes{L2: 0.1})
	s := p.Stepper()
	s.ToEnd()
	w := p.Recording().ParamNodes[0] // 0.weight: used by linear and by W⊙W (twice)
	rs := s.Received(w)
	if len(rs) != 3 {
		t.Fatalf("0.weight received %d contributions, want 3 (mul twice, linear)", len(rs))
	}
	if rs[0].Before != nil || rs[1].Before == nil || rs[2].Before == nil {
		t.Errorf("only the first contribution may find no gradient")
	}
	if !tensor.Identical(rs[2].After, s.Grad(w)) {
		t.Errorf("the last After is not the final gradient")
	}
	card := s.Explain(rs[1].From)
	var acc bool
	for _, l := range card.Contribs {
		acc = acc || l.Accumulates
	}
	if !acc {
		t.Errorf("the card of node %d shows no +=: %+v", rs[1].From, card.Contribs)
	}
}

func TestExplainLinear(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	s := p.Stepper()
	s.ToEnd()
	lin := s.Order()[2] // the second linear, after mse_loss and the metric (dense)
	c := s.Explain(lin)
	if c.Rule == "" || len(c.Contribs) != 3 {
		t.Fatalf("card = %+v", c)
	}
	if c.Contribs[0].Clause != "dX = dY·W" || !strings.HasPrefix(c.Contribs[0].Numbers, "[[") {
		t.Errorf("first line = %+v", c.Contribs[0])
	}
	if c.Contribs[1].Value != Inline(s.Contribs(lin)[1].Value) {
		t.Errorf("contribution text differs from the engine's value")
	}
}

func TestEditorUndoRedoAndErrors(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	d := p.Doc()
	if err := p.Edit(d.Insert(2, nn.NewLinear(3))); err != nil {
		t.Fatal(err)
	}
	if got := p.Status()[2].Out; !got.Equal(tensor.Shape{3}) {
		t.Errorf("new layer out = %v", got)
	}
	before := p.Stepper().Tape().Len()
	d2, _ := p.Doc().Remove(3) // drop the final linear: output [3] does not fit targets [1]
	err := p.Edit(d2)
	if err == nil || p.Status()[2].Err == "" {
		t.Fatalf("no error after removing the output layer: %v %+v", err, p.Status())
	}
	if p.Stepper().Tape().Len() != before {
		t.Errorf("a broken edit replaced the working tape")
	}
	l, _ := SetField(nn.NewLinear(4), "out", "0")
	d3, _ := DefaultDoc().Replace(0, l)
	if err := p.Edit(d3); err == nil || !strings.Contains(p.Status()[0].Err, "out") {
		t.Errorf("linear out=0: err %v, status %+v", err, p.Status()[0])
	}
	for range 3 {
		if ok, _ := p.Undo(); !ok {
			t.Fatal("undo failed")
		}
	}
	if p.Err() != nil || len(p.Doc().Layers) != 3 || p.CanUndo() {
		t.Errorf("after undoing every edit: err %v, %d layers", p.Err(), len(p.Doc().Layers))
	}
	if ok, err := p.Redo(); !ok || err != nil || len(p.Doc().Layers) != 4 {
		t.Errorf("redo: %v %v %d", ok, err, len(p.Doc().Layers))
	}
	if _, err := SetField(nn.NewLinear(4), "out", "four"); err == nil {
		t.Error("out=four accepted")
	}
	moved, err := DefaultDoc().Move(1, 0)
	if err != nil || moved.Layers[0].Type() != "tanh" {
		t.Errorf("move: %v %v", err, moved.Layers)
	}
}

func TestGradCheck(t *testing.T) {
	for _, m := range []Modes{{}, {L2: 0.1}} {
		p := newTestPlayground(t, m)
		g, err := p.GradCheck(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !g.OK || g.Checked != 17 {
			t.Errorf("%+v: %+v", m, g)
		}
	}
}

func TestFormat(t *testing.T) {
	cases := []struct {
		in   *tensor.Tensor
		want string
	}{
		{tensor.Scalar(0.123456), "0.1235"},
		{tensor.Vector(1, -2.5), "[1 -2.5]"},
		{tensor.Matrix([][]float64{{1, 2}, {3, 4}}), "[[1 2], [3 4]]"},
		{tensor.Zeros(tensor.Shape{5, 5}), "tensor [5 5]"},
		{nil, "—"},
	}
	for _, c := range cases {
		if got := Inline(c.in); got != c.want {
			t.Errorf("Inline(%v) = %q, want %q", c.in, got, c.want)
		}
	}
	sc := paletteScale(t)
	if sc.Colour(0) != "#ffffff" || sc.Colour(math.Inf(1)) != "#f59322" || sc.Colour(math.Inf(-1)) != "#0877bd" {
		t.Errorf("colours: %s %s %s", sc.Colour(0), sc.Colour(math.Inf(1)), sc.Colour(math.Inf(-1)))
	}
	if sc.Colour(0.5) == sc.Colour(5) || sc.Colour(5) == sc.Colour(50) {
		t.Errorf("the scale saturates: 0.5 %s, 5 %s, 50 %s", sc.Colour(0.5), sc.Colour(5), sc.Colour(50))
	}
}

// paletteColours returns the colours of ScaleProperties as the stylesheet
// (static/style.css) defines them.
func paletteColours(t *testing.T) [6]string {
	t.Helper()
	css, err := os.ReadFile("../../static/style.css")
	if err != nil {
		t.Fatal(err)
	}
	var c [6]string
	for i, prop := range ScaleProperties {
		m := regexp.MustCompile(prop + `:\s*(#[0-9a-fA-F]{6});`).FindSubmatch(css)
		if m == nil {
			t.Fatalf("static/style.css defines no colour %s", prop)
		}
		c[i] = string(m[1])
	}
	return c
}

// paletteScale is the scale the page reads from the stylesheet.
func paletteScale(t *testing.T) *Scale {
	t.Helper()
	s, err := NewScale(paletteColours(t))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestScaleMatchesPalette checks that the value scale Go draws from the
// palette has the palette's ends, middle, NaN colour and inks (the CSS
// legend bar and the training picture's keys use those too).
func TestScaleMatchesPalette(t *testing.T) {
	c := paletteColours(t)
	s := paletteScale(t)
	for _, k := range []struct {
		got, want, what string
	}{
		{s.Colour(math.Inf(-1)), c[0], "Colour(-Inf)"},
		{s.Colour(0), c[1], "Colour(0)"},
		{s.Colour(math.Inf(1)), c[2], "Colour(+Inf)"},
		{s.Colour(math.NaN()), c[3], "Colour(NaN)"},
		{s.InkOn(-100), c[4], "InkOn(-100)"},
		{s.InkOn(0.01), c[5], "InkOn(0.01)"},
	} {
		if k.got != k.want {
			t.Errorf("%s = %s, want the palette's %s", k.what, k.got, k.want)
		}
	}
}

// TestNewScaleNamesTheBadColour checks that a palette colour the scale
// cannot read is an error naming its property.
func TestNewScaleNamesTheBadColour(t *testing.T) {
	for i, bad := range []string{"", "#12345", "rgb(1, 2, 3)", "#12345g"} {
		c := paletteColours(t)
		c[i%3] = bad
		_, err := NewScale(c)
		if err == nil || !strings.Contains(err.Error(), ScaleProperties[i%3]) {
			t.Errorf("colour %q: error %v, want one naming %s", bad, err, ScaleProperties[i%3])
		}
	}
}

func TestIRListingMatchesNodes(t *testing.T) {
	for _, m := range []Modes{{Compiled: true}, {Compiled: true, L2: 0.1}} {
		p := newTestPlayground(t, m)
		lines, err := p.IRListing()
		if err != nil {
			t.Fatal(err)
		}
		if len(lines) == 0 {
			t.Fatal("no IR lines")
		}
		nodes := p.Stepper().Nodes()
		for _, l := range lines {
			if l.Node < 0 {
				t.Errorf("%+v: IR line %q matches no tape node", m, l.Text)
				continue
			}
			kind := strings.Fields(l.Text)[2]
			if n := nodes[l.Node]; n.Op != nil && n.Op.Name != kind {
				t.Errorf("%+v: IR line %q matched to node %s", m, l.Text, n.Title())
			}
		}
		if got := len(p.Recording().Listing()); got != len(nodes) {
			t.Errorf("SSA listing has %d lines for %d nodes", got, len(nodes))
		}
	}
	p := newTestPlayground(t, Modes{})
	if lines, err := p.IRListing(); lines != nil || err != nil {
		t.Errorf("eager mode has an IR listing: %v %v", lines, err)
	}
}

// TestStepperLayout: a stepper's layout is its nodes' (Layout), worked out
// once: the second call gives the same layout, not another.
func TestStepperLayout(t *testing.T) {
	s := newTestPlayground(t, Modes{}).Stepper()
	lay, err := s.Layout()
	if err != nil {
		t.Fatal(err)
	}
	want, err := Layout(s.Nodes())
	if err != nil {
		t.Fatal(err)
	}
	if lay.Width != want.Width || lay.Height != want.Height || len(lay.Boxes) != len(want.Boxes) {
		t.Errorf("layout %gx%g of %d boxes, Layout gives %gx%g of %d", lay.Width, lay.Height, len(lay.Boxes), want.Width, want.Height, len(want.Boxes))
	}
	for i := range lay.Boxes {
		if lay.Boxes[i] != want.Boxes[i] {
			t.Errorf("box %d at %+v, Layout puts it at %+v", i, lay.Boxes[i], want.Boxes[i])
		}
	}
	if again, _ := s.Layout(); again != lay {
		t.Error("the second call laid the tape out again")
	}
}
