package link

import (
	"errors"
	"math"
	"strings"
	"testing"

	"tapelab/engine/program"
	"tapelab/engine/train"
)

const micrograd = `"a = param(2.0)\nb = param(-3.0)\nL = a * b\n"`

// TestProgramLinkErrors checks what a program link must not be, each
// fault named: a program that does not parse (line and column), an empty
// one, a model and a program together, and the model-only fields.
func TestProgramLinkErrors(t *testing.T) {
	tests := []struct {
		name, envelope string
		part, msg      string
	}{
		{"bad program", `{"program":"a = param([[1, 2, 3], [4, 5, 6]])\nb = a @ a\n"}`, "program", "link program: line 2, col 7: matmul: [2 3] @ [2 3]: inner sizes 3 and 2 differ"},
		{"undefined name", `{"program":"y = x * 2"}`, "program", "link program: line 1, col 5: undefined: x"},
		{"empty program", `{"program":""}`, "program", "link program: empty"},
		{"program type", `{"program":["a = 1"]}`, "program", "want string, got a JSON array"},
		{"both", `{"model":` + defaultModel + `,"program":` + micrograd + `}`, "envelope", "holds both a model and a program"},
		{"points", `{"program":` + micrograd + `,"points":{"x":[[1,2]],"y":[0]}}`, "points", "belong to a model"},
		{"batch", `{"program":` + micrograd + `,"batch":{"x":[[1,2]],"y":[0]}}`, "batch", "belongs to a model"},
		{"train view", `{"program":` + micrograd + `,"view":"train"}`, "view", "a program has no training view"},
		{"bad phase", `{"program":` + micrograd + `,"pos":{"phase":"up","node":1}}`, "pos.phase", "not a phase"},
		{"forward on a model", `{"model":` + defaultModel + `,"forward":[[1]]}`, "forward", "belongs to a program"},
		{"forward rows", `{"program":` + micrograd + `,"forward":[[1]]}`, "forward", "1 rows for the program's 2 leaves"},
		{"forward row", `{"program":` + micrograd + `,"forward":[[1],[0,1]]}`, "forward[1]", "2 numbers, leaf b of shape [] has 1"},
		{"forward type", `{"program":` + micrograd + `,"forward":{"leaf":1}}`, "forward", "want [][]float64, got a JSON object"},
		{"optimizer on a model", `{"model":` + defaultModel + `,"optimizer":{"name":"adam"}}`, "optimizer", "belongs to a program"},
		{"params on a model", `{"model":` + defaultModel + `,"params":{"a":[1]}}`, "params", "belong to a program"},
		{"optimizer type", `{"program":` + micrograd + `,"optimizer":"adam"}`, "optimizer", "want an object"},
		{"optimizer name", `{"program":` + micrograd + `,"optimizer":{"name":"lbfgs"}}`, "optimizer.name", "unknown optimizer"},
		{"optimizer lr", `{"program":` + micrograd + `,"optimizer":{"name":"adam","lr":-1}}`, "optimizer.lr", "must be a finite number > 0"},
		{"optimizer betas", `{"program":` + micrograd + `,"optimizer":{"name":"adam","betas":[0.9,1]}}`, "optimizer.betas[1]", "must be in [0, 1)"},
		{"optimizer field", `{"program":` + micrograd + `,"optimizer":{"rate":1}}`, "optimizer", "rate"},
		{"params type", `{"program":` + micrograd + `,"params":[[2],[1]]}`, "params", "want an object, got a JSON array"},
		{"params row type", `{"program":` + micrograd + `,"params":{"a":2,"b":[1]}}`, "params.a", "want []float64, got a JSON number 2"},
		{"params number", `{"program":` + micrograd + `,"params":{"a":[2],"b":["1"]}}`, "params.b[0]", "want float64, got a JSON string"},
		{"params missing", `{"program":` + micrograd + `,"params":{"a":[2]}}`, "params", "misses param b"},
		{"params unknown", `{"program":` + micrograd + `,"params":{"a":[2],"b":[1],"c":[0]}}`, "params.c", "not a param of the program"},
		{"params twice", `{"program":` + micrograd + `,"params":{"a":[2],"a":[3],"b":[1]}}`, "params.a", "appears more than once"},
		{"params size", `{"program":` + micrograd + `,"params":{"a":[2,3],"b":[1]}}`, "params.a", "2 numbers, leaf a of shape [] has 1"},
		{"params of an input", `{"program":"x = input(1.0)\na = param([2.0, 1.0])\nL = sum(a * x)\n","params":{"a":[1,2],"x":[2]}}`, "params.x", "x is an input of the program, not a param"},
		{"params single-output", `{"program":` + micrograd + `,"modes":{"single":true},"params":{"a":[2],"b":[1]}}`, "params", "single-output"},
		{"update mid-backward", `{"program":` + micrograd + `,"pos":{"phase":"backward","node":2},"update":{"n":1,"steps":[1,1],"buffers":[]}}`, "update", "at the end of the backward pass"},
		{"update steps", `{"program":` + micrograd + `,"update":{"n":0,"steps":[1.5],"buffers":[]}}`, "update.steps[0]", "want int"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Decode(pack(t, tt.envelope))
			var le *Error
			if !errors.As(err, &le) || le.Part != tt.part || !strings.Contains(err.Error(), tt.msg) {
				t.Fatalf("error %v, want part %q saying %q", err, tt.part, tt.msg)
			}
		})
	}
	_, err := Decode(pack(t, `{"program":"y = x"}`))
	var pe *program.Error
	if !errors.As(err, &pe) || pe.Line != 1 || pe.Col != 5 {
		t.Errorf("error %v does not unwrap to the program's *Error at line 1, col 5", err)
	}
}

