package app

import (
	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Accumulated is the chain-rule card's account of one parameter gradient
// after a backward pass run without zeroing the gradients first (the Step
// view's "zero gradients before backward" switched off): the rule, the
// numbers, and why the gradient grew.
type Accumulated struct {
	// Node is the parameter's node and Name its name ("0.weight", "x").
	Node int
	Name string
	// Rule is the fold, e.g. "0.weight.grad = 0.weight.grad + d0.weight".
	Rule string
	// Numbers is the fold with the values put in (shapes for large ones).
	Numbers string
	// Doubled reports that the kept gradient equals this pass's, bit for
	// bit, so the sum is exactly twice one pass's.
	Doubled bool
	// Why says why the gradient is a sum.
	Why string
}

// ExplainAccumulation words the folds of autograd's AccumulateLeaves for
// the card, one per parameter that kept a gradient from an earlier pass
// (a first pass, or one after zeroing, adds to nothing and needs no
// explanation).
func ExplainAccumulation(nodes []NodeInfo, folds []autograd.Accumulation) []Accumulated {
	var out []Accumulated
	for _, f := range folds {
		if f.Kept == nil {
			continue
		}
		name := nodes[f.Leaf].Label
		a := Accumulated{Node: f.Leaf, Name: name,
			Rule:    name + ".grad = " + name + ".grad + d" + name,
			Numbers: brief(f.Kept, cardLimit) + " + " + brief(f.Pass, cardLimit) + " = " + brief(f.After, cardLimit),
			Doubled: tensor.Identical(f.Kept, f.Pass)}
		a.Why = "The gradients were not zeroed before this backward pass, so it added d" + name +
			" to what the last pass left in " + name + ".grad instead of replacing it: backward always adds (+=) into a parameter's gradient, and only zeroing (PyTorch's optimizer.zero_grad()) clears it."
		if a.Doubled {
			a.Why += " Both passes ran on the same values and computed the same gradient, so it doubled."
		} else {
			a.Why += " It now holds the sum of every pass since the gradients were last zeroed."
		}
		out = append(out, a)
	}
	return out
}
