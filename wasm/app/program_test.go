package app

import (
	"errors"
	"math"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// TestProgramStepsLikeTheEngine records every gallery example in each of
// the four modes, steps it to the end with the same stepper the model path
// uses, and compares every value and every leaf's gradient with the
// program's own one-shot pass (program.Grad).
func TestProgramStepsLikeTheEngine(t *testing.T) {
	for _, ex := range program.Examples() {
		for _, m := range []Modes{{}, {Single: true}, {Compiled: true}, {Compiled: true, Single: true}} {
			p, err := NewProgramPlayground(ex.Text)
			if err != nil {
				t.Fatalf("%s: %v", ex.Name, err)
			}
			if err := p.SetModes(m); err != nil {
				t.Fatalf("%s %+v: %v", ex.Name, m, err)
			}
			ref, err := p.Program().Grad()
			if err != nil {
				t.Fatal(err)
			}
			s := p.Stepper()
			if s.Output() != p.Program().Output() || s.Nodes()[s.Output()].Role != RoleOutput {
				t.Errorf("%s: the stepper's output is node %d (%q), the program's %d", ex.Name, s.Output(), s.Nodes()[s.Output()].Role, p.Program().Output())
			}
			s.ToEnd()
			if s.Position().Phase != autograd.PhaseDone {
				t.Fatalf("%s %+v: stepping stopped at %v: %v", ex.Name, m, s.Position(), s.Err())
			}
			for i := range s.Nodes() {
				if !tensor.Identical(s.Value(i), ref.Tape.Node(i).Value) {
					t.Errorf("%s %+v: node %d value %v, the engine %v", ex.Name, m, i, s.Value(i), ref.Tape.Node(i).Value)
				}
			}
			for i, g := range ref.Grads {
				if err := near(s.Grad(i), g); err != nil {
					t.Errorf("%s %+v: leaf %d gradient: %v", ex.Name, m, i, err)
				}
			}
		}
	}
}

func near(got, want *tensor.Tensor) error {
	if got == nil {
		if tensor.Identical(want, tensor.Zeros(want.Shape)) {
			return nil // no gradient reached a leaf the output does not use
		}
		return errors.New("no gradient")
	}
	for k, w := range want.Data {
		if math.Abs(got.Data[k]-w) > 1e-12*math.Max(1, math.Abs(w)) {
			return errors.New("entry " + Full(float64(k)) + ": " + Full(got.Data[k]) + " vs " + Full(w))
		}
	}
	return nil
}

// TestProgramNodeTitles: micrograd's example is titled by its variables,
// and an expression's intermediate nodes by their op.
func TestProgramNodeTitles(t *testing.T) {
	p, err := NewProgramPlayground("a = param(2.0)\nb = param(-3.0)\nc = a * b + 1\n")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, n := range p.Stepper().Nodes() {
		got = append(got, n.Title())
	}
	want := "#0 a|#1 b|#2 mul|#3 const|#4 c = add"
	if strings.Join(got, "|") != want {
		t.Errorf("titles %q, want %q", strings.Join(got, "|"), want)
	}
	if !strings.Contains(p.OutputNote(), "scalar") || strings.Contains(p.OutputNote(), "ones") {
		t.Errorf("scalar output note: %q", p.OutputNote())
	}
}

// TestProgramEdits: a broken edit names its line and column and keeps the
// last working tape; undo and redo walk the text's history.
func TestProgramEdits(t *testing.T) {
	p, err := NewProgramPlayground("x = param(3.0)\ny = x * x\n")
	if err != nil {
		t.Fatal(err)
	}
	tape := p.Stepper()
	err = p.Edit("x = param(3.0)\ny = x * z\n")
	var pe *program.Error
	if !errors.As(err, &pe) || pe.Line != 2 || pe.Col != 9 || !strings.Contains(err.Error(), "undefined: z") {
		t.Fatalf("edit error %v, want line 2, col 9 undefined: z", err)
	}
	if p.Stepper() != tape || p.Recorded() {
		t.Error("a broken edit replaced the tape, or says it is recorded")
	}
	if err := p.Edit("x = param([1.0, 2.0])\ny = x * x\n"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(p.OutputNote(), "seeded with ones") {
		t.Errorf("vector output note: %q", p.OutputNote())
	}
	if ok, err := p.Undo(); !ok || err == nil || p.Text() != "x = param(3.0)\ny = x * z\n" {
		t.Errorf("undo: %v %v %q", ok, err, p.Text())
	}
	if ok, err := p.Undo(); !ok || err != nil || p.Text() != "x = param(3.0)\ny = x * x\n" {
		t.Errorf("second undo: %v %v %q", ok, err, p.Text())
	}
	if ok, _ := p.Undo(); ok || p.CanUndo() {
		t.Error("undo past the start")
	}
	if ok, err := p.Redo(); !ok || err == nil {
		t.Errorf("redo: %v %v", ok, err)
	}
	if !p.CanRedo() {
		t.Error("nothing to redo after one redo of two")
	}
}

// TestProgramChecks: the gradient check, the pass comparison and forward
// mode agree with reverse mode on every example, and the IR listing
// exists in compiled mode.
func TestProgramChecks(t *testing.T) {
	for _, ex := range program.Examples() {
		p, err := NewProgramPlayground(ex.Text)
		if err != nil {
			t.Fatal(err)
		}
		gc, err := p.GradCheck(nil)
		if err != nil || !gc.OK || gc.Checked == 0 {
			t.Errorf("%s: gradient check %+v, %v", ex.Name, gc, err)
		}
		for _, m := range []Modes{{}, {Compiled: true}, {Single: true}, {Compiled: true, Single: true}} {
			if err := p.SetModes(m); err != nil {
				t.Fatal(err)
			}
			// The single-output pass is BackwardFrom, bit-identical to the
			// dense one-hot pass it is compared with, in every mode.
			ps, err := p.Passes()
			if err != nil || ps.Dense == 0 || !ps.Identical {
				t.Errorf("%s %+v: passes %+v, %v", ex.Name, m, ps, err)
			}
		}
		if err := p.SetModes(Modes{}); err != nil {
			t.Fatal(err)
		}
		ps, _ := p.Passes()
		if ex.Name == "skipped" && len(ps.Skipped()) == 0 {
			t.Errorf("skipped: the single-output pass skips nothing")
		}
		for leaf := range p.LeafNames() {
			dir, err := p.OneHot(leaf)
			if err != nil {
				t.Fatal(err)
			}
			f, err := p.Forward(dir)
			if err != nil || !f.Check.Agree {
				t.Errorf("%s: forward mode along leaf %d: %v, %v", ex.Name, leaf, f.Check, err)
			}
			if tg, why := f.Tangent(leaf, nil); why != "" || tg.Data[0] != 1 {
				t.Errorf("%s: leaf %d's tangent %v (%s), want its one-hot", ex.Name, leaf, tg, why)
			}
		}
		if err := p.SetModes(Modes{Compiled: true}); err != nil {
			t.Fatal(err)
		}
		if ir, err := p.IRListing(); err != nil || len(ir) == 0 || len(p.Recording().Listing()) != p.Program().Len() {
			t.Errorf("%s: IR %d lines, %v; SSA %d lines for %d nodes", ex.Name, len(ir), err, len(p.Recording().Listing()), p.Program().Len())
		}
	}
}

// TestProgramDirection reads typed directions, and names what is wrong.
func TestProgramDirection(t *testing.T) {
	p, err := NewProgramPlayground("w = param([1.0, 2.0])\nx = input(3.0)\ny = sum(w * x)\n")
	if err != nil {
		t.Fatal(err)
	}
	dir, err := p.ParseDirection([]string{"0.5, -1", "2"})
	if err != nil || FormatDirection(dir[0]) != "0.5 -1" || FormatDirection(dir[1]) != "2" {
		t.Fatalf("ParseDirection = %v, %v", dir, err)
	}
	f, err := p.Forward(dir)
	// ⟨(x, x, w1 + w2), (0.5, −1, 2)⟩ = 1.5 − 3 + 6
	if err != nil || !f.Check.Exact || f.Check.Forward != 4.5 {
		t.Errorf("forward %+v, %v", f.Check, err)
	}
	for _, tt := range []struct {
		in   []string
		want string
	}{
		{[]string{"1", "2"}, "direction of w: 1 numbers, want 2"},
		{[]string{"1 x", "2"}, `direction of w, entry 2: "x" is not a number`},
		{[]string{"1 2"}, "1 entries for 2 leaves"},
	} {
		if _, err := p.ParseDirection(tt.in); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("ParseDirection(%q) = %v, want %q", tt.in, err, tt.want)
		}
	}
}

// TestGradNodesSayWhereTheyComeFrom checks that the nodes a grad recorded
// carry their Origin, are tagged "from ∂y/∂x" and name their VJP rule,
// and that the program's own nodes carry none.
func TestGradNodesSayWhereTheyComeFrom(t *testing.T) {
	p, err := NewProgramPlayground("x = param(0.5)\ny = tanh(x) * x\ng = grad(y, x)\nout = g * 1")
	if err != nil {
		t.Fatal(err)
	}
	var vjp, seed int
	for _, n := range p.Stepper().Nodes() {
		if n.From.Grad == 0 {
			if n.Note() != n.Role || strings.HasPrefix(n.Tag(), "from") {
				t.Errorf("%s of the program's own text is tagged %q", n.Title(), n.Tag())
			}
			continue
		}
		if want := "from ∂y/∂x"; n.Tag() != want || n.Note() != want {
			t.Errorf("%s: tag %q, note %q, want %q", n.Title(), n.Tag(), n.Note(), want)
		}
		words, node, rule := Recorded(n.From)
		switch n.From.Rule {
		case "seed":
			seed++
			if node != -1 || rule != "" || !strings.Contains(words, "seed") {
				t.Errorf("%s: the seed is said %q, node %d, rule %q", n.Title(), words, node, rule)
			}
		case "tanh", "mul":
			vjp++
			f := p.Stepper().Nodes()[node]
			if f.Op == nil || f.Op.Name != n.From.Rule || rule != f.Op.Rule || !strings.Contains(words, "VJP rule of "+f.Op.Name) {
				t.Errorf("%s: recorded by %q from node %d (%s), rule %q", n.Title(), words, node, f.Title(), rule)
			}
		}
		if !strings.HasPrefix(words, "grad 1, ∂y/∂x: ") {
			t.Errorf("%s: %q does not name the grad", n.Title(), words)
		}
	}
	if seed != 1 || vjp < 2 {
		t.Errorf("%d seeds and %d VJP nodes of tanh and mul, want 1 and at least 2", seed, vjp)
	}
	for _, n := range p.Stepper().Nodes() {
		if w, need := BoxWidth(n), float64(len([]rune(n.Shape.String())))*shapeCharW+float64(len([]rune(n.Tag())))*roleCharW; w < need {
			t.Errorf("%s: its box is %v wide, its shape and tag %q need %v", n.Title(), w, n.Tag(), need)
		}
	}
}