// TestProgramLinkKeepsText checks that a program travels exactly as
// written, comments, blank lines and odd spacing included, and that the
// page's Open opens it as the program.
func TestProgramLinkKeepsText(t *testing.T) {
	src := "# mine\n\na   =  param( 2 )   # two\nb = a**2\n"
	l, err := Encode(&State{Program: src})
	if err != nil {
		t.Fatal(err)
	}
	s, err := Decode(l)
	if err != nil || s.Program != src || s.Model != nil || s.View != ViewStep {
		t.Fatalf("Decode = %+v, %v", s, err)
	}
	opened, err := Open("#" + l)
	if err != nil || opened.Model != nil || opened.Program != src {
		t.Errorf("Open = %+v, %v; want the program", opened, err)
	}
	if _, err := Encode(&State{Program: "b = a"}); err == nil || !strings.Contains(err.Error(), "line 1, col 5: undefined: a") {
		t.Errorf("Encode of a bad program: %v", err)
	}
}

// TestProgramLinkUpdates encodes a program's update phase, its optimizer
// and its weights: they come back as they went, the weights written in
// the order the program writes its params whatever the order they were
// read in, and a weight that is not a finite number is refused naming it.
func TestProgramLinkUpdates(t *testing.T) {
	src := "x = input([1.0, 2.0])\nw = param([[0.5, -1.0], [2.0, 0.25]])\nb = param(0.5)\nL = sum(w @ x) + b\n"
	adam := train.DefaultOptimizer("adam")
	adam.LR, adam.WeightDecay = 0.01, 0.1
	st := &State{Program: src, Pos: Position{Phase: PhaseDone, Node: -1}, Optimizer: &adam,
		Params: map[string][]float64{"b": {0.4375}, "w": {0.5, -1.03125, 1.96875, 0.25}},
		Update: &Update{N: 1, Steps: []int{1, 1}, Buffers: [][][]float64{{{0.1, 0.2, 0.3, 0.4}, {0.5}}, {{0.01, 0.02, 0.03, 0.04}, {0.05}}}}}
	raw, err := JSON(st)
	if err != nil {
		t.Fatal(err)
	}
	if want := `"params":{"w":[0.5,-1.03125,1.96875,0.25],"b":[0.4375]}}`; !strings.HasSuffix(string(raw), want) {
		t.Errorf("the envelope %s does not end with %s", raw, want)
	}
	if want := `"optimizer":{"name":"adam","lr":0.01,"weight_decay":0.1}`; !strings.Contains(string(raw), want) {
		t.Errorf("the envelope %s does not hold %s", raw, want)
	}
	l, err := Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Decode(l)
	if err != nil {
		t.Fatal(err)
	}
	equalStates(t, got, &State{Program: src, View: ViewStep, Pos: st.Pos, Optimizer: st.Optimizer, Params: st.Params, Update: st.Update})
	// Read in another order, written in the program's.
	swapped := strings.Replace(string(raw), `"params":{"w":[0.5,-1.03125,1.96875,0.25],"b":[0.4375]}`, `"params":{"b":[0.4375],"w":[0.5,-1.03125,1.96875,0.25]}`, 1)
	back, err := DecodeJSON([]byte(swapped))
	if err != nil {
		t.Fatal(err)
	}
	if again, err := JSON(back); err != nil || string(again) != string(raw) {
		t.Errorf("re-encoded as %s (%v), want %s", again, err, raw)
	}
	// A weight that is not a finite number.
	st.Params = map[string][]float64{"b": {0.5}, "w": {0.5, math.Inf(1), 2, 0.25}}
	var le *Error
	if _, err := Encode(st); !errors.As(err, &le) || le.Part != "params.w[1]" {
		t.Errorf("Encode of an infinite weight: %v, want an error at params.w[1]", err)
	}
}
