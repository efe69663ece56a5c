package state

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
)

// TestLinkReopensMidUpdate stops two update phases and a half into the
// default model's training, shares the link, reopens it on a new page and
// checks that both pages then step the same weights, optimizer state and
// loss, bit for bit.
func TestLinkReopensMidUpdate(t *testing.T) {
	for _, name := range train.OptimizerNames() {
		s := New(link.DefaultDataset)
		tr := s.Training()
		tr.Optimizer = train.DefaultOptimizer(name)
		tr.Optimizer.WeightDecay = 0.01
		s.SetTraining(tr)
		toEnd := func(s *State) { s.Jump(func(st *app.Stepper) bool { st.ToEnd(); return true }) }
		for range 2 {
			toEnd(s)
			for s.Update(false) && s.Source().Stepper().Updating() {
			}
		}
		toEnd(s)
		s.Update(false)
		s.Update(false)
		frag, err := link.Encode(s.Link())
		if err != nil {
			t.Fatal(err)
		}
		st, err := link.Open(frag)
		if err != nil {
			t.Fatal(err)
		}
		s2 := New(link.DefaultDataset)
		s2.Replace(st)
		if err := s2.Opened(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a, b := s.Source().Stepper(), s2.Source().Stepper()
		same := func(when string) {
			t.Helper()
			an, ap, _ := a.UpdateCounts()
			bn, bp, _ := b.UpdateCounts()
			if an != bn || ap != bp || a.Position() != b.Position() || !reflect.DeepEqual(a.OptimizerState(), b.OptimizerState()) {
				t.Fatalf("%s %s: update %d/%d at %+v, reopened %d/%d at %+v", name, when, an, ap, a.Position(), bn, bp, b.Position())
			}
			for _, i := range a.Params() {
				if !tensor.Identical(a.Tape().Node(i).Value, b.Tape().Node(i).Value) {
					t.Fatalf("%s %s: node %d differs", name, when, i)
				}
			}
		}
		same("reopened")
		for s.Update(false) && s2.Update(false) && a.Updating() {
		}
		same("after the phase")
		if a.LastForward().New != b.LastForward().New {
			t.Errorf("%s: the next forward's loss %v, reopened %v", name, a.LastForward().New, b.LastForward().New)
		}
	}
}

// TestLessonStopsOnAnUpdate opens the kept lesson whose stop stands in an
// update phase: the step opens at update 1/4 with the first tensor
// stepped by momentum from the buffer the stop carries.
func TestLessonStopsOnAnUpdate(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "lesson", "testdata", "update-stop.lesson"))
	if err != nil {
		t.Fatal(err)
	}
	l, err := lesson.DecodeFragment("#" + strings.TrimSpace(string(data)))
	if err != nil {
		t.Fatal(err)
	}
	st := l.Stops[1].State
	s := New(link.DefaultDataset)
	s.Replace(st)
	if err := s.Opened(); err != nil {
		t.Fatal(err)
	}
	stp := s.Source().Stepper()
	if n, total, _ := stp.UpdateCounts(); n != 1 || total != 4 || !stp.Updating() {
		t.Fatalf("the stop opens at update %d/%d (updating %v)", n, total, stp.Updating())
	}
	i := stp.Params()[0]
	g := stp.Grad(i)
	for k, w := range st.Model.Params["0.weight"].Data {
		b := 0.5*st.Update.Buffers[0][0][k] + g.Data[k] // b ← μ·b + g
		if want := w - 0.1*b; stp.Value(i).Data[k] != want {
			t.Errorf("0.weight[%d] = %v, want %v", k, stp.Value(i).Data[k], want)
		}
	}
	if got, err := link.Encode(s.Link()); err != nil || got != mustEncode(t, st) {
		t.Errorf("the stop's link does not come back: %v", err)
	}
}

