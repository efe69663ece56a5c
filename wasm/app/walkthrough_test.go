package app

import (
	"strings"
	"testing"
)

// TestWalkthrough steps the default model through and checks what the
// walkthrough says at the start, going forward, at the loss, on a += and
// at the end.
func TestWalkthrough(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	s := p.Stepper()
	say := func() string { return strings.Join(Walkthrough(s), "\n") }
	if got := say(); !strings.Contains(got, "Nothing has been computed yet") {
		t.Errorf("at the start: %q", got)
	}
	s.Step()
	if got := say(); !strings.HasPrefix(got, "Forward step 1 of ") {
		t.Errorf("after one step: %q", got)
	}
	s.ForwardToEnd()
	if got := say(); !strings.Contains(got, "The forward pass is complete") {
		t.Errorf("at the end of forward: %q", got)
	}
	s.Step()
	if got := say(); !strings.HasPrefix(got, "Backward step 1 of ") || !strings.Contains(got, "dY = 1") {
		t.Errorf("first backward step: %q", got)
	}
	for {
		if _, ok := s.Step(); !ok {
			break
		}
		if got := say(); !strings.HasPrefix(got, "Backward step ") {
			t.Fatalf("backward: %q", got)
		}
	}
	// With the L2 penalty each weight feeds two nodes: its second
	// contribution is added.
	p = newTestPlayground(t, Modes{L2: 0.1})
	s = p.Stepper()
	s.ForwardToEnd()
	for {
		if _, ok := s.Step(); !ok {
			break
		}
		if strings.Contains(strings.Join(Walkthrough(s), "\n"), "is added (+=)") {
			return
		}
	}
	t.Error("with the L2 penalty each weight feeds two nodes, but no step said its contribution is added (+=)")
}

func TestTapeText(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	s := p.Stepper()
	text := TapeText(s)
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != 1+len(s.Nodes()) || !strings.HasPrefix(lines[0], "# TapeLab tape: ") {
		t.Fatalf("before stepping, want a heading and one line per node (%d):\n%s", len(s.Nodes()), text)
	}
	if strings.Contains(text, "value") {
		t.Errorf("values listed before any step:\n%s", text)
	}
	s.ToEnd()
	text = TapeText(s)
	if n := strings.Count(text, "\n    value "); n != len(s.Nodes()) {
		t.Errorf("at the end, %d values listed, want %d:\n%s", n, len(s.Nodes()), text)
	}
	if !strings.Contains(text, "\n    grad  [") || !strings.Contains(text, "[loss]") {
		t.Errorf("at the end, no gradients or no loss role:\n%s", text)
	}
}
