package state

import (
	"testing"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// filled returns a copy of the model's weights with every value v, as a
// training might reach them.
func filled(s *State, v float64) map[string]*tensor.Tensor {
	w := s.Model().Model().StateDictCopy()
	for _, t := range w {
		for i := range t.Data {
			t.Data[i] = v
		}
	}
	return w
}

// stepValue returns the first value of parameter name in the recorded step.
func stepValue(t *testing.T, s *State, name string) float64 {
	t.Helper()
	p, ok := s.Model().Model().StateDict()[name]
	if !ok {
		t.Fatalf("no parameter %s in the step", name)
	}
	return p.Data[0]
}

// TestSteppingViewShowsTrainedWeights follows a teacher: train, pause, open
// the stepping view (the step, its link and the pad use the trained
// weights), then switch modes, edit, undo, and reset the training.
func TestSteppingViewShowsTrainedWeights(t *testing.T) {
	const param = "0.weight"
	type step struct {
		what string
		do   func(s *State, doc app.Doc)
		want float64 // the step's first value of param (0: seeded)
	}
	train := func(v float64) func(*State, app.Doc) {
		return func(s *State, doc app.Doc) {
			s.SetView(link.ViewTrain)
			w := filled(s, v)
			s.SetTrained(doc, func() map[string]*tensor.Tensor { return w })
		}
	}
	steps := []step{
		{"trained, still in the training view", train(0.25), 0},
		{"the stepping view opened", func(s *State, _ app.Doc) { s.SetView(link.ViewStep) }, 0.25},
		{"a mode switch", func(s *State, _ app.Doc) { _ = s.SetModes(app.Modes{Single: true}) }, 0.25},
		{"an edit (another seed)", func(s *State, doc app.Doc) {
			doc.Layers = append(doc.Layers[:len(doc.Layers)-1:len(doc.Layers)-1], doc.Layers[len(doc.Layers)-1])
			doc.Seed++
			_ = s.Edit(doc)
		}, 0},
		{"undone", func(s *State, _ app.Doc) { s.Undo() }, 0.25},
		{"trained further", train(0.5), 0.25},
		{"the stepping view again", func(s *State, _ app.Doc) { s.SetView(link.ViewStep) }, 0.5},
		{"training reset", func(s *State, doc app.Doc) {
			s.SetView(link.ViewTrain)
			s.SetTrained(doc, nil)
			s.SetView(link.ViewStep)
		}, 0},
	}
	s := New(link.DefaultDataset)
	doc := s.Model().Doc()
	seeded := stepValue(t, s, param)
	for _, st := range steps {
		st.do(s, doc)
		want := st.want
		if want == 0 {
			want = seeded
		}
		if st.what == "an edit (another seed)" {
			if got := s.Link().Model.Params; got != nil {
				t.Errorf("%s: the link carries weights", st.what)
			}
			continue
		}
		if got := stepValue(t, s, param); got != want {
			t.Errorf("%s: the step's %s[0] = %v, want %v", st.what, param, got, want)
		}
		if s.View() != link.ViewStep {
			continue
		}
		l := s.Link()
		if got, ok := l.Model.Params[param]; want != seeded && (!ok || got.Data[0] != want) {
			t.Errorf("%s: the link carries %s = %v, want %v", st.what, param, got, want)
		}
		if want == seeded && l.Model.Params != nil {
			t.Errorf("%s: the link carries weights for the seeded step", st.what)
		}
	}
}
