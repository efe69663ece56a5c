package lesson

import (
	"errors"
	"strings"
	"testing"

	"tapelab/engine/spec"
	"tapelab/wasm/link"
)

const program1 = `{"program":"a = param(2.0)\nb = a * a\n"}`

// doc writes a lesson document with the given stops (JSON texts).
func doc(stops ...string) string {
	return `{"version":1,"title":"T","stops":[` + strings.Join(stops, ",") + `]}`
}

// TestDecodeErrors: each fault is an *Error whose path names the stop and
// field at fault.
func TestDecodeErrors(t *testing.T) {
	ok := `{"state":` + program1 + `}`
	tests := []struct {
		name, doc, path, msg string
	}{
		{"syntax", `{"version":1,`, "", "the JSON ends early"},
		{"trailing", doc(ok) + "x", "", "trailing data"},
		{"not an object", `[1]`, "", "want an object for the lesson, got a JSON array"},
		{"duplicate", `{"version":1,"version":1}`, "version", "appears more than once"},
		{"version", `{"version":2,"title":"T","stops":[` + ok + `]}`, "version", "want 1, got a JSON number 2"},
		{"no version", `{"title":"T","stops":[` + ok + `]}`, "version", "missing (want 1)"},
		{"no title", `{"version":1,"stops":[` + ok + `]}`, "title", "missing"},
		{"empty title", `{"version":1,"title":"","stops":[` + ok + `]}`, "title", "empty"},
		{"null title", `{"version":1,"title":null,"stops":[` + ok + `]}`, "title", "want string, got a JSON null"},
		{"unknown", `{"version":1,"title":"T","stops":[` + ok + `],"author":"me"}`, "author", `unknown field "author" (a lesson has version, title and stops)`},
		{"no stops", doc(), "stops", "no stops"},
		{"stops type", `{"version":1,"title":"T","stops":{}}`, "stops", "want an array of stops"},
		{"stop type", doc(ok, `"x"`), "stops[1]", "want an object for stops[1], got a JSON string"},
		{"stop unknown", doc(`{"state":` + program1 + `,"answer":3}`), "stops[0].answer", `unknown field "answer" (a stop has state, caption, select and question)`},
		{"no state", doc(ok, `{"caption":"hi"}`), "stops[1].state", "missing"},
		{"state type", doc(`{"state":"v1.abc"}`), "stops[0].state", "want a link envelope (an object), got a JSON string"},
		{"bad program", doc(ok, ok, `{"state":{"program":"y = x"}}`), "stops[2].state.program", "line 1, col 5: undefined: x"},
		{"bad model", doc(`{"state":{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":0}],"loss":"mse"}}}`), "stops[0].state.model", "layers[0].out"},
		{"bad phase", doc(ok, `{"state":{"program":"a = param(1)","pos":{"phase":"sideways","node":0}}}`), "stops[1].state.pos.phase", `"sideways" is not a phase`},
		{"state unknown", doc(`{"state":{"program":"a = param(1)","zoom":2}}`), "stops[0].state", `unknown field "zoom"`},
		{"caption type", doc(`{"state":` + program1 + `,"caption":["a"]}`), "stops[0].caption", "want string, got a JSON array"},
		{"caption control", doc(`{"state":` + program1 + `,"caption":"a\u0007b"}`), "stops[0].caption", "control character U+0007"},
		{"caption length", doc(`{"state":` + program1 + `,"caption":"` + strings.Repeat("a", MaxCaption+1) + `"}`), "stops[0].caption", "4001 bytes, at most 4000"},
		{"select", doc(ok, `{"state":`+program1+`,"select":-3}`), "stops[1].select", "must be ≥ 0, got -3"},
		{"select type", doc(`{"state":` + program1 + `,"select":"L"}`), "stops[0].select", "want int, got a JSON string"},
		{"question type", doc(ok, ok, `{"state":`+program1+`,"question":3}`), "stops[2].question", "want an object for stops[2].question"},
		{"question node", doc(ok, ok, `{"state":`+program1+`,"question":{"node":-1,"of":"grad","answer":"number"}}`), "stops[2].question.node", "must be ≥ 0, got -1"},
		{"question node type", doc(`{"state":` + program1 + `,"question":{"node":1.5,"of":"grad","answer":"number"}}`), "stops[0].question.node", "want int, got a JSON number 1.5"},
		{"question no node", doc(`{"state":` + program1 + `,"question":{"of":"grad","answer":"number"}}`), "stops[0].question.node", "missing"},
		{"question of", doc(`{"state":` + program1 + `,"question":{"node":1,"of":"hessian","answer":"number"}}`), "stops[0].question.of", `"hessian" is not what a question asks for (want value or grad)`},
		{"question element", doc(`{"state":` + program1 + `,"question":{"node":1,"of":"value","element":-2,"answer":"number"}}`), "stops[0].question.element", "must be ≥ 0, got -2"},
		{"question answer", doc(`{"state":` + program1 + `,"question":{"node":1,"of":"value","answer":"essay"}}`), "stops[0].question.answer", `"essay" is not a kind of answer`},
		{"question no answer", doc(`{"state":` + program1 + `,"question":{"node":1,"of":"value"}}`), "stops[0].question.answer", "missing (want number or sign)"},
		{"question unknown", doc(`{"state":` + program1 + `,"question":{"node":1,"of":"value","answer":"sign","hint":"x"}}`), "stops[0].question.hint", "(a question has node, of, element and answer)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			l, err := Decode([]byte(tt.doc))
			var le *Error
			if !errors.As(err, &le) || l != nil {
				t.Fatalf("Decode = %v, %v; want an *Error", l, err)
			}
			if le.Path != tt.path || !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q (path %q), want path %q saying %q", err, le.Path, tt.path, tt.msg)
			}
		})
	}
	_, err := Decode([]byte(doc(`{"state":{"model":{"version":1,"input":[2],"layers":[{"type":"linear","out":0}],"loss":"mse"}}}`)))
	var se *spec.Error
	var le *link.Error
	if !errors.As(err, &le) || !errors.As(err, &se) {
		t.Errorf("a bad model's error %v does not unwrap to the link's and the spec's errors", err)
	}
	if _, err := Decode([]byte(doc(strings.Repeat(ok+",", MaxStops) + ok))); err == nil || !strings.Contains(err.Error(), "51 stops, at most 50") {
		t.Errorf("too many stops: %v", err)
	}
}

