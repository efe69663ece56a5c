package program

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/tensor"
)

// TestForwardEqualsReverse runs forward mode along the one-hot direction of
// every entry of every leaf of every example, and along a dense direction,
// and checks the output's tangent against ⟨gradient, direction⟩, eagerly
// and on the compiled tape.
func TestForwardEqualsReverse(t *testing.T) {
	for _, ex := range Examples() {
		p, err := Parse(ex.Text)
		if err != nil {
			t.Fatal(err)
		}
		for li, l := range p.Leaves() {
			for i := range l.Value.Data {
				dir, err := p.OneHot(li, i)
				if err != nil {
					t.Fatal(err)
				}
				c, err := p.CheckForward(dir)
				if err != nil {
					t.Fatal(err)
				}
				if !c.Agree {
					t.Errorf("%s d%s[%d]: %v", ex.Name, l.Name, i, c)
				}
			}
		}
		dense := make([]float64, 0)
		dir, _ := p.OneHot(0, 0)
		for k, d := range dir {
			for i := range d.Data {
				d.Data[i] = math.Sin(float64(3*k + i + 1))
				dense = append(dense, d.Data[i])
			}
		}
		c, err := p.CheckForward(dir)
		if err != nil || !c.Agree {
			t.Errorf("%s dense direction %v: %v %v", ex.Name, dense, c, err)
		}
		// the compiled tape gives the same tangents, bit for bit
		s, _ := p.Eager()
		comp, err := p.Compile()
		if err != nil {
			t.Fatal(err)
		}
		a, _ := p.Forward(s.Tape(), dir)
		b, err := p.Forward(comp.Tape(), dir)
		if err != nil {
			t.Fatal(err)
		}
		if m := identical(ex.Name+" tangents eager vs compiled", a.Of, b.Of); m != "" {
			t.Error(m)
		}
	}
}

// TestForwardMicrograd pins micrograd's tangents: along a, dL/da = b·f = 6
// exactly, and every node on the way has its tangent.
func TestForwardMicrograd(t *testing.T) {
	p, _ := Parse(Examples()[0].Text)
	dir, _ := p.OneHot(0, 0)
	c, err := p.CheckForward(dir)
	if err != nil {
		t.Fatal(err)
	}
	if !c.Exact || c.Forward != 6 || !strings.Contains(c.String(), "exactly") {
		t.Errorf("micrograd along a: %+v (%v)", c, c)
	}
	s, _ := p.Eager()
	tg, _ := p.Forward(s.Tape(), dir)
	want := map[string]float64{"a": 1, "b": 0, "e": -3, "d": -3, "L": 6}
	for id, name := range p.Names() {
		if w, ok := want[name]; ok {
			got := 0.0
			if tg.Of[id] != nil {
				got = tg.Of[id].Data[0]
			}
			if got != w {
				t.Errorf("tangent of %s = %v, want %v", name, got, w)
			}
		}
	}
}

// TestForwardWithoutJVP checks that an op without a JVP (detach has none;
// its operand takes no gradient, so the direction stops there) is not an
// error, and that an op that has none on the direction's way is named.
func TestForwardWithoutJVP(t *testing.T) {
	p, err := Parse("x = param([1, 2])\ny = detach(x) * x\nz = sum(y)\n")
	if err != nil {
		t.Fatal(err)
	}
	dir, _ := p.OneHot(0, 1)
	c, err := p.CheckForward(dir)
	if err != nil || !c.Agree || c.Forward != 2 {
		t.Errorf("detach: %v %v", c, err)
	}
	// An op without a JVP that the direction reaches: a copy of the
	// catalogue's tanh with its JVP removed, put on the tape by hand.
	p, _ = Parse("x = param(0.5)\ny = tanh(x)\nz = y * 2\n")
	s, _ := p.Eager()
	tp := s.Tape()
	noJVP := *tp.Node(1).Op
	noJVP.JVP = nil
	tp.Node(1).Op = &noJVP
	tg, err := p.Forward(tp, []*tensor.Tensor{tensor.Scalar(1)})
	if err != nil {
		t.Fatal(err)
	}
	if len(tg.Missing) != 1 || tg.Missing[0] != "tanh" || tg.Known[1] || tg.Known[3] || !tg.Known[0] {
		t.Errorf("missing %v, known %v", tg.Missing, tg.Known)
	}
}
