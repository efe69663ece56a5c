package state

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

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