// TestCanonical: a lesson written with spaces, another member order and
// defaults spelt out encodes to the one canonical document.
func TestCanonical(t *testing.T) {
	loose := `{ "stops": [ { "question": {"answer": "sign", "of": "grad", "node": 1}, "select": 0,
		"caption": "", "state": {"pos": {"node": 0, "phase": "forward"}, "program": "a = param(2.0)\nb = a * a\n"} } ],
		"title": "T", "version": 1 }`
	l, err := Decode([]byte(loose))
	if err != nil {
		t.Fatal(err)
	}
	got, err := Encode(l)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":1,"title":"T","stops":[{"state":{"program":"a = param(2.0)\nb = a * a\n"},"select":0,"question":{"node":1,"of":"grad","element":0,"answer":"sign"}}]}`
	if string(got) != want {
		t.Errorf("canonical form:\n got %s\nwant %s", got, want)
	}
	if _, err := Encode(&Lesson{Title: "T", Stops: []Stop{{State: &link.State{Program: "b = a"}}}}); err == nil || !strings.Contains(err.Error(), "lesson stops[0].state.program: line 1, col 5: undefined: a") {
		t.Errorf("Encode of a bad state: %v", err)
	}
	if !IsDocument([]byte(want)) || IsDocument([]byte(`{"version":1,"program":"a = 1"}`)) || IsDocument([]byte(`{"stops"`)) {
		t.Error("IsDocument does not tell lessons from other documents")
	}
}

// TestCheck: positions and questions that do not fit their states are
// refused by Check, naming the stop and field.
func TestCheck(t *testing.T) {
	prog := &link.State{Program: "a = param([1.0, 2.0])\nb = a * a\n", View: link.ViewStep}
	far := *prog
	far.Pos = link.Position{Phase: link.PhaseBackward, Node: 0}
	done := *prog
	done.Pos = link.Position{Phase: link.PhaseDone, Node: -1}
	for _, tt := range []struct {
		stop Stop
		want string
	}{
		{Stop{State: prog, Question: &Question{Node: 7, Of: OfValue, Answer: AnswerNumber}}, "lesson stops[1].question.node: the tape has nodes 0 to 1, not 7"},
		{Stop{State: prog, Question: &Question{Node: 1, Of: OfGrad, Element: 2, Answer: AnswerNumber}}, "lesson stops[1].question.element: node 1's grad has 2 elements (shape [2]), so no element 2"},
		{Stop{State: &far}, "lesson stops[1].state.pos.node: the backward pass never stops at node 0"},
		{Stop{State: prog, Select: ptr(2)}, "lesson stops[1].select: the tape has nodes 0 to 1, not 2"},
		{Stop{State: &done, Question: &Question{Node: 0, Of: OfGrad, Answer: AnswerSign}}, "lesson stops[1].question.node: node 0's grad is already complete at this stop's position"},
	} {
		l := &Lesson{Title: "T", Stops: []Stop{{State: prog}, tt.stop}}
		if err := l.Validate(); err != nil {
			t.Fatal(err)
		}
		if err := Check(l); err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Check = %v, want %q", err, tt.want)
		}
	}
	s, err := Open(prog)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if v, err := Answer(s, &Question{Node: 0, Of: OfGrad, Element: 1, Answer: AnswerNumber}); err != nil || v != 4 {
		t.Errorf("d(Σ a·a)/da[1] = %v, %v; want 4", v, err)
	}
}

func ptr(n int) *int { return &n }
