package state

import (
	"fmt"
	"slices"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// told is one change a view was told.
type told struct {
	c Change
	e *autograd.Event
}

func (t told) String() string {
	if t.e == nil {
		return fmt.Sprintf("%b", t.c)
	}
	return fmt.Sprintf("%b (%v of node %d)", t.c, t.e.Kind, t.e.Node)
}

// follow adds a view to s that keeps what it is told.
func follow(s *State) *[]told {
	var got []told
	s.Follow(func(c Change, e *autograd.Event) { got = append(got, told{c, e}) })
	return &got
}

// TestViewsToldEveryStepInOrder steps a tape to its end in one burst of
// far more than 32 steps (a broadcast relay's listener of capacity 32
// missed the steps past its capacity) and checks that every view was told
// every step, at once, in order, with the event Move handed back.
func TestViewsToldEveryStepInOrder(t *testing.T) {
	s := New(link.DefaultDataset)
	src := "x0 = param(0.5)\n"
	for i := 1; i <= 30; i++ {
		src += fmt.Sprintf("x%d = x%d * x0\n", i, i-1)
	}
	if err := s.OpenProgram(src, app.Modes{}); err != nil {
		t.Fatal(err)
	}
	s.Select(2)
	views := []*[]told{follow(s), follow(s), follow(s)}
	var moved []autograd.Event
	for {
		n := len(*views[0])
		e, ok := s.Move((*app.Stepper).Step)
		if !ok {
			break
		}
		if len(*views[0]) != n+1 {
			t.Fatalf("step %d: the first view was told %d changes, want 1, before Move returned", len(moved), len(*views[0])-n)
		}
		moved = append(moved, e)
	}
	if len(moved) <= 32 {
		t.Fatalf("the program's tape took %d steps: too few to show a burst over 32", len(moved))
	}
	for k, got := range views {
		if len(*got) != len(moved) {
			t.Fatalf("view %d was told %d changes for %d steps", k, len(*got), len(moved))
		}
		for i, g := range *got {
			want := Position
			if i == 0 {
				want |= Selection // the pinned node let go
			}
			if g.c != want || g.e == nil || !sameEvent(*g.e, moved[i]) {
				t.Fatalf("view %d, change %d: told %v, want %b with the event of step %d", k, i, g, want, moved[i].Position.Steps+moved[i].Position.Known)
			}
			if i == 0 {
				continue
			}
			if p, q := moved[i-1].Position, g.e.Position; p.Known+p.Steps+1 != q.Known+q.Steps {
				t.Fatalf("view %d, change %d: step at %+v told after one at %+v", k, i, g.e.Position, moved[i-1].Position)
			}
		}
	}
	// A jump over the whole tape is one change, with no event.
	*views[1] = (*views[1])[:0]
	s.Jump(func(st *app.Stepper) bool { st.Reset(); st.ToEnd(); return true })
	if got := *views[1]; len(got) != 1 || got[0].c != Position || got[0].e != nil {
		t.Errorf("a jump told %v, want Position alone with no event", got)
	}
}

// sameEvent compares two events by what identifies a step.
func sameEvent(a, b autograd.Event) bool {
	return a.Kind == b.Kind && a.Node == b.Node && a.Position == b.Position && len(a.Contribs) == len(b.Contribs)
}

// TestChangeMadeWhileTellingWaits checks that a change a view makes while
// it is told another is told to every view after that one: no view sees
// the second change before the first, however the views are ordered.
func TestChangeMadeWhileTellingWaits(t *testing.T) {
	s := New(link.DefaultDataset)
	first := follow(s)
	s.Follow(func(c Change, _ *autograd.Event) {
		if c.Has(Flags) {
			s.SetPoints(&link.Points{}) // a view that changes the state
		}
	})
	last := follow(s)
	s.SetFlags(link.Flags{Embed: true})
	want := []Change{Flags, Points}
	for name, got := range map[string]*[]told{"first": first, "last": last} {
		var cs []Change
		for _, g := range *got {
			cs = append(cs, g.c)
		}
		if !slices.Equal(cs, want) {
			t.Errorf("the %s view was told %v, want %v", name, cs, want)
		}
	}
}

// TestPanickingViewDoesNotStopTheNext checks that a view that panics ends
// that telling only: the next change is told to every view.
func TestPanickingViewDoesNotStopTheNext(t *testing.T) {
	s := New(link.DefaultDataset)
	boom := true
	s.Follow(func(Change, *autograd.Event) {
		if boom {
			boom = false
			panic("a view's bug")
		}
	})
	got := follow(s)
	func() {
		defer func() { _ = recover() }()
		s.SetFlags(link.Flags{Embed: true})
	}()
	s.SetPoints(&link.Points{})
	if len(*got) != 1 || (*got)[0].c != Points {
		t.Errorf("after a view panicked, the next view was told %v, want Points alone", *got)
	}
}

// TestBackgroundFollowerKnowsSomethingChanged: a background listener gets
// each change after the views were told it, and a burst of changes it
// does not read leaves one pending (its capacity) without blocking the
// state or the views, which get every change.
func TestBackgroundFollowerKnowsSomethingChanged(t *testing.T) {
	s := New(link.DefaultDataset)
	bg := s.Background(1)
	defer bg.Close()
	var views []Change
	s.Follow(func(c Change, _ *autograd.Event) {
		views = append(views, c)
		if len(bg.Ch()) != 0 && len(views) == 1 {
			t.Error("the background listener heard the first change before the views were told it")
		}
	})
	for range 100 {
		s.SetView(link.ViewTrain)
		s.SetView(link.ViewStep)
	}
	if len(views) != 200 {
		t.Errorf("the views were told %d of 200 changes", len(views))
	}
	if n := len(bg.Ch()); n != 1 {
		t.Fatalf("%d changes pending for the background listener, want 1", n)
	}
	if c := <-bg.Ch(); !c.Has(View) {
		t.Errorf("the pending change is %b, not a View change", c)
	}
	s.SetView(link.ViewTrain)
	if c := <-bg.Ch(); !c.Has(View) {
		t.Errorf("after reading, the next change is %b, not a View change", c)
	}
}
