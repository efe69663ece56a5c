// Package state is the playground's document: the model with its undo
// history, or the program; the modes; the dataset and the mini-batch; the
// weights a link or a training run gave the step; the stepping position
// and the node pinned in the inspector; the view on screen, the classroom
// flags, the training settings and the user's own points. The link codec,
// undo and the page's views share it.
//
// It is changed only through its methods, and every change is told to the
// views that follow it (Follow) as a Change saying what it touched, at
// once, in order, on the goroutine that made it; a step of the stepper
// comes with its event. The views redraw what they show of it. A link
// replaces it in one call, Replace; Link gives back what a link carries of
// it.
package state

import (
	"github.com/teivah/broadcast"

	"slices"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// PointsDataset is the training dataset menu's value for the user's own
// points.
const PointsDataset = "points"

// BatchSize is the mini-batch of one recorded step: small enough that
// every number fits on screen.
const BatchSize = 4

// Change says what a change touched; a Replace touches everything.
type Change uint16

// The parts of the state.
const (
	View      Change = 1 << iota // the view on screen
	Flags                        // the classroom flags
	Training                     // the training settings
	Points                       // the user's own points
	Step                         // the step was recorded again: model, program, modes, data or weights
	Doc                          // undo, redo or a link replaced the document: editors show it anew
	Editing                      // Model or Program mode
	Position                     // the stepper moved
	Selection                    // the node pinned in the inspector
	Trained                      // the weights the training view starts from or reached
	Opened                       // a link replaced the state
	Hygiene                      // whether gradients are zeroed before each backward pass
	Forward                      // the program's forward mode: on or off, and its direction
	All       = View | Flags | Training | Points | Step | Doc | Editing | Position | Selection | Trained | Opened | Hygiene | Forward
)

// Has reports whether c touched any part of parts.
func (c Change) Has(parts Change) bool { return c&parts != 0 }

// TrainingSettings are the training view's controls.
type TrainingSettings struct {
	Dataset   string // a generated set, or PointsDataset
	Data      train.DataConfig
	Optimizer train.OptimizerConfig
	Batch     int
	// Compare lists the optimizers trained beside Optimizer, from the
	// same initial weights in the same batch order (at most
	// link.MaxCompare; none: one run).
	Compare []train.OptimizerConfig
}

// DefaultTraining is the training on a generated dataset with SGD and the
// model document's default batch size.
func DefaultTraining(dataset string) TrainingSettings {
	return TrainingSettings{Dataset: dataset, Data: train.DefaultData(dataset),
		Optimizer: train.DefaultOptimizer("sgd"), Batch: spec.DefaultBatchSize}
}

// State is the document; its zero value is not usable: use New.
type State struct {
	view       string
	flags      link.Flags
	accumulate bool // a backward pass adds to .grad (gradients are not zeroed first)
	training   TrainingSettings
	points     *link.Points

	model *app.Playground
	// unrecorded is set while the model's step is not recorded yet: New's
	// default model, until a view reads it (settle) or a link replaces it.
	unrecorded bool
	program    *app.ProgramPlayground // made on first use: see prog
	programOn  bool
	forward    [][]float64               // the program's forward-mode direction, one row per leaf (nil: reverse mode)
	dataset    string                    // the stepping view's dataset
	data       *train.Dataset            // its generated examples (nil until needed)
	dataOf     train.DataConfig          // the settings data was generated with
	files      map[string]*train.Dataset // the datasets read from data files, once fetched
	// custom is the recorded model whose weights (and batch, with
	// customBatch) came from a link or a training step; any later
	// recording replaces the model, and with it this mark.
	custom      *nn.Model
	customBatch bool
	selected    int // the node pinned in the inspector, or -1
	// opened is the link Replace took while its step is not recorded yet
	// (see settle); openErr is what of the last link did not apply.
	opened  *link.State
	openErr error
	// drawing is the input drawn on the pad (UseDrawing) and drawn its
	// pixels: the drawing stands while the batch holds them.
	drawing *link.Drawing
	drawn   []float64

	trainDoc app.Doc                          // the model trained weights belong to
	trained  func() map[string]*tensor.Tensor // the weights the training view starts from or reached (nil: seeded)
	views    []Follower
	// background announces each change, once every view has been told
	// it, to the followers that work on their own time (Background).
	background *broadcast.Relay[Change]
	queue      []update // changes not yet told to every view (see changed)
	telling    bool     // the views are being told a change
}

// New returns the state of a page that opens on the stepping view, with
// the default model on dataset's first examples (and training on dataset)
// and, in Program mode, the gallery's first program. The default model's
// step is recorded when a view first reads it (as a link's is, see
// Replace), unless a link replaces the model before: a page opened on a
// link records that link's model alone.
func New(dataset string) *State {
	return &State{view: link.ViewStep, training: DefaultTraining(dataset), dataset: dataset,
		selected: -1, background: broadcast.NewRelay[Change](),
		model: app.Unrecorded(app.DefaultDoc()), unrecorded: true}
}

// prog returns the program playground, made on first use with the
// gallery's first program: a page opened in Model mode does not parse and
// record a program it does not show.
func (s *State) prog() *app.ProgramPlayground {
	if s.program == nil {
		s.program, _ = app.NewProgramPlayground(program.Examples()[0].Text) // the gallery's programs run (engine/program's tests)
	}
	return s.program
}

// A Follower is a view told each change of the state: what it touched and, when the
// change is one step of the stepper (Move), that step's event; e is nil
// for every other change, a Jump of the stepper among them.
type Follower func(c Change, e *autograd.Event)

// update is one change to tell the views.
type update struct {
	c Change
	e *autograd.Event
}

// Follow adds v to the views told of every later change. The views are
// told synchronously, on the goroutine that changed the state, in the
// order they were added; a change a view makes while it is told one (a
// view that changes the state) is told to every view once the change
// before it has reached them all. So every view is told every change, and
// all in the same order. A view that panics ends the telling: the changes
// still waiting are dropped, and the next change is told as usual.
func (s *State) Follow(v Follower) { s.views = append(s.views, v) }

func (s *State) changed(c Change) { s.tell(update{c: c}) }

// tell tells the views u, after the changes waiting before it.
func (s *State) tell(u update) {
	s.queue = append(s.queue, u)
	if s.telling {
		return
	}
	s.telling = true
	defer func() {
		s.telling = false
		clear(s.queue)
		s.queue = s.queue[:0]
	}()
	for k := 0; k < len(s.queue); k++ {
		u := s.queue[k]
		for _, v := range s.views {
			v(u.c, u.e)
		}
		s.background.Broadcast(u.c)
	}
}

// Background returns a listener of every change, for a follower that
// works on its own goroutine and its own time, such as the link encoder,
// which re-encodes the whole state once the changes stop: each change is
// sent after every view has been told it, without blocking the state, so
// a change that finds the listener's channel full (capacity changes
// pending) is not sent to it. Views that redraw follow with Follow.
// Close the listener when done.
func (s *State) Background(capacity int) *broadcast.Listener[Change] {
	return s.background.Listener(capacity)
}

// View returns the view on screen: link.ViewStep or link.ViewTrain.
func (s *State) View() string { return s.view }

// SetView switches the view; anything but link.ViewTrain, and any view in
// Program mode (a program is stepped, not trained), is the stepping view.
//
// The stepping view steps the model with the weights the training reached
// on it (see weigh): pausing training and opening it shows the trained
// network, on the tape, the inspector and the drawing pad alike.
func (s *State) SetView(v string) {
	if v != link.ViewTrain || s.programOn {
		v = link.ViewStep
	}
	s.view = v
	if v == link.ViewStep && !s.programOn {
		s.settle()
		if s.weigh() {
			s.recorded(View)
			return
		}
	}
	s.changed(View)
}

// Flags returns the classroom flags.
func (s *State) Flags() link.Flags { return cloneFlags(s.flags) }

// SetFlags replaces the classroom flags.
func (s *State) SetFlags(f link.Flags) {
	s.flags = cloneFlags(f)
	s.changed(Flags)
}

// Accumulate reports whether a backward pass adds its parameter gradients
// to what the last one left, as PyTorch does without zero_grad().
func (s *State) Accumulate() bool { return s.accumulate }

// SetAccumulate turns gradient zeroing off (true) or on (false).
func (s *State) SetAccumulate(on bool) {
	s.accumulate = on
	s.changed(Hygiene)
}

// Locked reports whether classroom control c is locked (or hidden).
func (s *State) Locked(c string) bool { return s.flags.Locked(c) }

func cloneFlags(f link.Flags) link.Flags {
	f.Hide, f.Lock = slices.Clone(f.Hide), slices.Clone(f.Lock)
	return f
}

// Training returns the training settings.
func (s *State) Training() TrainingSettings { return s.training }

// SetTraining replaces the training settings. When the data settings of
// the stepping view's dataset change (noise, seed, size, split), the step's
// mini-batch is taken again from the data they generate, as a link of the
// document would take it.
func (s *State) SetTraining(t TrainingSettings) {
	old := s.training.Data
	s.training = t
	if old == t.Data || t.Data.Name != s.dataset || s.unrecorded || s.opened != nil {
		s.changed(Training)
		return
	}
	if s.programOn || s.customBatch && s.model.Model() == s.custom {
		s.changed(Training) // a program's step, or a training moment's batch, stays
		return
	}
	if b, err := s.batch(s.model.Doc()); err == nil { // settings that do not generate: the training view says why
		_ = s.model.SetBatch(b) // the error is shown on the layer at fault
		s.weigh()
		s.recorded(Training)
		return
	}
	s.changed(Training)
}

// Points returns the user's own examples, or nil. The caller must not
// change them: SetPoints replaces them.
func (s *State) Points() *link.Points { return s.points }

// SetPoints replaces the user's own examples (nil: none).
func (s *State) SetPoints(p *link.Points) {
	s.points = p
	s.changed(Points)
}

// Trained returns the weights the training view starts from or reached,
// with the model they belong to (nil weights: seeded).
func (s *State) Trained() (app.Doc, map[string]*tensor.Tensor) {
	if s.trained == nil {
		return s.trainDoc, nil
	}
	return s.trainDoc, s.trained()
}

// SetTrained records where the weights the training reached on model doc
// are read from when they are needed (a running session's Params; nil:
// seeded), and announces that they moved. The weights w gives must not be
// changed by the caller.
func (s *State) SetTrained(doc app.Doc, w func() map[string]*tensor.Tensor) {
	s.trainDoc, s.trained = doc, w
	s.changed(Trained)
}

// weights returns a function giving w (nil when w is empty).
func weights(w map[string]*tensor.Tensor) func() map[string]*tensor.Tensor {
	if len(w) == 0 {
		return nil
	}
	return func() map[string]*tensor.Tensor { return w }
}

// Into writes the settings into the model document m: its dataset (the
// generated set under the points, when training on them), optimizer and
// batch size.
func (t TrainingSettings) Into(m *spec.Model) {
	m.Dataset = t.Data
	if t.Dataset != PointsDataset {
		m.Dataset.Name = t.Dataset
	}
	m.Optimizer, m.BatchSize = t.Optimizer, t.Batch
}
