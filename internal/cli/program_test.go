package cli

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"tapelab/engine/ir"
	"tapelab/engine/program"
)

// programResult is the JSON object `grad -program` prints.
type programResult struct {
	Output any            `json:"output"`
	Grads  map[string]any `json:"grads"`
}

// TestGradProgramMicrograd runs `grad -program` on micrograd's example as a
// user would and checks every number against the chain rule by hand.
func TestGradProgramMicrograd(t *testing.T) {
	p := writeTemp(t, "micrograd.tl", program.Examples()[0].Text)
	out, stderr, err := runCLI(t, "grad", "-program", p)
	if err != nil || stderr != "" {
		t.Fatalf("err %v, stderr %q", err, stderr)
	}
	want := `{"output": -8, "grads": {"a": 6, "b": -4, "c": -2, "f": 4}}` + "\n"
	if out != want {
		t.Errorf("got %s want %s", out, want)
	}
}

// TestGradProgramExamples runs every gallery example through the command
// and checks the printed JSON against the engine: one entry per param and
// input, keyed by name, nested in the leaf's shape, in statement order.
func TestGradProgramExamples(t *testing.T) {
	for _, ex := range program.Examples() {
		t.Run(ex.Name, func(t *testing.T) {
			out, _, err := runCLI(t, "grad", "-program", writeTemp(t, ex.Name+".tl", ex.Text))
			if err != nil {
				t.Fatal(err)
			}
			dec := json.NewDecoder(strings.NewReader(out))
			dec.DisallowUnknownFields()
			var got programResult
			if err := dec.Decode(&got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			p, _ := program.Parse(ex.Text)
			r, err := p.Grad()
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(nested(t, r.Output.Shape, r.Output.Data), got.Output) {
				t.Errorf("output %v, engine %v", got.Output, r.Output)
			}
			if len(got.Grads) != len(p.Leaves()) {
				t.Errorf("%d grads for %d leaves", len(got.Grads), len(p.Leaves()))
			}
			pos := -1
			for i, l := range p.Leaves() {
				g := r.Grads[i]
				if !reflect.DeepEqual(nested(t, g.Shape, g.Data), got.Grads[l.Name]) {
					t.Errorf("d%s = %v, engine %v", l.Name, got.Grads[l.Name], g)
				}
				k := strings.Index(out, `"`+l.Name+`": `)
				if k < pos {
					t.Errorf("grads are not in statement order: %s", out)
				}
				pos = k
			}
		})
	}
}

// nested decodes the JSON the command writes for a tensor, for comparing
// with what it printed.
func nested(t *testing.T, shape []int, data []float64) any {
	t.Helper()
	var b strings.Builder
	var walk func(s []int, d []float64)
	walk = func(s []int, d []float64) {
		if len(s) == 0 {
			js, _ := json.Marshal(d[0])
			b.Write(js)
			return
		}
		step := len(d) / s[0]
		b.WriteByte('[')
		for i := 0; i < s[0]; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			walk(s[1:], d[i*step:(i+1)*step])
		}
		b.WriteByte(']')
	}
	walk(shape, data)
	var v any
	if err := json.Unmarshal([]byte(b.String()), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestIRProgram prints the MLP example's IR and checks it decodes, keeps
// the params by name in its payload, reads X and Y as inputs 0 and 1, and
// ends with the loss.
func TestIRProgram(t *testing.T) {
	ex := program.Examples()[4]
	out, _, err := runCLI(t, "ir", "-program", writeTemp(t, "mlp.tl", ex.Text))
	if err != nil {
		t.Fatal(err)
	}
	g, err := ir.Decode([]byte(out))
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var inputs, params []string
	for _, n := range g.Nodes {
		switch n.Kind {
		case ir.KindInput:
			inputs = append(inputs, n.Kind)
		case ir.KindParam:
			params = append(params, n.Kind)
		}
	}
	if len(inputs) != 2 || len(params) != 4 {
		t.Errorf("%d inputs and %d params, want 2 and 4\n%s", len(inputs), len(params), out)
	}
	for _, name := range []string{`"W1"`, `"b1"`, `"W2"`, `"b2"`} {
		if !strings.Contains(out, name) {
			t.Errorf("payload does not name %s", name)
		}
	}
	if last := g.Nodes[len(g.Nodes)-1]; last.Kind != "mse_loss" {
		t.Errorf("last node is %s, want the loss", last.Kind)
	}
}

// TestProgramCLIErrors runs the commands on bad programs as a user would:
// the error names the file, line and column and the thing at fault, and
// nothing is printed to stdout.
func TestProgramCLIErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"parse error", []string{"grad", "-program", writeTemp(t, "P.tl", "a = param(1)\nb = a +\n")}, "P.tl: line 2, col 8: expected an expression, found the end of the line"},
		{"shape error", []string{"grad", "-program", writeTemp(t, "P.tl", "a = param([[1, 2, 3], [4, 5, 6]])\nb = a @ a\n")}, "P.tl: line 2, col 7: matmul: [2 3] @ [2 3]: inner sizes 3 and 2 differ"},
		{"name error", []string{"ir", "-program", writeTemp(t, "P.tl", "y = x * 2\n")}, "P.tl: line 1, col 5: undefined: x"},
		{"domain error", []string{"grad", "-program", writeTemp(t, "P.tl", "a = param(-1)\nb = sqrt(a)\n")}, "P.tl: line 2, col 5: sqrt([]): X[] = -1 is negative; sqrt needs X ≥ 0"},
		{"domain error in ir", []string{"ir", "-program", writeTemp(t, "P.tl", "a = param(-1)\nb = log(a)\n")}, "P.tl: line 2, col 5: log([]): X[] = -1 is negative"},
		{"infinite output", []string{"grad", "-program", writeTemp(t, "P.tl", "a = param(0)\nb = 1 / a\n")}, "P.tl: output is +Inf, which JSON cannot hold"},
		{"output not last", []string{"ir", "-program", writeTemp(t, "P.tl", "a = param(1)\nb = a * 2\nc = a\n")}, "P.tl: line 3, col 1: the output c is not the last value computed"},
		{"missing file", []string{"grad", "-program", "testdata/nope.tl"}, "nope.tl: no such file"},
		{"both sources", []string{"grad", "-program", "P.tl", "-model", "testdata/mlp.json"}, "give -model or -program, not both"},
		{"data with a program", []string{"grad", "-program", "P.tl", "-data", "testdata/mlp_data.json"}, "-data applies to models; a program's data and shapes are in its text"},
		{"batch with a program", []string{"ir", "-program", "P.tl", "-batch", "4"}, "-batch applies to models"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runCLI(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if out != "" {
				t.Errorf("stdout %q, want nothing", out)
			}
		})
	}
}
