package state

import (
	"errors"
	"slices"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/trainer"
)

// Source is what the tape's views step and show: the model's training step
// (app.Playground) or a program (app.ProgramPlayground). Both record into
// the same Recording and Stepper, so the tape, the inspector, the listings,
// the passes and the gradient check serve both.
type Source interface {
	Stepper() *app.Stepper
	Recording() *app.Recording
	Modes() app.Modes
	Passes() (app.Passes, error)
	GradCheck(yield func()) (app.GradCheck, error)
	IRListing() ([]app.IRLine, error)
	Err() error
	CanUndo() bool
	CanRedo() bool
}

// Model returns the model playground, to read: change it through the
// State's methods.
func (s *State) Model() *app.Playground {
	s.settle()
	return s.model
}

// Program returns the program playground, to read: change it through the
// State's methods.
func (s *State) Program() *app.ProgramPlayground {
	s.settle()
	return s.prog()
}

// ProgramMode reports whether the program, not the model, is stepped.
func (s *State) ProgramMode() bool { return s.programOn }

// Source returns what is stepped: the program in Program mode, else the
// model.
func (s *State) Source() Source {
	s.settle()
	var src Source = s.model
	if s.programOn {
		src = s.prog()
	}
	if st := src.Stepper(); st != nil {
		_ = st.SetOptimizer(s.training.Optimizer) // the single-output pass has no update phase
	}
	return src
}

// Update takes the update phase's next step (back: takes its last one
// back) on the stepper of what is stepped, and tells the views the new
// position with no event, as Jump does; see app.Stepper's Update and
// UnUpdate. The pinned node is let go first.
func (s *State) Update(back bool) bool {
	st, c := s.stepper()
	if st == nil {
		return false
	}
	var ok bool
	if back {
		ok = st.UnUpdate()
	} else {
		ok = st.Update()
	}
	if ok || c.Has(Selection) {
		s.changed(c)
	}
	return ok
}

// recorded announces that the step was recorded again (c adds what else
// changed); the pinned node goes with the old tape.
func (s *State) recorded(c Change) {
	s.selected = -1
	s.changed(Step | Selection | Position | c)
}

// SetProgramMode switches between stepping the model and the program; the
// program is stepped in the stepping view.
func (s *State) SetProgramMode(on bool) {
	s.settle()
	if s.programOn == on {
		return
	}
	s.programOn = on
	c := Editing
	if on && s.view != link.ViewStep {
		s.view = link.ViewStep
		c |= View
	}
	s.recorded(c)
}

// Edit makes doc the model, as an edit that can be undone, and records its
// step from the seed; the error is the engine's reason when doc does not
// build (the edit is kept, to be fixed or undone).
func (s *State) Edit(doc app.Doc) error {
	s.settle()
	if cur := s.model.Doc(); doc.Loss != cur.Loss || !doc.Input.Equal(cur.Input) {
		if b, err := s.batch(doc); err == nil { // the batch changes shape
			err = s.model.EditOn(doc, b)
			s.recorded(0)
			return err
		}
	}
	err := s.model.Edit(doc)
	s.recorded(0)
	return err
}

// EditProgram makes src the program's text, as an edit, and records it
// when it runs; the error is the program's *program.Error.
func (s *State) EditProgram(src string) error {
	s.settle()
	err := s.prog().Edit(src)
	s.recorded(0)
	return err
}

// OpenProgram shows src (an example of the gallery) in Program mode with
// the modes m, as one edit.
func (s *State) OpenProgram(src string, m app.Modes) error {
	s.settle()
	err := s.prog().Open(src, m)
	s.programOn = true
	s.view = link.ViewStep
	s.recorded(Doc | Editing | View)
	return err
}

// Forward returns the direction of the program's forward mode, one row
// per leaf (nil: reverse mode), fitted to the recorded program's leaves as
// forward mode draws it: a direction that no longer fits (after an edit)
// becomes the one-hot of the first leaf. The caller must not change it.
func (s *State) Forward() [][]float64 {
	s.settle()
	if s.forward == nil {
		return nil
	}
	if _, err := s.prog().Direction(s.forward); err != nil {
		if dir, err := s.prog().OneHot(0); err == nil {
			return app.DirectionRows(dir)
		}
	}
	return s.forward
}

