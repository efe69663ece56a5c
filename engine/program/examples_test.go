package program

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapelab/engine/tensor"
)

// goldens is testdata/torch_examples.json (or torch_grads.json, or
// torch_float32.json), written by testdata/torch_examples.py (PyTorch
// float64, or float32).
type goldens struct {
	Torch    string
	Dtype    string // "float32" in torch_float32.json, else float64
	Examples map[string]struct {
		Output json.RawMessage
		Grads  map[string]json.RawMessage
	}
}

// flatten reads a number or nested lists of numbers.
func flatten(raw json.RawMessage) ([]float64, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, err
	}
	var out []float64
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case float64:
			out = append(out, v)
		case []any:
			for _, x := range v {
				walk(x)
			}
		}
	}
	walk(v)
	return out, nil
}

// relClose reports |got − want| ≤ 1e-12·|want| (exact when want is 0).
func relClose(got, want float64) bool {
	return got == want || math.Abs(got-want) <= 1e-12*math.Abs(want)
}

// testPrograms returns the programs under testdata/programs (beyond the
// gallery, written to pin semantics against PyTorch), caption stripped.
func testPrograms(t *testing.T) []Example {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", "programs", "*.tl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("testdata/programs: %v %v", files, err)
	}
	var out []Example
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		first, rest, _ := strings.Cut(string(data), "\n")
		out = append(out, Example{Name: strings.TrimSuffix(filepath.Base(f), ".tl"), Caption: first, Text: rest})
	}
	return out
}

// TestExamplesMatchPyTorch runs every gallery example, and the programs
// of testdata/programs, and compares the output and the gradient of every
// param and input with PyTorch float64, to 1e-12 relative.
func TestExamplesMatchPyTorch(t *testing.T) {
	data, err := os.ReadFile("testdata/torch_examples.json")
	if err != nil {
		t.Fatal(err)
	}
	var g goldens
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	all := append(Examples(), testPrograms(t)...)
	if len(g.Examples) != len(all) {
		t.Errorf("goldens hold %d programs, the gallery and testdata/programs %d: rerun testdata/torch_examples.py", len(g.Examples), len(all))
	}
	for _, ex := range all {
		t.Run(ex.Name, func(t *testing.T) {
			want, ok := g.Examples[ex.Name]
			if !ok {
				t.Fatalf("no golden for %s: rerun testdata/torch_examples.py", ex.Name)
			}
			p, err := Parse(ex.Text)
			if err != nil {
				t.Fatal(err)
			}
			r, err := p.Grad()
			if err != nil {
				t.Fatal(err)
			}
			compare := func(what string, got *tensor.Tensor, raw json.RawMessage) {
				w, err := flatten(raw)
				if err != nil || len(w) != len(got.Data) {
					t.Fatalf("%s: golden %s does not fit shape %v (%v)", what, raw, got.Shape, err)
				}
				for i := range w {
					if !relClose(got.Data[i], w[i]) {
						t.Errorf("%s[%d] = %.17g, PyTorch %.17g", what, i, got.Data[i], w[i])
					}
				}
			}
			compare("output", r.Output, want.Output)
			if len(want.Grads) != len(p.Leaves()) {
				t.Errorf("PyTorch has %d gradients, the program %d leaves", len(want.Grads), len(p.Leaves()))
			}
			for i, l := range p.Leaves() {
				compare("d"+l.Name, r.Grads[i], want.Grads[l.Name])
			}
		})
	}
}

// TestExamplesGallery checks what the page relies on: ten examples,
// each with a one-line caption, each running eagerly and compiled alike,
// and "skipped" holding a node single-output backward skips.
func TestExamplesGallery(t *testing.T) {
	exs := Examples()
	if len(exs) != 10 {
		t.Fatalf("%d examples, want 10", len(exs))
	}
	for _, ex := range exs {
		if ex.Caption == "" || strings.Contains(ex.Caption, "\n") || strings.HasPrefix(ex.Text, "#") {
			t.Errorf("%s: caption %q, text starting %.20q", ex.Name, ex.Caption, ex.Text)
		}
		p, err := Parse(ex.Text)
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		r, err := runBoth(p)
		if err != nil {
			t.Fatalf("%s: %v", ex.Name, err)
		}
		if m := r.mismatch(); m != "" {
			t.Errorf("%s: %s", ex.Name, m)
		}
	}
	p, _ := Parse(exs[6].Text)
	if exs[6].Name != "skipped" {
		t.Fatalf("example 6 is %s, want skipped", exs[6].Name)
	}
	c, err := p.Compile()
	if err != nil {
		t.Fatal(err)
	}
	_, visited, err := c.BackwardFrom(p.Output(), p.Seed())
	if err != nil {
		t.Fatal(err)
	}
	ops := 0
	for _, s := range p.steps {
		if s.op != nil {
			ops++
		}
	}
	if visited >= ops {
		t.Errorf("skipped: single-output backward ran %d VJPs of %d ops; want a node skipped", visited, ops)
	}
}
