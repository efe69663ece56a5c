// Package state holds the playground's document around the recorded step:
// the view on screen, the classroom flags, the training settings and the
// user's own points. (The model with its undo history, the modes, the
// mini-batch and the stepping position are app.Playground's.) It is
// changed only through its methods, and every change is announced on a
// broadcast relay, which the page's link sync and views listen to.
//
// A link replaces it in one call, Replace; Link gives back what a link
// carries of it.
package state

import (
	"slices"

	"github.com/teivah/broadcast"

	"tapelab/engine/spec"
	"tapelab/engine/train"
	"tapelab/wasm/link"
)

// PointsDataset is the training dataset menu's value for the user's own
// points.
const PointsDataset = "points"

// Change says what a change touched; a Replace touches everything.
type Change uint8

// The parts of the state.
const (
	View Change = 1 << iota
	Flags
	Training
	Points
	All = View | Flags | Training | Points
)

// TrainingSettings are the training view's controls.
type TrainingSettings struct {
	Dataset   string // a generated set, or PointsDataset
	Data      train.DataConfig
	Optimizer train.OptimizerConfig
	Batch     int
}

// DefaultTraining is the training on a generated dataset with SGD and the
// model document's default batch size.
func DefaultTraining(dataset string) TrainingSettings {
	return TrainingSettings{Dataset: dataset, Data: train.DefaultData(dataset),
		Optimizer: train.DefaultOptimizer("sgd"), Batch: spec.DefaultBatchSize}
}

// State is the document; its zero value is not usable: use New.
type State struct {
	view     string
	flags    link.Flags
	training TrainingSettings
	points   *link.Points
	relay    *broadcast.Relay[Change]
}

// New returns the state of a page that opens on the stepping view with
// training settings t.
func New(t TrainingSettings) *State {
	return &State{view: link.ViewStep, training: t, relay: broadcast.NewRelay[Change]()}
}

// Listen subscribes to the changes. The relay broadcasts without waiting:
// a listener whose channel holds capacity undelivered changes misses the
// next one (re-read the state instead of counting changes).
func (s *State) Listen(capacity int) *broadcast.Listener[Change] {
	return s.relay.Listener(capacity)
}

func (s *State) changed(c Change) { s.relay.Broadcast(c) }

// View returns the view on screen: link.ViewStep or link.ViewTrain.
func (s *State) View() string { return s.view }

// SetView switches the view; anything but link.ViewTrain is the stepping
// view.
func (s *State) SetView(v string) {
	if v != link.ViewTrain {
		v = link.ViewStep
	}
	s.view = v
	s.changed(View)
}

// Flags returns the classroom flags.
func (s *State) Flags() link.Flags { return cloneFlags(s.flags) }

// SetFlags replaces the classroom flags.
func (s *State) SetFlags(f link.Flags) {
	s.flags = cloneFlags(f)
	s.changed(Flags)
}

// Locked reports whether classroom control c is locked (or hidden).
func (s *State) Locked(c string) bool { return s.flags.Locked(c) }

func cloneFlags(f link.Flags) link.Flags {
	f.Hide, f.Lock = slices.Clone(f.Hide), slices.Clone(f.Lock)
	return f
}

// Training returns the training settings.
func (s *State) Training() TrainingSettings { return s.training }

// SetTraining replaces the training settings.
func (s *State) SetTraining(t TrainingSettings) {
	s.training = t
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

// Replace makes the state the one a link carries: its view, its flags,
// its training settings (a model document without a dataset trains on
// link.DefaultDataset) and its points (with them, the training view
// trains on the points).
func (s *State) Replace(st *link.State) {
	m := st.Model
	t := TrainingSettings{Dataset: m.Dataset.Name, Data: m.Dataset, Optimizer: m.Optimizer, Batch: m.BatchSize}
	if t.Dataset == "" {
		t.Dataset, t.Data = link.DefaultDataset, train.DefaultData(link.DefaultDataset)
	}
	if st.Points != nil {
		t.Dataset = PointsDataset
	}
	s.training, s.points, s.flags = t, st.Points, cloneFlags(st.Flags)
	s.view = link.ViewStep
	if st.View == link.ViewTrain {
		s.view = link.ViewTrain
	}
	s.changed(All)
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

// Fill writes the state's part of a link into st and into its model
// document m: the view, the flags, the training settings and the points
// (when the training uses them).
func (s *State) Fill(st *link.State, m *spec.Model) {
	st.View, st.Flags = s.view, cloneFlags(s.flags)
	s.training.Into(m)
	if s.training.Dataset == PointsDataset {
		st.Points = s.points
	}
}