// SetForward turns the program's forward mode on along dir (one row per
// leaf), or off (nil). The state keeps dir: the caller must not change it.
func (s *State) SetForward(dir [][]float64) {
	s.forward = dir
	s.changed(Forward)
}

// Undo takes back the last edit of what is stepped.
func (s *State) Undo() bool { return s.history(func(h history) (bool, error) { return h.Undo() }) }

// Redo repeats the last undone edit of what is stepped.
func (s *State) Redo() bool { return s.history(func(h history) (bool, error) { return h.Redo() }) }

type history interface {
	Undo() (bool, error)
	Redo() (bool, error)
}

func (s *State) history(move func(history) (bool, error)) bool {
	s.settle()
	var h history = s.model
	if s.programOn {
		h = s.prog()
	}
	ok, _ := move(h) // an error is shown where it is (the layer or the line at fault)
	if ok {
		s.weigh() // back to the model the training trained: its weights
		s.recorded(Doc)
	}
	return ok
}

// SetModes switches the modes of what is stepped and records it again.
func (s *State) SetModes(m app.Modes) error {
	s.settle()
	var err error
	if s.programOn {
		err = s.prog().SetModes(m)
	} else {
		err = s.model.SetModes(m)
		s.weigh()
	}
	s.recorded(0)
	return err
}

// Dataset returns the stepping view's dataset.
func (s *State) Dataset() string {
	s.settle()
	return s.dataset
}

// SetDataset makes the step's mini-batch the first examples of the
// generated dataset name and records it again; an unknown name is an
// error and changes nothing.
func (s *State) SetDataset(name string) error {
	s.settle()
	old, oldData := s.dataset, s.data
	s.useDataset(name)
	b, err := s.batch(s.model.Doc())
	if err != nil {
		s.dataset, s.data = old, oldData
		return err
	}
	_ = s.model.SetBatch(b) // the error is shown on the layer at fault
	s.weigh()
	s.recorded(0)
	return nil
}

// AddDataFile keeps d, read from the named dataset's data file
// (train.DataFile), for the batches and the training on that dataset.
// When the link Replace took was waiting for it, the link applies now
// (announcing All).
func (s *State) AddDataFile(name string, d *train.Dataset) {
	if s.files == nil {
		s.files = map[string]*train.Dataset{}
	}
	waited := s.Waiting() == name
	s.files[name] = d
	if waited {
		s.apply(s.opened)
	}
}

// DataFile returns what AddDataFile kept for the named dataset, or nil.
func (s *State) DataFile(name string) *train.Dataset { return s.files[name] }

// useDataset makes name the dataset the next batch is taken from.
func (s *State) useDataset(name string) {
	if s.dataset != name {
		s.dataset, s.data = name, nil
	}
}

// dataConfig is how the stepping view's dataset is generated: with the
// document's settings (noise, seed, size, split) when they are of that
// dataset, else with its defaults.
func (s *State) dataConfig() train.DataConfig {
	if s.training.Data.Name == s.dataset {
		return s.training.Data
	}
	return train.DefaultData(s.dataset)
}

// batch generates the chosen dataset and takes its first examples.
func (s *State) batch(d app.Doc) (app.Batch, error) {
	if c := s.dataConfig(); s.data == nil || s.dataOf != c {
		tr, _, err := trainer.Generate(c, s.files[s.dataset])
		if err != nil {
			return app.Batch{}, err
		}
		s.data, s.dataOf = tr, c
	}
	return app.MiniBatch(s.data.X, s.data.Y, BatchSize, d.Loss)
}

// defaultBatch is the default model's mini-batch: the first examples of
// link.DefaultDataset.
func defaultBatch() (app.Batch, error) {
	tr, _, err := train.Generate(train.DefaultData(link.DefaultDataset))
	if err != nil {
		return app.Batch{}, err
	}
	return app.MiniBatch(tr.X, tr.Y, BatchSize, app.DefaultDoc().Loss)
}

