package program

import (
	"encoding/json"
	"math"
	"os"
	"testing"

	"tapelab/engine/autograd/tapetest"
	"tapelab/engine/tensor"
)

// precisionPrograms is every program the precision tests run: the
// gallery, testdata/programs and testdata/grad.
func precisionPrograms(t *testing.T) []Example {
	return append(append(Examples(), testPrograms(t)...), gradPrograms(t)...)
}

// TestFloat32EqualsReference runs every gallery example and test program
// in float32, eagerly and compiled, and holds every value and gradient
// equal, bit for bit, to the float32-storage reference (tapetest: each op's
// Forward and VJP on rounded operands, each result rounded, each sum of
// contributions rounded; grad's nodes are ordinary nodes), and GradAt's
// output and leaf gradients with them.
func TestFloat32EqualsReference(t *testing.T) {
	differ := 0
	for _, ex := range precisionPrograms(t) {
		t.Run(ex.Name, func(t *testing.T) {
			p, err := Parse(ex.Text)
			if err != nil {
				t.Fatal(err)
			}
			s64, err := p.Eager()
			if err != nil {
				t.Fatal(err)
			}
			vals, pres := tapetest.Values(s64.Tape(), tensor.Float32)
			grads := tapetest.Grads(s64.Tape(), vals, pres, p.Output(), p.Seed(), tensor.Float32)
			r, err := runBothAt(p, tensor.Float32)
			if err != nil {
				t.Fatal(err)
			}
			if m := identical("float32 values vs the reference", r.eager, vals); m != "" {
				t.Fatal(m)
			}
			if m := identical("float32 gradients vs the reference", r.eagerGrads, grads); m != "" {
				t.Fatal(m)
			}
			if m := r.mismatch(); m != "" {
				t.Fatal("float32: " + m)
			}
			g, err := p.GradAt(tensor.Float32)
			if err != nil {
				t.Fatal(err)
			}
			if !tensor.Identical(g.Output, vals[p.Output()]) {
				t.Errorf("GradAt output %v, reference %v", g.Output, vals[p.Output()])
			}
			for i, l := range p.Leaves() {
				want := grads[i]
				if want == nil {
					want = tensor.Zeros(l.Value.Shape)
				}
				if !tensor.Identical(g.Grads[i], want) {
					t.Errorf("GradAt d%s %v, reference %v", l.Name, g.Grads[i], want)
				}
			}
			if !tensor.Identical(g.Output, s64.Tape().Node(p.Output()).Value) {
				differ++
			}
		})
	}
	if differ < 10 {
		t.Errorf("only %d programs' float32 output differs from float64's", differ)
	}
}

// float32Tol is the tolerance against PyTorch float32, relative to the
// largest entry of each golden tensor: PyTorch's kernels accumulate a
// matmul, a sum, a convolution in float32 (in their own order), TapeLab's
// in float64 before rounding once, so the two part by a few float32 ulps
// of the largest term.
const float32Tol = 1e-5

// TestFloat32MatchesPyTorch compares every gallery example and test
// program run with GradAt(Float32) with PyTorch float32
// (testdata/torch_float32.json, written by testdata/torch_examples.py):
// the output and every leaf's gradient to float32Tol.
func TestFloat32MatchesPyTorch(t *testing.T) {
	data, err := os.ReadFile("testdata/torch_float32.json")
	if err != nil {
		t.Fatal(err)
	}
	var g goldens
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	if g.Dtype != "float32" {
		t.Fatalf("testdata/torch_float32.json holds %q results, want float32", g.Dtype)
	}
	all := precisionPrograms(t)
	if len(g.Examples) != len(all) {
		t.Errorf("goldens hold %d programs, the gallery and testdata %d: rerun testdata/torch_examples.py", len(g.Examples), len(all))
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
			r, err := p.GradAt(tensor.Float32)
			if err != nil {
				t.Fatal(err)
			}
			compareGolden(t, "output", r.Output, want.Output, float32Tol)
			for i, l := range p.Leaves() {
				compareGolden(t, "d"+l.Name, r.Grads[i], want.Grads[l.Name], float32Tol)
			}
		})
	}
}

// TestFloat32ForwardMode runs forward mode on float32 tapes of the gallery
// along each leaf's first entry: every tangent is a float32 number, and
// ⟨seed, output tangent⟩ meets the float32 gradient's entry within float32's
// reach (1e-5 of the products' scale).
func TestFloat32ForwardMode(t *testing.T) {
	for _, ex := range Examples() {
		p, err := Parse(ex.Text)
		if err != nil {
			t.Fatal(err)
		}
		r, err := p.GradAt(tensor.Float32)
		if err != nil {
			t.Fatal(err)
		}
		for li := range p.Leaves() {
			dir, _ := p.OneHot(li, 0)
			tg, err := p.Forward(r.Tape, dir)
			if err != nil {
				t.Fatal(err)
			}
			for i, x := range tg.Of {
				for _, v := range dataOf(x) {
					if tensor.Round32(v) != v && v == v {
						t.Fatalf("%s: node %d's tangent %v is not a float32", ex.Name, i, v)
					}
				}
			}
			if !tg.Known[p.Output()] {
				continue
			}
			fwd, scale := 0.0, 0.0
			for k, v := range dataOf(tg.Of[p.Output()]) {
				fwd += p.Seed().Data[k] * v
				scale += math.Abs(p.Seed().Data[k] * v)
			}
			rev := r.Grads[li].Data[0]
			if scale += math.Abs(rev); math.Abs(fwd-rev) > 1e-5*scale {
				t.Errorf("%s along %s[0]: forward %v, reverse %v", ex.Name, p.Leaves()[li].Name, fwd, rev)
			}
		}
	}
}

// dataOf is x's elements, none for nil (a zero tangent).
func dataOf(x *tensor.Tensor) []float64 {
	if x == nil {
		return nil
	}
	return x.Data
}
