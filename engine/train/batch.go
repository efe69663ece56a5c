package train

import "tapelab/engine/tensor"

// Batch returns copies of the inputs and targets of the last step's
// mini-batch, shaped as the model takes them, or nils before the first
// step: a page can then record exactly that step again to show its tape.
func (t *Trainer) Batch() (x, y *tensor.Tensor) {
	if t.step == 0 {
		return nil, nil
	}
	return t.xb.Clone(), t.yb.Clone()
}