// Inspect makes doc the model and records its step on batch b with the
// weights params (a moment of training, in the stepping view); a link of
// that state carries both.
func (s *State) Inspect(doc app.Doc, params map[string]*tensor.Tensor, b app.Batch) error {
	s.settle()
	if err := s.model.Inspect(doc, params, b); err != nil {
		s.recorded(Doc)
		return err
	}
	s.programOn = false
	s.custom, s.customBatch = s.model.Model(), true
	s.view = link.ViewStep
	s.recorded(Doc | Editing | View)
	return nil
}

// UseDrawing makes d's ink, downsampled to the model's [1 H H] image
// (app.Ink.Pixels), example d.Example of the step's batch, with the
// model's prediction as its target, and records the step again (see
// app.Playground.UseImage). A link of the stepping view carries the
// drawing while the batch holds it.
func (s *State) UseDrawing(d link.Drawing) (app.Prediction, error) {
	s.settle()
	pr, err := s.useDrawing(d)
	if err == nil {
		s.recorded(0)
	}
	return pr, err
}

func (s *State) useDrawing(d link.Drawing) (app.Prediction, error) {
	in := s.model.Doc().Input
	if d.Ink.Empty() {
		return app.Prediction{}, errors.New("nothing is drawn")
	}
	if len(in) != 3 || in[0] != 1 || in[1] != in[2] {
		return app.Prediction{}, errors.New("a drawing needs a model of one-channel square images ([1 H H]), not " + in.String())
	}
	px := d.Ink.Pixels(in[1])
	pr, err := s.model.UseImage(d.Example, px)
	if err == nil {
		d.Ink.Strokes = slices.Clone(d.Ink.Strokes)
		s.drawing, s.drawn = &d, px
	}
	return pr, err
}

// Drawing returns the input drawn on the pad while it is an example of the
// step's batch (the batch changed since, or nothing was drawn: nil). The
// caller must not change it.
func (s *State) Drawing() *link.Drawing {
	s.settle()
	b := s.model.Batch()
	d := s.drawing
	if d == nil || s.programOn || b.X == nil || b.X.Shape[0] <= d.Example {
		return nil
	}
	n := len(s.drawn)
	if len(b.X.Data) != n*b.X.Shape[0] || !slices.Equal(b.X.Data[d.Example*n:(d.Example+1)*n], s.drawn) {
		return nil
	}
	return d
}

// OpenIR opens an IR document in place of the model's step (see
// app.Playground.OpenIR); when it is refused the step stays.
func (s *State) OpenIR(data []byte) error {
	s.settle()
	err := s.model.OpenIR(data)
	if err == nil {
		s.recorded(0)
	}
	return err
}

// Move takes one step of the stepper of what is stepped with step, which
// reports the step's event and whether there was a step; Move tells the
// views the new position with that event, and hands both back. The pinned
// node is let go first (and the views told so, even when there was no
// step).
func (s *State) Move(step func(*app.Stepper) (autograd.Event, bool)) (autograd.Event, bool) {
	st, c := s.stepper()
	if st == nil {
		return autograd.Event{}, false
	}
	e, ok := step(st)
	if !ok {
		if c.Has(Selection) {
			s.changed(Selection)
		}
		return e, false
	}
	s.tell(update{c: c, e: &e})
	return e, true
}

// Jump moves the stepper of what is stepped with move, which may take any
// number of steps (a reset, to the end of a pass) and reports whether it
// moved; Jump tells the views the new position, with no event: nothing
// but the stepper says what changed. The pinned node is let go first.
func (s *State) Jump(move func(*app.Stepper) bool) bool {
	st, c := s.stepper()
	if st == nil {
		return false
	}
	ok := move(st)
	s.changed(c)
	return ok
}

// stepper returns the stepper of what is stepped (nil: none) and what a
// move of it changes, letting the pinned node go.
func (s *State) stepper() (*app.Stepper, Change) {
	s.settle()
	st := s.Source().Stepper()
	if st == nil {
		return nil, 0
	}
	c := Position
	if s.selected >= 0 {
		s.selected = -1
		c |= Selection
	}
	return st, c
}

// Selected returns the node pinned in the inspector, or -1 when the
// inspector follows the cursor.
func (s *State) Selected() int { return s.selected }

// Select pins node i in the inspector until the next step (-1: follow the
// cursor).
func (s *State) Select(i int) {
	s.selected = i
	s.changed(Selection)
}
