package autograd

import (
	"fmt"

	"tapelab/engine/tensor"
)

// Accumulation is one leaf's gradient as AccumulateLeaves folded it:
// the gradient it kept from earlier passes, this pass's, and their sum.
type Accumulation struct {
	// Leaf is the leaf's node id.
	Leaf int
	// Kept is the gradient the leaf held before the fold, or nil when it
	// held none (the first pass, or the first after zeroing).
	Kept *tensor.Tensor
	// Pass is this pass's gradient of the leaf.
	Pass *tensor.Tensor
	// After is Kept + Pass (Pass when Kept is nil).
	After *tensor.Tensor
}

// AccumulateLeaves folds one reverse pass over t into acc the way
// PyTorch's backward folds into .grad when zero_grad() was not called:
// every leaf that requires a gradient and that the pass reached gets the
// pass's whole gradient added to the one acc keeps for it (kept + new,
// elementwise, with the fold every pass uses; an empty slot takes it as
// is), while every other slot of acc becomes the pass's own (an op node's
// gradient belongs to one pass, as PyTorch keeps none for non-leaves).
// Adding the pass's sum, not each contribution in turn, is what PyTorch
// does (a leaf's AccumulateGrad runs once its incoming gradients are
// summed), and it makes two passes over the same values give exactly
// twice the gradient, bit for bit (g + g = 2g in IEEE arithmetic).
//
// pass holds one pass over t (a one-shot pass's Grads, or Cursor.Grads);
// acc is empty or holds earlier folds over t. Zeroing before backward is
// acc.Zero(): the next fold leaves acc equal to the pass. It returns one
// Accumulation per leaf it added to, in id order, with copies of the
// tensors.
func (t *Tape) AccumulateLeaves(acc, pass *Grads) ([]Accumulation, error) {
	if pass.Len() > t.n {
		return nil, fmt.Errorf("autograd: AccumulateLeaves: the pass has %d slots, the tape %d nodes", pass.Len(), t.n)
	}
	switch acc.Len() {
	case t.n:
	case 0:
		acc.reset(t.n)
	default:
		return nil, fmt.Errorf("autograd: AccumulateLeaves: the kept gradients have %d slots, the tape %d nodes (zero them for a new tape)", acc.Len(), t.n)
	}
	var out []Accumulation
	for i := 0; i < t.n; i++ {
		nd := &t.nodes[i]
		g := pass.Of(i)
		if nd.Op != nil {
			if g == nil {
				acc.set[i] = false
			} else {
				acc.store(i, g)
			}
			continue
		}
		if g == nil || !nd.RequiresGrad {
			continue
		}
		a := Accumulation{Leaf: i, Kept: cloneOrNil(acc.Of(i)), Pass: g.Clone()}
		acc.accumulate(i, g, t.prec)
		a.After = acc.Of(i).Clone()
		out = append(out, a)
	}
	return out, nil
}

// BackwardAccumulate is BackwardDense from out with seed run without
// zeroing acc first: the pass runs on its own gradients (kept in acc
// between calls, so repeated passes allocate nothing new) and
// AccumulateLeaves folds it into acc. Calling acc.Zero() before it is
// zero_grad() before backward.
func (t *Tape) BackwardAccumulate(out int, seed *tensor.Tensor, acc *Grads) ([]Accumulation, error) {
	if acc.pass == nil {
		acc.pass = &Grads{}
	}
	if err := t.BackwardDense(out, seed, acc.pass); err != nil {
		return nil, err
	}
	return t.AccumulateLeaves(acc, acc.pass)
}
