package lesson

import (
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/wasm/link"
)

// TestSuggestAsksWhatIsComputedNext: the question an author starts from is
// one Check accepts: at the default model's start the gradient of its
// first parameter (node 0, the input x, never gets one), of the selected
// node when it gets one, and a value where every gradient is final.
func TestSuggestAsksWhatIsComputedNext(t *testing.T) {
	start := Stop{State: link.Default()}
	s, err := Open(start.State)
	if err != nil {
		t.Fatal(err)
	}
	firstParam := -1
	for i, n := range s.Nodes() {
		if n.Kind == autograd.Param {
			firstParam = i
			break
		}
	}
	s.Close()
	if q := Suggest(start); q == nil || q.Node != firstParam || q.Of != OfGrad || q.Element != 0 || q.Answer != AnswerNumber {
		t.Errorf("at the start: %+v, want the gradient of node %d", q, firstParam)
	}
	sel := 6
	picked := Stop{State: link.Default(), Select: &sel}
	if q := Suggest(picked); q == nil || q.Node != 6 || q.Of != OfGrad {
		t.Errorf("with node 6 selected: %+v, want its gradient", q)
	}
	for _, stop := range []Stop{start, picked} {
		q := Suggest(stop)
		if err := Check(&Lesson{Title: "t", Stops: []Stop{{State: stop.State, Question: q}}}); err != nil {
			t.Errorf("Check refuses the suggested %+v: %v", q, err)
		}
	}
	end := link.Default()
	end.Pos = link.Position{Phase: link.PhaseDone, Node: -1}
	if q := Suggest(Stop{State: end}); q != nil {
		t.Errorf("at the end: %+v, want none (everything is computed)", q)
	}
}

// TestProblemInPlainWords: each question Check refuses is said in words
// naming the node, with what to ask instead; an accepted one says nothing.
func TestProblemInPlainWords(t *testing.T) {
	start := Stop{State: link.Default()}
	end := link.Default()
	end.Pos = link.Position{Phase: link.PhaseDone, Node: -1}
	for _, c := range []struct {
		name string
		stop Stop
		q    Question
		want []string // "" for none
	}{
		{"the input's gradient", start, Question{Node: 0, Of: OfGrad, Answer: AnswerNumber},
			[]string{"#0 x never gets a gradient", "such as the gradient of #2 0.weight"}},
		{"no such node", start, Question{Node: 99, Of: OfValue, Answer: AnswerNumber}, []string{"nodes #0 to #10", "no #99"}},
		{"no such element", start, Question{Node: 2, Of: OfGrad, Element: 8, Answer: AnswerNumber}, []string{"#2 0.weight has 8 numbers (shape [4 2])", "from 0 to 7"}},
		{"already computed", Stop{State: end}, Question{Node: 2, Of: OfGrad, Answer: AnswerNumber}, []string{"#2 0.weight's gradient is already on screen", "before the step that computes it"}},
		{"a negative node", start, Question{Node: -1, Of: OfGrad, Answer: AnswerNumber}, []string{"#0 or more"}},
		{"accepted", start, Question{Node: 2, Of: OfGrad, Element: 7, Answer: AnswerSign}, nil},
	} {
		got := Problem(c.stop, &c.q)
		if c.want == nil && got != "" {
			t.Errorf("%s: %q, want none", c.name, got)
		}
		for _, w := range c.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: %q, want it to say %q", c.name, got, w)
			}
		}
		for _, jargon := range []string{"stepper", "question.node", "grad "} {
			if strings.Contains(got, jargon) {
				t.Errorf("%s: %q says %q", c.name, got, jargon)
			}
		}
	}
}
