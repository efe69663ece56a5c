package app

import (
	"strings"
	"testing"

	"tapelab/engine/autograd"
)

// TestStepperStopsAtTheFirstNaN steps programs in each mode and checks
// where the stepper says it stopped: the node, the element and the reason;
// that later nodes carry the mark with where their value came from; and
// that stepping back forgets it.
func TestStepperStopsAtTheFirstNaN(t *testing.T) {
	for _, c := range []struct {
		name, src string
		// node is the variable whose step stops first; why a part of its
		// reason; then the backward stop's node and reason ("" for none).
		node, elem, why, bnode, bwhy string
	}{
		{"log of 0", "x = param([1.0, 0.0, 2.0])\ny = log(x)\nL = sum(y)\n",
			"y", "[1]", "log(0) = −∞", "y", "the gradient flows through an infinite value"},
		{"exp overflows", "x = param([1.0, 710.0])\ny = exp(x)\nL = sum(y * y)\n",
			"y", "[1]", "exp(710) = +∞: exp overflows above 709.78 in float64", "", ""},
		{"0/0", "a = param([0.0])\nb = param([0.0])\nq = a / b\nL = sum(q)\n",
			"q", "[0]", "0 / 0 = NaN", "", ""},
	} {
		for _, m := range []Modes{{}, {Single: true}, {Compiled: true, Single: true}} {
			p, err := NewProgramPlayground(c.src)
			if err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
			if err := p.SetModes(m); err != nil {
				t.Fatal(err)
			}
			s := p.Stepper()
			id := func(name string) int {
				for i, n := range s.Nodes() {
					if strings.HasPrefix(n.Label, name+" = ") {
						return i
					}
				}
				t.Fatalf("%s: no node %q in %v", c.name, name, s.Nodes())
				return -1
			}
			if !s.ToFault() {
				t.Fatalf("%s %+v: no stop", c.name, m)
			}
			i := s.Focus()
			if want := id(c.node); i != want {
				t.Fatalf("%s %+v: stopped at node %d, want %d", c.name, m, i, want)
			}
			fs := s.Faults(i)
			if len(fs) != 1 || fs[0].Elem != c.elem || !strings.Contains(fs[0].Why, c.why) || fs[0].Backward {
				t.Fatalf("%s %+v: faults %+v", c.name, m, fs)
			}
			if st := s.State(i); !st.Has(NonFinite | FirstNonFinite) {
				t.Errorf("%s: state %b lacks the marks", c.name, st)
			}
			// The next step shows how it spreads: the sum's value came from y.
			s.Step()
			if s.Stopped() {
				t.Errorf("%s: stopped again at %d", c.name, s.Focus())
			}
			if next := s.Faults(s.Focus()); len(next) != 1 || next[0].From != i {
				t.Errorf("%s %+v: the next node's fault %+v does not say it came from node %d", c.name, m, next, i)
			} else if s.State(s.Focus()).Has(FirstNonFinite) || !s.State(s.Focus()).Has(NonFinite) {
				t.Errorf("%s: the spread node's state %b", c.name, s.State(s.Focus()))
			}
			s.Back()
			s.Back()
			if s.State(i).Has(NonFinite) || s.Bad(i) != 0 {
				t.Errorf("%s: stepping back kept the mark on node %d", c.name, i)
			}
			s.Reset()
			if c.bnode == "" {
				continue
			}
			s.ToFault() // the forward stop
			if !s.ToFault() {
				t.Fatalf("%s %+v: no backward stop", c.name, m)
			}
			if fs := s.Faults(s.Focus()); s.Focus() != id(c.bnode) || len(fs) != 2 || !fs[1].Backward || !strings.Contains(fs[1].Why, c.bwhy) {
				t.Errorf("%s %+v: backward stop at %d: %+v", c.name, m, s.Focus(), fs)
			}
			if s.Position().Phase != autograd.PhaseBackward && s.Position().Phase != autograd.PhaseDone {
				t.Errorf("%s: backward stop in phase %v", c.name, s.Position().Phase)
			}
		}
	}
}

// TestToFaultWithoutNaN goes back to the start when the tape is finite.
func TestToFaultWithoutNaN(t *testing.T) {
	p, err := NewProgramPlayground("x = param(2.0)\nL = x * x\n")
	if err != nil {
		t.Fatal(err)
	}
	s := p.Stepper()
	if s.ToFault() || s.Counts().Forward != 0 {
		t.Errorf("ToFault on a finite tape: %v at %+v", s.Stopped(), s.Counts())
	}
}
