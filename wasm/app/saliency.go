package app

import (
	"errors"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// InputGrad returns dL/dx, the gradient of the recorded step's loss with
// respect to the mini-batch's inputs, shaped like them ([n C H W] for an
// image model): the saliency map, "what the network looks at". The tape
// does not compute it (the inputs need no gradient to train), so the step
// is run once more on the same model, batch, modes and randomness with the
// inputs as leaves that want a gradient.
func (p *Playground) InputGrad() (*tensor.Tensor, error) {
	if p.model == nil {
		return nil, errors.New("no model to differentiate")
	}
	modes := p.modes
	modes.Compiled = false
	r, err := record(p.model, p.batch, modes, p.seed, true)
	if err != nil {
		return nil, err
	}
	var g autograd.Grads
	if err := r.Tape.BackwardDense(r.Loss, tensor.Scalar(1), &g); err != nil {
		return nil, err
	}
	dx := g.Of(0)
	if dx == nil {
		return nil, errors.New("the loss does not depend on the inputs")
	}
	return dx.Clone(), nil
}
