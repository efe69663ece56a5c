package cli

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapelab/engine/ir"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// flatNumbers flattens a number or nested lists of numbers.
func flatNumbers(v any) []float64 {
	switch v := v.(type) {
	case float64:
		return []float64{v}
	case []any:
		var out []float64
		for _, x := range v {
			out = append(out, flatNumbers(x)...)
		}
		return out
	}
	return nil
}

// TestGradProgramWithGradMatchesPyTorch runs `grad -program` on every
// program of engine/program/testdata/grad (grad nested, on params, inputs
// and computed values, through broadcasting, @, softmax, matmul, linear,
// conv2d and max pooling) as a user would, and compares the printed output
// and gradients (of the final output, through every grad node) with
// torch.autograd.grad(create_graph=True) in float64, the goldens
// engine/program/testdata/torch_examples.py writes, to 1e-9 relative to
// each golden tensor's largest entry.
func TestGradProgramWithGradMatchesPyTorch(t *testing.T) {
	dir := filepath.Join("..", "..", "engine", "program", "testdata")
	data, err := os.ReadFile(filepath.Join(dir, "torch_grads.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Examples map[string]programResult
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "grad", "*.tl"))
	if len(files) == 0 || len(files) != len(golden.Examples) {
		t.Fatalf("%d programs, %d goldens", len(files), len(golden.Examples))
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tl")
		t.Run(name, func(t *testing.T) {
			out, stderr, err := runCLI(t, "grad", "-program", f)
			if err != nil || stderr != "" {
				t.Fatalf("err %v, stderr %q", err, stderr)
			}
			var got programResult
			if err := json.Unmarshal([]byte(out), &got); err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			want := golden.Examples[name]
			compare := func(what string, g, w any) {
				gs, ws := flatNumbers(g), flatNumbers(w)
				if len(gs) != len(ws) || len(ws) == 0 {
					t.Fatalf("%s: %d numbers, PyTorch %d", what, len(gs), len(ws))
				}
				scale := 0.0
				for _, v := range ws {
					scale = max(scale, math.Abs(v))
				}
				for i := range ws {
					if math.Abs(gs[i]-ws[i]) > 1e-9*scale {
						t.Errorf("%s[%d] = %.17g, PyTorch %.17g", what, i, gs[i], ws[i])
					}
				}
			}
			compare("output", got.Output, want.Output)
			if len(got.Grads) != len(want.Grads) {
				t.Errorf("%d grads, PyTorch %d", len(got.Grads), len(want.Grads))
			}
			for k, w := range want.Grads {
				compare("d"+k, got.Grads[k], w)
			}
		})
	}
}

// TestIRProgramWithGrad prints each program of engine/program/testdata/grad
// as IR and checks that it decodes, that the recorded VJPs' ops are nodes
// of their own (conv_pool's conv2d_input_grad and max_pool2d_scatter), and
// that the IR's denotation on the program's inputs gives the program's
// output.
func TestIRProgramWithGrad(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("..", "..", "engine", "program", "testdata", "grad", "*.tl"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, _, err := runCLI(t, "ir", "-program", f)
			if err != nil {
				t.Fatal(err)
			}
			g, err := ir.Decode([]byte(out))
			if err != nil {
				t.Fatalf("%v\n%s", err, out)
			}
			kinds := map[string]bool{}
			for _, n := range g.Nodes {
				kinds[n.Kind] = true
			}
			if strings.HasPrefix(filepath.Base(f), "conv_pool") && (!kinds["conv2d_input_grad"] || !kinds["max_pool2d_scatter"]) {
				t.Errorf("kinds %v lack the recorded VJPs' ops", kinds)
			}
			src, _ := os.ReadFile(f)
			p, err := program.Parse(string(src))
			if err != nil {
				t.Fatal(err)
			}
			var inputs []*tensor.Tensor
			for _, l := range p.Leaves() {
				if !l.Param {
					inputs = append(inputs, l.Value)
				}
			}
			vals, err := ir.Denote(g, inputs...)
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Grad()
			if err != nil {
				t.Fatal(err)
			}
			got, want := vals[len(vals)-1].Data[0], r.Output.Data[0]
			if math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("IR denotes %v, the program computes %v", got, want)
			}
		})
	}
}
