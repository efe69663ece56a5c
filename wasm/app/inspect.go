package app

import (
	"tapelab/engine/tensor"
)

// Inspect shows a given moment of training in the stepper: it makes doc the
// current model (recorded as an edit unless it already is), takes b as the
// mini-batch and records the step again with the parameter values params
// (state_dict names, e.g. the weights a training run reached or a shared
// link carried) instead of the seeded initial ones. Parameters params does
// not name keep their seeded values. A later edit or mode switch records
// from the seed again.
func (p *Playground) Inspect(doc Doc, params map[string]*tensor.Tensor, b Batch) error {
	p.batch = b
	if !doc.Equal(p.hist.Current()) {
		p.hist.Push(doc)
	}
	return p.rebuildWith(params)
}

// Open is Inspect in the modes m: the model, its modes, mini-batch and
// weights that a link or a lesson's stop carries, recorded once (setting
// the modes first would record the old model in them too).
func (p *Playground) Open(doc Doc, m Modes, params map[string]*tensor.Tensor, b Batch) error {
	p.modes = m
	return p.Inspect(doc, params, b)
}
