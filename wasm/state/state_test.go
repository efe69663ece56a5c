package state

import (
	"testing"
	"time"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/wasm/link"
)

func model() *spec.Model {
	return spec.New(tensor.Shape{2}, nn.MSE, nn.NewLinear(1))
}

// TestReplaceThenFill replaces the state by a link's and writes it back:
// what a link carries of the state survives the trip.
func TestReplaceThenFill(t *testing.T) {
	m := model()
	m.Dataset = DefaultTraining("xor").Data
	m.Dataset.Name = "xor"
	m.Optimizer = DefaultTraining("xor").Optimizer
	m.Optimizer.LR = 0.3
	m.BatchSize = 7
	in := &link.State{Model: m, View: link.ViewTrain,
		Flags:  link.Flags{Hide: []string{"lr"}, Lock: []string{"model"}, Presenter: true},
		Points: &link.Points{X: [][]float64{{1, 2}}, Y: []float64{1}}}
	s := New(DefaultTraining("circle"))
	s.Replace(in)
	if s.View() != link.ViewTrain || s.Training().Dataset != PointsDataset || s.Training().Data.Name != "xor" ||
		!s.Locked("model") || !s.Locked("lr") || s.Locked("stepper") {
		t.Fatalf("after Replace: view %q, training %+v, flags %+v", s.View(), s.Training(), s.Flags())
	}
	var out link.State
	om := model()
	s.Fill(&out, om)
	if out.View != link.ViewTrain || out.Points != in.Points || !out.Flags.Presenter || om.BatchSize != 7 ||
		om.Optimizer.LR != 0.3 || om.Dataset.Name != "xor" {
		t.Errorf("Fill gave view %q, points %v, flags %+v, model batch %d, lr %v, dataset %q",
			out.View, out.Points, out.Flags, om.BatchSize, om.Optimizer.LR, om.Dataset.Name)
	}
	// Without points the dataset's name is the menu's.
	s.SetPoints(nil)
	s.SetTraining(DefaultTraining("moons"))
	out, om = link.State{}, model()
	s.Fill(&out, om)
	if out.Points != nil || om.Dataset.Name != "moons" {
		t.Errorf("without points: points %v, dataset %q", out.Points, om.Dataset.Name)
	}
}

// TestReplaceWithoutDataset opens a model document shared without a
// dataset: the training view uses the default dataset's full settings.
func TestReplaceWithoutDataset(t *testing.T) {
	s := New(DefaultTraining("circle"))
	s.Replace(&link.State{Model: model()})
	if got := s.Training(); got.Dataset != link.DefaultDataset || got.Data != DefaultTraining(link.DefaultDataset).Data {
		t.Errorf("training %+v, want the default dataset %q", got, link.DefaultDataset)
	}
	if s.View() != link.ViewStep {
		t.Errorf("view %q, want %q", s.View(), link.ViewStep)
	}
}

// TestChangesAreAnnounced checks that every method that changes the
// state tells its listeners what changed.
func TestChangesAreAnnounced(t *testing.T) {
	s := New(DefaultTraining("circle"))
	l := s.Listen(8)
	defer l.Close()
	for _, c := range []struct {
		do   func()
		want Change
	}{
		{func() { s.SetView(link.ViewTrain) }, View},
		{func() { s.SetFlags(link.Flags{Embed: true}) }, Flags},
		{func() { s.SetTraining(DefaultTraining("xor")) }, Training},
		{func() { s.SetPoints(&link.Points{}) }, Points},
		{func() { s.Replace(&link.State{Model: model()}) }, All},
	} {
		c.do()
		select {
		case got := <-l.Ch():
			if got != c.want {
				t.Errorf("announced %b, want %b", got, c.want)
			}
		case <-time.After(time.Second):
			t.Fatalf("no change announced, want %b", c.want)
		}
	}
}

// TestFlagsAreCopied checks that the flags a caller passes or gets cannot
// change the state behind its back.
func TestFlagsAreCopied(t *testing.T) {
	s := New(DefaultTraining("circle"))
	f := link.Flags{Lock: []string{"model"}}
	s.SetFlags(f)
	f.Lock[0] = "stepper"
	got := s.Flags()
	got.Lock[0] = "share"
	if !s.Locked("model") || s.Locked("stepper") || s.Locked("share") {
		t.Errorf("the state's flags changed from outside: %+v", s.Flags())
	}
}
