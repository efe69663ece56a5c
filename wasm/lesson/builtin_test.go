package lesson

import (
	"path/filepath"
	"strings"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/internal/kept"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// example returns the gallery program name with its caption comment, as
// the page loads it.
func example(t *testing.T, name string) string {
	t.Helper()
	for _, ex := range program.Examples() {
		if ex.Name == name {
			return "# " + ex.Caption + "\n" + ex.Text
		}
	}
	t.Fatalf("no gallery example %q", name)
	return ""
}

func at(phase string, node int) link.Position { return link.Position{Phase: phase, Node: node} }

// builtin is one built-in lesson as authored here, with the answer each
// question must get (nil: any number the engine computes).
type builtin struct {
	name    string
	lesson  func(t *testing.T) *Lesson
	answers []*float64
}

func num64(v float64) *float64 { return &v }

// linearModel is 2 → linear 1, MSE, with weights and a batch small enough
// to check by hand: W = [0.5, -1], b = 0.25, X = [[1, 2], [3, -1]],
// y = [0.5, 2].
func linearModel() *link.State {
	m := spec.New(tensor.Shape{2}, nn.MSE, nn.NewLinear(1))
	m.Seed = 1
	m.Params = map[string]*tensor.Tensor{"0.weight": tensor.Matrix([][]float64{{0.5, -1}}), "0.bias": tensor.Vector(0.25)}
	return &link.State{Model: m, View: link.ViewStep, Batch: &link.Points{X: [][]float64{{1, 2}, {3, -1}}, Y: []float64{0.5, 2}}}
}

var builtins = []builtin{
	{"chain-rule", func(t *testing.T) *Lesson {
		src := example(t, "micrograd")
		st := func(p link.Position) *link.State {
			return &link.State{Program: src, View: link.ViewStep, Pos: p, Flags: link.Flags{Explain: true}}
		}
		return &Lesson{Title: "The chain rule on micrograd's example", Stops: []Stop{
			{State: st(link.Position{}),
				Caption:  "micrograd's first example: **L = (a·b + c)·f** with a = 2, b = −3, c = 10, f = −2.\nPress → to compute the nodes one at a time.\n\nBefore you do: what will `L` be?",
				Question: &Question{Node: 6, Of: OfValue, Answer: AnswerNumber}},
			{State: st(at(link.PhaseBackward, 6)), Select: ptr(6),
				Caption:  "The forward pass is done and backward starts at the output: **dL/dL = 1**.\nThe next step runs the VJP of `L = d·f`: `·` sends each operand the gradient times the **other** operand.\n\nWhat will `d` receive?",
				Question: &Question{Node: 5, Of: OfGrad, Answer: AnswerNumber}},
			{State: st(at(link.PhaseBackward, 5)), Select: ptr(5),
				Caption:  "`d = e + c`: **+ routes** the gradient unchanged to both operands.\n\nWill `c`'s gradient be positive or negative?",
				Question: &Question{Node: 2, Of: OfGrad, Answer: AnswerSign}},
			{State: st(at(link.PhaseBackward, 4)), Select: ptr(4),
				Caption:  "`e = a·b` with **dL/de = −2**. The chain rule multiplies: dL/da = dL/de · de/da = −2 · b.\n\nWhat is dL/da?",
				Question: &Question{Node: 0, Of: OfGrad, Answer: AnswerNumber}},
			{State: st(at(link.PhaseDone, -1)), Select: ptr(0),
				Caption: "Every gradient by the chain rule, one local rule per node:\n**dL/da = 6**, **dL/db = −4**, **dL/dc = −2**, **dL/df = 4**.\n\nClick any node to see its rule with the numbers put in."},
		}}
	}, []*float64{num64(-8), num64(-2), num64(-2), num64(6), nil}},
	{"fan-in", func(t *testing.T) *Lesson {
		src := example(t, "fanin")
		st := func(p link.Position) *link.State {
			return &link.State{Program: src, View: link.ViewStep, Pos: p, Modes: app.Modes{Single: true}, Flags: link.Flags{Explain: true}}
		}
		l2 := link.Default()
		l2.Modes.L2 = 0.01
		l2.Pos = at(link.PhaseBackward, 11)
		return &Lesson{Title: "Why gradients add at fan-in", Stops: []Stop{
			{State: st(link.Position{}),
				Caption:  "`y = x·x + x` with x = 3: the value `x` is used **three times**.\n\nWhat will `y` be?",
				Question: &Question{Node: 2, Of: OfValue, Answer: AnswerNumber}},
			{State: st(at(link.PhaseBackward, 2)),
				Caption:  "Backward starts at `y` with dy/dy = 1. The `+` sends 1 to `x·x` and 1 to `x`.\n\nWhat will the gradient of `x·x` be?",
				Question: &Question{Node: 1, Of: OfGrad, Answer: AnswerNumber}},
			{State: st(at(link.PhaseBackward, 1)), Select: ptr(1),
				Caption:  "`x` already holds 1 from the `+`. The VJP of `x·x` sends **each** operand dY·(the other) = 1·3, and both operands are `x`:\nthe slot receives **+= 3** twice.\n\nWhat will dy/dx be?",
				Question: &Question{Node: 0, Of: OfGrad, Answer: AnswerNumber}},
			{State: st(at(link.PhaseDone, -1)), Select: ptr(0),
				Caption: "dy/dx = 1 + 3 + 3 = **7**, which is 2x + 1: one term per use of `x`.\nA value used by several nodes **adds** the gradients they send back: that is the `+=` in every backward pass."},
			{State: l2, Select: ptr(11),
				Caption:  "The same in a model: with an **L2 penalty** each weight feeds its layer **and** the penalty `Σ W⊙W`.\nThe next step runs `W·W`, whose two operands are the same weight.\n\nWill the first weight's gradient be positive or negative?",
				Question: &Question{Node: 2, Of: OfGrad, Answer: AnswerSign}},
		}}
	}, []*float64{num64(12), num64(1), num64(7), nil, nil}},
	{"linear-backward", func(t *testing.T) *Lesson {
		st := func(p link.Position) *link.State {
			s := linearModel()
			s.Pos = p
			s.Flags.Explain = true
			return s
		}
		return &Lesson{Title: "What backward does for a linear layer", Stops: []Stop{
			{State: st(at(link.PhaseForward, 4)),
				Caption:  "A linear layer **Y = X·Wᵀ + b** on a batch of two examples: X = [[1, 2], [3, −1]], W = [0.5, −1], b = 0.25.\n\nWhat will the first prediction be?",
				Question: &Question{Node: 4, Of: OfValue, Answer: AnswerNumber}},
			{State: st(at(link.PhaseBackward, 6)),
				Caption:  "The loss is the mean squared error against y = [0.5, 2]. Its VJP sends the prediction **dY = 2·(Y − y)/n**.\n\nWhat will dY be for the first example?",
				Question: &Question{Node: 4, Of: OfGrad, Answer: AnswerNumber}},
			{State: st(at(link.PhaseBackward, 4)), Select: ptr(4),
				Caption:  "Now the layer's own VJP: `dW = dYᵀ·X` sums, over the batch, each example's dY times its input.\n\nWhat will the gradient of W's **second** weight be?",
				Question: &Question{Node: 2, Of: OfGrad, Element: 1, Answer: AnswerNumber}},
			{State: st(at(link.PhaseBackward, 4)),
				Caption:  "And the bias: `db = Σ_rows dY`, the upstream gradients summed over the batch (−1.75 + 0.75).\n\nPositive or negative?",
				Question: &Question{Node: 3, Of: OfGrad, Answer: AnswerSign}},
			{State: st(at(link.PhaseDone, -1)), Select: ptr(4),
				Caption: "One VJP gave all three: **dX = dY·W**, **dW = dYᵀ·X**, **db = Σ_rows dY**.\nAn optimizer step now moves W and b against these gradients."},
		}}
	}, []*float64{num64(-1.25), num64(-1.75), num64(-4.25), num64(-1), nil}},
}

// TestBuiltins proves the built-in lessons: each kept document decodes to
// the lesson authored above and is still written byte for byte; each has
// 4 to 8 stops, a caption on every stop and at least one question; and
// every stop opens through wasm/app at its position, its selected node
// exists, and every question's answer is computed by the engine (and equal to the value worked out by
// hand where the lesson's caption states it).
func TestBuiltins(t *testing.T) {
	for _, b := range builtins {
		t.Run(b.name, func(t *testing.T) {
			want := b.lesson(t)
			path := filepath.Join("builtin", b.name+".json")
			data := kept.File(t, path, *updateFixtures, func() ([]byte, error) { return Encode(want) })
			l, err := Decode(data)
			if err != nil {
				t.Fatalf("the kept lesson %s no longer decodes: %v", path, err)
			}
			wantDoc, err := Encode(want)
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(string(data)) != string(wantDoc) {
				t.Errorf("%s differs from the lesson authored in this test", path)
			}
			if n := len(l.Stops); n < 4 || n > 8 {
				t.Errorf("%d stops, want 4 to 8", n)
			}
			questions := 0
			for i, s := range l.Stops {
				if len(Parse(s.Caption)) == 0 {
					t.Errorf("stop %d has no caption", i)
				}
				st, err := Open(s.State)
				if err != nil {
					t.Fatalf("stop %d does not open: %v", i, err)
				}
				if got := link.PositionOf(st); s.State.Pos.IsStart() && !got.IsStart() || !s.State.Pos.IsStart() && got != s.State.Pos {
					t.Errorf("stop %d stands at %+v, want %+v", i, got, s.State.Pos)
				}
				if s.Select != nil && *s.Select >= len(st.Nodes()) {
					t.Errorf("stop %d selects node %d of %d", i, *s.Select, len(st.Nodes()))
				}
				if s.Question == nil {
					st.Close()
					continue
				}
				questions++
				if s.Question.Node >= len(st.Nodes()) {
					t.Fatalf("stop %d asks about node %d of %d", i, s.Question.Node, len(st.Nodes()))
				}
				v, err := Answer(st, s.Question)
				st.Close()
				if err != nil {
					t.Fatalf("stop %d: %v", i, err)
				}
				if w := b.answers[i]; w != nil && v != *w {
					t.Errorf("stop %d: the engine answers %v, the lesson says %v", i, v, *w)
				}
				if verdict, err := Score(s.Question, formatGuess(s.Question, v), v); err != nil || !verdict.Right {
					t.Errorf("stop %d: the engine's own answer %v is scored %+v, %v", i, v, verdict, err)
				}
			}
			if questions == 0 {
				t.Error("no question")
			}
			if err := Check(l); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestBuiltinsEmbedded checks that Builtins gives the kept lessons in menu
// order, decoded.
func TestBuiltinsEmbedded(t *testing.T) {
	got, err := Builtins()
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(builtins) {
		t.Fatalf("Builtins returns %d lessons, want %d", len(got), len(builtins))
	}
	for k, b := range builtins {
		if got[k].Name != b.name {
			t.Fatalf("Builtins()[%d] is %s, want %s", k, got[k].Name, b.name)
		}
		equalLessons(t, got[k].Lesson, b.lesson(t))
	}
}

// formatGuess writes v as a student would answer it.
func formatGuess(q *Question, v float64) string {
	if q.Answer == AnswerSign {
		switch {
		case v > 0:
			return "+"
		case v < 0:
			return "-"
		}
		return "0"
	}
	return num(v)
}
