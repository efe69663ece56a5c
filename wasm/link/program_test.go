package link

import (
	"errors"
	"strings"
	"testing"

	"tapelab/engine/program"
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
