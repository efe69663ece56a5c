package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// TestGradProgramFloat32 runs `grad -program P -precision float32` on every
// gallery example and checks each printed number, exactly, against the
// engine's float32 run (program.GradAt), and that float32 changed some.
func TestGradProgramFloat32(t *testing.T) {
	differ := 0
	for _, ex := range program.Examples() {
		path := writeTemp(t, ex.Name+".tl", ex.Text)
		out, _, err := runCLI(t, "grad", "-program", path, "-precision", "float32")
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		var got programResult
		if err := json.Unmarshal([]byte(out), &got); err != nil {
			t.Fatalf("%s: %v\n%s", ex.Name, err, out)
		}
		p, _ := program.Parse(ex.Text)
		r, err := p.GradAt(tensor.Float32)
		if err != nil {
			t.Fatal(err)
		}
		same := func(what string, printed any, want *tensor.Tensor) {
			if g := flatNumbers(printed); !equalFloats(g, want.Data) {
				t.Errorf("%s: %s printed %v, GradAt(float32) %v", ex.Name, what, g, want.Data)
			}
		}
		same("output", got.Output, r.Output)
		for i, l := range p.Leaves() {
			same("d"+l.Name, got.Grads[l.Name], r.Grads[i])
		}
		out64, _, err := runCLI(t, "grad", "-program", path)
		if err != nil {
			t.Fatal(err)
		}
		if out64 != out {
			differ++
		}
	}
	if differ == 0 {
		t.Error("-precision float32 printed float64's numbers for every example")
	}
}

func equalFloats(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestPrecisionFlag: grad and train on a model in float32 print float32
// numbers (the loss, the outputs, the gradients, the trained parameters)
// that differ from float64's, and a bad -precision is refused naming the
// flag and the choices.
func TestPrecisionFlag(t *testing.T) {
	model := []string{"-model", "testdata/mlp.json", "-data", "testdata/mlp_data.json"}
	out64, _, err := runCLI(t, append([]string{"grad"}, model...)...)
	if err != nil {
		t.Fatal(err)
	}
	out32, _, err := runCLI(t, append([]string{"grad", "-precision", "float32"}, model...)...)
	if err != nil {
		t.Fatal(err)
	}
	if out32 == out64 {
		t.Error("grad -precision float32 printed float64's numbers")
	}
	var g map[string]any
	if err := json.Unmarshal([]byte(out32), &g); err != nil {
		t.Fatal(err)
	}
	for _, v := range flatNumbers([]any{g["loss"], g["outputs"], g["grads"].(map[string]any)["0.weight"]}) {
		if tensor.Round32(v) != v {
			t.Fatalf("grad -precision float32 printed %v, not a float32", v)
		}
	}
	out32, _, err = runCLI(t, append([]string{"train", "-precision", "float32", "-steps", "5"}, model...)...)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out32), "\n")
	var final struct{ Params map[string]any }
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &final); err != nil || len(final.Params) == 0 {
		t.Fatalf("%v\n%s", err, out32)
	}
	for name, v := range final.Params {
		for _, x := range flatNumbers(v) {
			if tensor.Round32(x) != x {
				t.Fatalf("train -precision float32: %s holds %v, not a float32", name, x)
			}
		}
	}
	const bad = `invalid value "float16" for flag -precision: unknown precision "float16" (want float64 or float32)`
	for _, args := range [][]string{
		append([]string{"grad", "-precision", "float16"}, model...),
		append([]string{"train", "-precision", "float16"}, model...),
		{"grad", "-program", writeTemp(t, "p.tl", program.Examples()[0].Text), "-precision", "float16"},
	} {
		if _, _, err := runCLI(t, args...); err == nil || err.Error() != bad {
			t.Errorf("%v: error %v, want %s", args, err, bad)
		}
	}
}
