package state

import (
	"errors"
	"slices"

	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// Replace makes the state the one the link st carries, and announces All.
// st is a decoded link (link.Decode checks its numbers against its model),
// and the state keeps it: the caller must not change it afterwards.
//
// Its view, flags, training settings (a model document without a dataset
// trains on link.DefaultDataset), points and trained weights apply at
// once. Its step (the model recorded on the link's batch, or the dataset's
// first examples, with its weights and modes, or its program; then its
// position) is recorded from st when a view first reads the step (Source,
// Model, Program, Link, or a method that changes the step), so it is
// recorded once, for the view that draws it; Opened reports what of it
// did not apply.
//
// A link on a dataset read from a data file that the state lacks waits
// for it (Waiting): Replace announces only Opened, the state stays as it
// was, and AddDataFile applies the link when the file comes.
func (s *State) Replace(st *link.State) {
	s.opened, s.openErr = st, nil
	if s.Waiting() != "" {
		s.changed(Opened)
		return
	}
	s.apply(st)
}

// Announce repeats what Replace announced of the link it took last (Opened
// alone while the link waits for its data file, else All), changing
// nothing: views that follow the state from now on draw the link a page
// opened before they did.
func (s *State) Announce() {
	if s.Waiting() != "" {
		s.changed(Opened)
		return
	}
	s.changed(All)
}

// apply makes the state st's but for its step, which settle records, and
// announces All.
func (s *State) apply(st *link.State) {
	t := DefaultTraining(link.DefaultDataset) // a program's: the model side stays the default
	s.trainDoc, s.trained = app.Doc{}, nil
	if st.Optimizer != nil { // a program's optimizer of the update phase
		t.Optimizer = *st.Optimizer
	}
	if m := st.Model; st.Program == "" {
		t.Optimizer, t.Batch, t.Compare = m.Optimizer, m.BatchSize, slices.Clone(st.Compare)
		if m.Dataset.Name != "" {
			t.Dataset, t.Data = m.Dataset.Name, m.Dataset
		}
		s.trainDoc = docOf(m)
		s.trained = weights(m.Params)
	}
	if st.Points != nil {
		t.Dataset = PointsDataset
	}
	s.training, s.points, s.flags, s.accumulate = t, st.Points, st.Flags, st.Accumulate
	s.view = link.ViewStep
	if st.View == link.ViewTrain && st.Program == "" {
		s.view = link.ViewTrain
	}
	s.selected, s.drawing = -1, nil
	s.programOn, s.forward = st.Program != "", st.Forward
	s.changed(All)
}

// Opened reports what of the link Replace took last did not apply (a
// dataset that cannot be generated, a position the tape never reaches),
// recording its step first if no view has read it yet; the rest of the
// link stands. It is nil when all of it applied, or while the link waits
// for its data file.
func (s *State) Opened() error {
	s.settle()
	return s.openErr
}

// Waiting returns the dataset whose data file (train.DataFile) the link
// Replace took needs and the state lacks, or "" when it needs none.
func (s *State) Waiting() string {
	st := s.opened
	if st == nil || st.Model == nil {
		return ""
	}
	if name := st.Model.Dataset.Name; train.DataFile(name) != "" && s.files[name] == nil {
		return name
	}
	return ""
}

// settle records the step of the link Replace took (its model or program,
// then its drawing, then its position), unless it waits for a data file;
// what does not apply becomes Opened's error.
func (s *State) settle() {
	st := s.opened
	if st == nil || s.Waiting() != "" {
		if err := s.recordDefault(); err != nil {
			s.openErr = err
		}
		return
	}
	s.opened = nil
	var errs []error
	if st.Program != "" {
		err := s.prog().Open(st.Program, st.Modes)
		if err == nil && st.Params != nil { // the weights the update phase started from
			err = s.prog().SetParams(st.Params)
		}
		errs = append(errs, err)
	} else {
		errs = append(errs, s.replaceModel(st))
		if st.Drawing != nil {
			_, err := s.useDrawing(*st.Drawing)
			errs = append(errs, err)
		}
	}
	errs = append(errs, s.recordDefault()) // a program's link leaves the model side as it was
	if stp := s.Source().Stepper(); stp != nil {
		errs = append(errs, link.Seek(stp, st.Pos))
		if u := st.Update; u != nil {
			errs = append(errs, stp.Resume(train.OptimizerState{Steps: u.Steps, Buffers: u.Buffers}, u.N))
		}
	}
	s.openErr = errors.Join(errs...)
}

// recordDefault records New's default model, if nothing recorded the model
// since, on the dataset's first examples. It returns the dataset's error
// (Opened reports it); the model's own is its Err, shown on the layer at
// fault.
func (s *State) recordDefault() error {
	if !s.unrecorded {
		return nil
	}
	s.unrecorded = false
	doc := s.model.Doc()
	b, err := s.batch(doc)
	if err != nil {
		return err
	}
	_ = s.model.Open(doc, s.model.Modes(), nil, b)
	return nil
}

// replaceModel records the link's model with its modes, batch and weights.
func (s *State) replaceModel(st *link.State) error {
	m := st.Model
	var errs []error
	s.useDataset(s.training.Data.Name)
	var b app.Batch
	var err error
	if st.Batch != nil {
		b, err = batchOf(st.Batch, m)
	} else {
		b, err = s.batch(docOf(m))
	}
	if err != nil {
		errs = append(errs, err)
		b = s.model.Batch()
		if s.unrecorded { // no batch yet: the default model's, as a page that recorded it would have
			b, _ = defaultBatch()
		}
	}
	if s.unrecorded { // the link's model starts the history: there is no default model to undo to
		s.model, s.unrecorded = app.Unrecorded(docOf(m)), false
	}
	errs = append(errs, s.model.Open(docOf(m), st.Modes, m.Params, b))
	s.custom, s.customBatch = nil, false
	if len(m.Params) > 0 || st.Batch != nil {
		s.custom, s.customBatch = s.model.Model(), st.Batch != nil
	}
	return errors.Join(errs...)
}

// docOf is the playground's document of the model m.
func docOf(m *spec.Model) app.Doc {
	return app.Doc{Input: m.Input, Layers: m.Layers, Loss: m.Loss, Seed: m.Seed}
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
// with its modes, forward mode, position, flags, the optimizer of its
// update phase (when not the default) and, once the optimizer has stepped,
// the phase with the weights it started from (when they are not the
// text's literals); else the model with the training
// settings, the weights on screen (the training's in the training view,
// those a link or a training step gave the step in the stepping view,
// with its batch), the position and the drawing on the batch. A link that
// waits for its data file is given back as it came.
func (s *State) Link() *link.State {
	s.settle()
	if s.opened != nil { // waiting for its data file: the link as it came
		st := *s.opened
		return &st
	}
	st := &link.State{View: s.view, Flags: s.Flags(), Accumulate: s.accumulate}
	if s.programOn {
		pg := s.prog()
		st.Program, st.Modes, st.Forward = pg.Text(), pg.Modes(), s.Forward()
		if o := s.training.Optimizer; o != train.DefaultOptimizer("sgd") {
			st.Optimizer = &o
		}
		if stp := pg.Stepper(); stp != nil && pg.Recorded() {
			st.Pos = link.PositionOf(stp)
			st.Params, st.Update = pg.Params(), phaseOf(stp)
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
	st.Compare = slices.Clone(s.training.Compare)
	if stp := pg.Stepper(); stp != nil && s.view == link.ViewStep {
		st.Pos = link.PositionOf(stp)
		st.Drawing = s.Drawing()
		s.linkUpdate(st, stp)
	}
	return st
}

// linkUpdate puts into st the update phase of stp, if its optimizer has
// stepped: its state as the phase started, the updates since, and the
// weights the phase started from (with the batch they were stepped on).
func (s *State) linkUpdate(st *link.State, stp *app.Stepper) {
	u := phaseOf(stp)
	if u == nil {
		return
	}
	pg := s.model
	st.Model.Params = pg.Model().StateDict()
	for k, p := range pg.Model().Seq.Params() {
		i := pg.Recording().ParamNodes[k]
		st.Model.Params[p.Name] = &tensor.Tensor{Shape: p.Shape, Data: slices.Clone(stp.PhaseWeights(i))}
	}
	st.Batch, st.Update = pointsOf(pg.Batch()), u
}

// phaseOf is stp's update phase as a link carries it: the optimizer's
// state as the phase started and the updates since; nil while the
// optimizer has taken no step.
func phaseOf(stp *app.Stepper) *link.Update {
	ost, n, ok := stp.PhaseState()
	if !ok {
		return nil
	}
	return &link.Update{N: n, Steps: ost.Steps, Buffers: ost.Buffers} // a nil buffer is written []
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
