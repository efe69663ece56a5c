package app

import (
	"errors"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
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
	m := p.model
	b := p.batch.shaped(m.Seq.Input())
	s := autograd.NewSession()
	in := []op.Value{s.Leaf(b.X, "x", autograd.Input, true), s.Input(b.Y, "y")}
	for i, ps := range m.Seq.Params() {
		if ps.Buffer {
			in = append(in, s.Buffer(m.Params[i], ps.Name))
		} else {
			in = append(in, s.Param(m.Params[i], ps.Name))
		}
	}
	var mk marks
	loss := stepProgram(m, p.modes, p.seed, &mk)(s, in)
	var g autograd.Grads
	if err := s.Backward(loss, &g); err != nil {
		return nil, err
	}
	dx := g.Of(int(in[0]))
	if dx == nil {
		return nil, errors.New("the loss does not depend on the inputs")
	}
	return dx.Clone(), nil
}