func mustEncode(t *testing.T, st *link.State) string {
	t.Helper()
	l, err := link.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

// TestProgramLinkCarriesUpdates steps a program (the gallery's neuron, and
// the MLP, whose params are matrices) through update phases in Program
// mode, with each optimizer, and shares a link at every stop that matters:
// mid-update, after a completed phase and its next forward (in the
// backward pass, and at the end of it), and with forward mode on after a
// reset. Each reopens on a new page as the same tape, bit for bit (the
// tape's text), at the same update n/P, with the same optimizer and its
// state, and gives its link back; stepping both on keeps them equal.
func TestProgramLinkCarriesUpdates(t *testing.T) {
	exs := program.Examples()
	for _, ex := range []program.Example{exs[2], exs[4]} {
		for _, name := range train.OptimizerNames() {
			s := New(link.DefaultDataset)
			if err := s.OpenProgram(ex.Text, app.Modes{Compiled: name == "momentum"}); err != nil {
				t.Fatal(err)
			}
			tr := s.Training()
			tr.Optimizer = train.DefaultOptimizer(name)
			tr.Optimizer.WeightDecay = 0.01
			s.SetTraining(tr)
			toEnd := func() { s.Jump(func(st *app.Stepper) bool { st.ToEnd(); return true }) }
			step := func() { s.Move(func(st *app.Stepper) (autograd.Event, bool) { return st.Step() }) }
			stops := []struct {
				what string
				move func()
			}{
				{"mid-update in the first phase", func() { toEnd(); s.Update(false) }},
				{"mid-update in the second phase", func() {
					for s.Update(false) && s.Source().Stepper().Updating() {
					}
					toEnd()
					s.Update(false)
				}},
				{"after the next forward", func() {
					for s.Update(false) && s.Source().Stepper().Updating() {
					}
					step()
				}},
				{"at the end of the backward pass", toEnd},
				{"in forward mode, reset", func() {
					s.SetForward([][]float64{{1}})
					if s.Forward() == nil {
						t.Fatal("no forward mode")
					}
					s.Jump(func(st *app.Stepper) bool { st.Reset(); return true })
					step()
				}},
			}
			for _, stop := range stops {
				stop.move()
				what := ex.Name + " " + name + " " + stop.what
				st := s.Link()
				if st.Update == nil || (st.Params == nil) != (stop.what == "mid-update in the first phase") {
					t.Fatalf("%s: the link carries update %+v, params %v", what, st.Update, st.Params)
				}
				if st.Optimizer == nil || *st.Optimizer != tr.Optimizer {
					t.Fatalf("%s: the link carries the optimizer %+v, want %+v", what, st.Optimizer, tr.Optimizer)
				}
				frag, err := link.Encode(st)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				opened, err := link.Open(frag)
				if err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				s2 := New(link.DefaultDataset)
				s2.Replace(opened)
				if err := s2.Opened(); err != nil {
					t.Fatalf("%s: %v", what, err)
				}
				a, b := s.Source().Stepper(), s2.Source().Stepper()
				same := func(when string) {
					t.Helper()
					an, ap, _ := a.UpdateCounts()
					bn, bp, _ := b.UpdateCounts()
					if an != bn || ap != bp || !reflect.DeepEqual(a.OptimizerState(), b.OptimizerState()) {
						t.Fatalf("%s, %s: update %d/%d, reopened %d/%d (optimizer state %+v, reopened %+v)", what, when, an, ap, bn, bp, a.OptimizerState(), b.OptimizerState())
					}
					if ta, tb := app.TapeText(a), app.TapeText(b); ta != tb {
						t.Fatalf("%s, %s: the reopened tape differs:\n%s\nwant\n%s", what, when, tb, ta)
					}
				}
				same("reopened")
				if again, err := link.Encode(s2.Link()); err != nil || again != frag {
					t.Fatalf("%s: the reopened page's link differs (%v)", what, err)
				}
				if s2.Training().Optimizer != tr.Optimizer {
					t.Fatalf("%s: the reopened page's optimizer is %+v", what, s2.Training().Optimizer)
				}
				// Both step on alike: through the phase, its next forward
				// and into the next backward pass.
				for range 2*len(a.Params()) + 3 {
					s.Update(false)
					s2.Update(false)
					step()
					s2.Move(func(st *app.Stepper) (autograd.Event, bool) { return st.Step() })
				}
				same("stepped on")
				s2.Jump(func(st *app.Stepper) bool { st.ToEnd(); return true })
				s.Jump(func(st *app.Stepper) bool { st.ToEnd(); return true })
				same("at the end")
			}
		}
	}
}

// TestProgramLinkWithoutUpdates: a program stepped without updates, with
// the default optimizer, links as before: no optimizer, no params, no
// update; another optimizer travels on its own.
func TestProgramLinkWithoutUpdates(t *testing.T) {
	s := New(link.DefaultDataset)
	if err := s.OpenProgram(program.Examples()[0].Text, app.Modes{}); err != nil {
		t.Fatal(err)
	}
	s.Jump(func(st *app.Stepper) bool { st.ToEnd(); return true })
	if st := s.Link(); st.Optimizer != nil || st.Params != nil || st.Update != nil {
		t.Fatalf("the link carries optimizer %v, params %v, update %v", st.Optimizer, st.Params, st.Update)
	}
	tr := s.Training()
	tr.Optimizer = train.DefaultOptimizer("adam")
	s.SetTraining(tr)
	st := s.Link()
	if st.Optimizer == nil || *st.Optimizer != tr.Optimizer || st.Params != nil || st.Update != nil {
		t.Fatalf("the link carries optimizer %v, params %v, update %v", st.Optimizer, st.Params, st.Update)
	}
	s2 := New(link.DefaultDataset)
	s2.Replace(st)
	if s2.Training().Optimizer != tr.Optimizer {
		t.Errorf("reopened with %+v", s2.Training().Optimizer)
	}
	if o, ok := s2.Source().Stepper().Optimizer(); !ok || o != tr.Optimizer {
		t.Errorf("the reopened stepper updates with %+v", o)
	}
}

// TestProgramFixturesOpen opens the kept program links that stop in an
// update phase: the neuron at update 1/3 of momentum, w0 stepped from the
// weights and the buffer the link carries; and the neuron after two
// phases of Adam, in compiled forward mode, its params the link's, the
// optimizer and its state the link's. Each gives its link back.
func TestProgramFixturesOpen(t *testing.T) {
	open := func(name string) (*State, *link.State, string) {
		data, err := os.ReadFile(filepath.Join("..", "link", "testdata", "programs", name+".link"))
		if err != nil {
			t.Fatal(err)
		}
		frag := strings.TrimSpace(string(data))
		st, err := link.Decode(frag)
		if err != nil {
			t.Fatal(err)
		}
		s := New(link.DefaultDataset)
		s.Replace(st)
		if err := s.Opened(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := mustEncode(t, s.Link()); got != frag {
			t.Errorf("%s: the link does not come back:\n got %s\nwant %s", name, got, frag)
		}
		return s, st, frag
	}
	leaf := map[string]int{"w0": 2, "w1": 3, "b": 4} // the neuron's param leaves

	s, st, _ := open("update-momentum")
	stp := s.Source().Stepper()
	if n, total, _ := stp.UpdateCounts(); n != 1 || total != 3 || !stp.Updating() {
		t.Fatalf("update-momentum opens at update %d/%d (updating %v)", n, total, stp.Updating())
	}
	if o, _ := stp.Optimizer(); o != *st.Optimizer || s.Training().Optimizer != o {
		t.Errorf("update-momentum steps with %+v", o)
	}
	g := stp.Grad(leaf["w0"]).Data[0]
	b := 0.75*st.Update.Buffers[0][0][0] + g // b ← μ·b + g
	if got, want := stp.Value(leaf["w0"]).Data[0], 2.0625-0.05*b; got != want {
		t.Errorf("w0 = %v, want %v", got, want)
	}
	for _, name := range []string{"w1", "b"} {
		if got := stp.Value(leaf[name]).Data[0]; got != st.Params[name][0] {
			t.Errorf("%s = %v, want the link's %v", name, got, st.Params[name][0])
		}
	}
	if got := stp.OptimizerState().Steps; !reflect.DeepEqual(got, []int{3, 2, 2}) {
		t.Errorf("steps %v", got)
	}

	s, st, _ = open("update-adam-forward")
	stp = s.Source().Stepper()
	if n, total, _ := stp.UpdateCounts(); n != 0 || total != 3 || stp.Position().Node != 8 || !s.Program().Modes().Compiled {
		t.Fatalf("update-adam-forward opens at update %d/%d, position %+v, modes %+v", n, total, stp.Position(), s.Program().Modes())
	}
	if !reflect.DeepEqual(s.Forward(), st.Forward) {
		t.Errorf("forward mode along %v", s.Forward())
	}
	if o, _ := stp.Optimizer(); o != *st.Optimizer || s.Training().Optimizer != o {
		t.Errorf("update-adam-forward steps with %+v", o)
	}
	for name, i := range leaf {
		if got := stp.Value(i).Data[0]; got != st.Params[name][0] {
			t.Errorf("%s = %v, want the link's %v", name, got, st.Params[name][0])
		}
	}
	if got := stp.OptimizerState(); !reflect.DeepEqual(got, train.OptimizerState{Steps: st.Update.Steps, Buffers: st.Update.Buffers}) {
		t.Errorf("optimizer state %+v", got)
	}
}

// TestLinkReopensInTheFirstPhase: a model's link shared in its first
// update phase, when the optimizer's state is a fresh one, reopens at the
// same update with the same weights.
func TestLinkReopensInTheFirstPhase(t *testing.T) {
	for _, name := range train.OptimizerNames() {
		s := New(link.DefaultDataset)
		tr := s.Training()
		tr.Optimizer = train.DefaultOptimizer(name)
		s.SetTraining(tr)
		s.Jump(func(st *app.Stepper) bool { st.ToEnd(); return true })
		s.Update(false)
		s2 := New(link.DefaultDataset)
		s2.Replace(s.Link())
		if err := s2.Opened(); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		a, b := s.Source().Stepper(), s2.Source().Stepper()
		if an, _, _ := a.UpdateCounts(); an != 1 || app.TapeText(a) != app.TapeText(b) || !reflect.DeepEqual(a.OptimizerState(), b.OptimizerState()) {
			t.Errorf("%s: reopened at a different state:\n%s\nwant\n%s", name, app.TapeText(b), app.TapeText(a))
		}
		for _, i := range a.Params() {
			if !tensor.Identical(a.Value(i), b.Value(i)) {
				t.Errorf("%s: node %d differs", name, i)
			}
		}
	}
}
