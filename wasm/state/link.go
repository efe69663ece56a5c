package state

import (
	"errors"

	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// Replace makes the state the one a link carries, and announces All: its
// view, flags, training settings (a model document without a dataset
// trains on link.DefaultDataset) and points (with them, the training view
// trains on the points); then its model, recorded on the link's batch (or
// the dataset's first examples) with its weights and modes, or its
// program; then its drawing; then its position. What does not apply (weights that do not
// fit, a position the tape never reaches) is the error, and the rest
// stands.
func (s *State) Replace(st *link.State) error {
	m := st.Model
	t := DefaultTraining(link.DefaultDataset) // a program's: the model side stays the default
	if st.Program == "" {
		t.Optimizer, t.Batch = m.Optimizer, m.BatchSize
		if m.Dataset.Name != "" {
			t.Dataset, t.Data = m.Dataset.Name, m.Dataset
		}
	}
	if st.Points != nil {
		t.Dataset = PointsDataset
	}
	s.training, s.points, s.flags, s.accumulate = t, st.Points, cloneFlags(st.Flags), st.Accumulate
	s.view = link.ViewStep
	if st.View == link.ViewTrain && st.Program == "" {
		s.view = link.ViewTrain
	}
	s.selected, s.drawing = -1, nil
	var errs []error
	if st.Program != "" {
		s.programOn = true
		errs = append(errs, s.program.Open(st.Program, st.Modes))
	} else {
		s.programOn = false
		errs = append(errs, s.replaceModel(m, st))
		if st.Drawing != nil {
			_, err := s.useDrawing(*st.Drawing)
			errs = append(errs, err)
		}
	}
	if stp := s.Source().Stepper(); stp != nil {
		errs = append(errs, link.Seek(stp, st.Pos))
	}
	s.changed(All)
	return errors.Join(errs...)
}

// replaceModel records the link's model m with its modes, batch and
// weights.
func (s *State) replaceModel(m *spec.Model, st *link.State) error {
	doc := app.Doc{Input: m.Input, Layers: m.Layers, Loss: m.Loss, Seed: m.Seed}
	var errs []error
	s.useDataset(s.training.Data.Name)
	errs = append(errs, s.model.SetModes(st.Modes))
	var b app.Batch
	var err error
	if st.Batch != nil {
		b, err = batchOf(st.Batch, m)
	} else {
		b, err = s.batch(doc)
	}
	if err != nil {
		errs = append(errs, err)
		b = s.model.Batch()
	}
	errs = append(errs, s.model.Inspect(doc, m.Params, b))
	s.custom, s.customBatch = nil, false
	if len(m.Params) > 0 || st.Batch != nil {
		s.custom, s.customBatch = s.model.Model(), st.Batch != nil
	}
	s.trainDoc, s.trained = doc, weights(m.Params)
	return errors.Join(errs...)
}

// batchOf turns a link's batch into the playground's.
func batchOf(p *link.Points, m *spec.Model) (app.Batch, error) {
	y := make([][]float64, len(p.Y))
	for i, v := range p.Y {
		y[i] = []float64{v}
	}
	return app.MiniBatch(tensor.Matrix(p.X), tensor.Matrix(y), len(p.X), m.Loss)
}

// Link returns the state as a link carries it: in Program mode the program
// with its modes, position and flags; else the model with the training
// settings, the weights on screen (the training's in the training view,
// those a link or a training step gave the step in the stepping view,
// with its batch), the position and the drawing on the batch.
func (s *State) Link() *link.State {
	st := &link.State{View: s.view, Flags: s.Flags(), Accumulate: s.accumulate}
	if s.programOn {
		pg := s.program
		st.Program, st.Modes = pg.Text(), pg.Modes()
		if stp := pg.Stepper(); stp != nil && pg.Recorded() {
			st.Pos = link.PositionOf(stp)
		}
		return st
	}
	pg := s.model
	st.Modes = pg.Modes()
	m := s.SpecModel()
	if s.training.Dataset == PointsDataset {
		st.Points = s.points
	}
	if s.view == link.ViewTrain && s.trained != nil && s.trainDoc.Equal(pg.Doc()) {
		m.Params = s.trained()
	}
	if s.view == link.ViewStep && s.custom != nil && pg.Model() == s.custom {
		m.Params = pg.Model().StateDict()
		if s.customBatch {
			st.Batch = pointsOf(pg.Batch())
		}
	}
	st.Model = m
	if stp := pg.Stepper(); stp != nil && s.view == link.ViewStep {
		st.Pos = link.PositionOf(stp)
		st.Drawing = s.Drawing()
	}
	return st
}

// SpecModel is the model document of the edited model with the training
// settings (no weights).
func (s *State) SpecModel() *spec.Model {
	d := s.model.Doc()
	m := spec.New(d.Input, d.Loss, d.Layers...)
	m.Seed = d.Seed
	s.training.Into(m)
	return m
}

// pointsOf turns the playground's batch into a link's.
func pointsOf(b app.Batch) *link.Points {
	n := b.X.Shape[0]
	w := len(b.X.Data) / n
	p := &link.Points{X: make([][]float64, n), Y: make([]float64, n)}
	for i := range n {
		p.X[i] = append([]float64(nil), b.X.Data[i*w:(i+1)*w]...)
		p.Y[i] = b.Y.Data[i*(len(b.Y.Data)/n)]
	}
	return p
}
