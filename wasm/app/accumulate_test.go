package app

import (
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// TestExplainAccumulation runs the recorded step of the default model
// backward twice without zeroing: every parameter's card says its gradient
// doubled, with the numbers of the fold; after zeroing there is nothing to
// explain; a third pass is a sum, not a doubling.
func TestExplainAccumulation(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	rec := p.Recording()
	seed := tensor.Scalar(1)
	var acc autograd.Grads
	nodes := Describe(rec.Tape)
	var cards []Accumulated
	for pass := range 3 {
		folds, err := rec.Tape.BackwardAccumulate(rec.Loss, seed, &acc)
		if err != nil {
			t.Fatal(err)
		}
		cards = ExplainAccumulation(nodes, folds)
		switch pass {
		case 0:
			if len(cards) != 0 {
				t.Fatalf("first pass: %d cards, want none", len(cards))
			}
		case 1:
			if len(cards) != len(rec.ParamNodes) {
				t.Fatalf("second pass: %d cards, want one per parameter (%d)", len(cards), len(rec.ParamNodes))
			}
			for k, c := range cards {
				g := acc.Of(c.Node)
				if c.Node != rec.ParamNodes[k] || !c.Doubled || !strings.Contains(c.Why, "so it doubled") ||
					c.Rule != c.Name+".grad = "+c.Name+".grad + d"+c.Name || !strings.HasSuffix(c.Numbers, " = "+brief(g, cardLimit)) {
					t.Errorf("second pass, card %d: %+v", k, c)
				}
			}
		case 2:
			for _, c := range cards {
				if c.Doubled || !strings.Contains(c.Why, "sum of every pass") {
					t.Errorf("third pass: %+v", c)
				}
			}
		}
	}
	acc.Zero()
	folds, err := rec.Tape.BackwardAccumulate(rec.Loss, seed, &acc)
	if err != nil {
		t.Fatal(err)
	}
	if cards := ExplainAccumulation(nodes, folds); len(cards) != 0 {
		t.Errorf("after zeroing: %d cards, want none", len(cards))
	}
}
