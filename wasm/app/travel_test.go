package app

import (
	"testing"

	"tapelab/engine/autograd"
)

// TestTravelsFollowTheSteps steps the default model to the end in the
// single-output pass: each forward step reads along one edge per operand,
// each backward step sends one travel per contribution back along its edge,
// labelled "=" for a parent's first contribution of the pass and "+=" after.
func TestTravelsFollowTheSteps(t *testing.T) {
	for _, m := range []Modes{{}, {Single: true}, {L2: 0.1}} {
		travelsFollow(t, m)
	}
}

func travelsFollow(t *testing.T, m Modes) {
	s := newTestPlayground(t, m).Stepper()
	nodes := s.Nodes()
	got := map[int]int{} // contributions each parent has received
	plus := 0
	for {
		e, ok := s.Step()
		if !ok {
			break
		}
		tr := s.Travels(&e)
		switch e.Kind {
		case autograd.EventForward:
			if len(tr) != len(nodes[e.Node].Parents) {
				t.Fatalf("forward node %d: %d travels for %d operands", e.Node, len(tr), len(nodes[e.Node].Parents))
			}
			for k, x := range tr {
				if x.Backward || x.Child != e.Node || x.Parent != nodes[e.Node].Parents[k] || x.Operand != k || x.Label != "" {
					t.Errorf("%+v: forward node %d, operand %d: %+v", m, e.Node, k, x)
				}
			}
		case autograd.EventBackward:
			if len(tr) != len(e.Contribs) {
				t.Fatalf("backward node %d: %d travels for %d contributions", e.Node, len(tr), len(e.Contribs))
			}
			for k, x := range tr {
				c := e.Contribs[k]
				want := "="
				if got[c.Parent] > 0 {
					want, plus = "+=", plus+1
				}
				got[c.Parent]++
				if !x.Backward || x.Parent != c.Parent || x.Child != e.Node || nodes[e.Node].Parents[x.Operand] != x.Parent || x.Label != want {
					t.Errorf("%+v: backward node %d, contribution %d: %+v, want label %q", m, e.Node, k, x, want)
				}
			}
		}
	}
	if m.L2 > 0 && plus == 0 {
		t.Fatalf("%+v: the backward pass sent no += contribution: the test does not cover fan-in", m)
	}
	if tr := s.Travels(&autograd.Event{Kind: autograd.EventUndoForward, Node: 3}); tr != nil {
		t.Errorf("undoing a step sends %v", tr)
	}
	if tr := s.Travels(&autograd.Event{Kind: autograd.EventReset, Node: -1}); tr != nil {
		t.Errorf("a reset sends %v", tr)
	}
}

// TestTravelsSameParentArriveInTurn: with L2 the weight's square W⊙W sends
// two contributions to W along its two edges; the second leaves half a
// travel later and adds to the first.
func TestTravelsSameParentArriveInTurn(t *testing.T) {
	p := newTestPlayground(t, Modes{L2: 0.1})
	s := p.Stepper()
	w := p.Recording().ParamNodes[0]
	sq := -1
	for i, n := range s.Nodes() {
		if len(n.Parents) == 2 && n.Parents[0] == w && n.Parents[1] == w {
			sq = i
		}
	}
	if sq < 0 {
		t.Fatal("no W⊙W node on the tape")
	}
	for {
		e, ok := s.Step()
		if !ok {
			t.Fatal("W⊙W's VJP never ran")
		}
		if e.Kind != autograd.EventBackward || e.Node != sq {
			continue
		}
		tr := s.Travels(&e)
		if len(tr) != 2 || tr[0].Operand != 0 || tr[1].Operand != 1 || tr[0].Parent != w || tr[1].Parent != w {
			t.Fatalf("W⊙W sends %+v", tr)
		}
		if tr[0].Delay != 0 || tr[1].Delay != 0.5 || tr[1].Label != "+=" {
			t.Errorf("the second contribution to W must leave later and add: %+v", tr)
		}
		return
	}
}

func TestTravelMs(t *testing.T) {
	for _, tc := range []struct {
		rate int
		want float64
	}{{4, 300}, {1, 600}, {0, 600}, {8, 150}, {20, 60}, {100, 40}} {
		if got := TravelMs(tc.rate); got != tc.want {
			t.Errorf("TravelMs(%d) = %v, want %v", tc.rate, got, tc.want)
		}
	}
}
