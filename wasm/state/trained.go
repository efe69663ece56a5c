package state

import (
	"slices"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// stepWeights returns the weights the training reached on doc, or nil
// when it did not train doc or was reset since (the seeded weights).
func (s *State) stepWeights(doc app.Doc) map[string]*tensor.Tensor {
	if s.trained == nil || !s.trainDoc.Equal(doc) {
		return nil
	}
	return s.trained()
}

// weigh makes the step show the weights the training reached on the
// model, as a teacher who pauses training and opens the stepping view
// expects: when the recorded step has other weights, it is recorded again
// on its mini-batch, in its modes, with the trained ones, and a drawing on
// the batch is predicted anew. A step that got its weights from a training
// (or a link) that has been reset since goes back to the seeded weights.
// A step that already shows them, a model that does not build and a
// program are left as they are. weigh reports whether it recorded.
func (s *State) weigh() bool {
	m := s.model.Model()
	if s.programOn || s.unrecorded || s.opened != nil || m == nil || s.model.Err() != nil {
		return false
	}
	doc := s.model.Doc()
	w := s.stepWeights(doc)
	if w == nil && s.custom != m || w != nil && sameWeights(m, w) {
		return false
	}
	drawing := s.Drawing()
	if err := s.model.Open(doc, s.model.Modes(), w, s.model.Batch()); err != nil {
		return true // recorded all the same, seeded; the error is shown on the layer at fault
	}
	if drawing != nil {
		_, _ = s.useDrawing(*drawing) // its target is the new weights' prediction
	}
	if w == nil && !s.customBatch {
		s.custom = nil // seeded on the dataset's batch: the link need not carry them
	} else {
		s.custom = s.model.Model()
	}
	return true
}

// sameWeights reports whether m's parameters hold w's values.
func sameWeights(m *nn.Model, w map[string]*tensor.Tensor) bool {
	sd := m.StateDict()
	if len(sd) != len(w) {
		return false
	}
	for name, v := range w {
		if p, ok := sd[name]; !ok || !slices.Equal(p.Data, v.Data) {
			return false
		}
	}
	return true
}
