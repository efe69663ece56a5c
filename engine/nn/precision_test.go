package nn_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"tapelab/engine/autograd/tapetest"
	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
)

// TestFloat32PassEqualsReference runs every test model of testdata/golden
// (each layer type, train and eval mode) in float32, as one node per op
// and fused, and holds every tape value, the loss and every parameter's
// gradient equal, bit for bit, to the float32-storage reference
// (tapetest) recomputed from the same pass recorded in float64.
func TestFloat32PassEqualsReference(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	for _, f := range files {
		for _, fused := range []bool{false, true} {
			name := filepath.Base(f)
			if fused {
				name += "/fused"
			}
			t.Run(name, func(t *testing.T) { checkFloat32Pass(t, f, fused) })
		}
	}
}

// goldenCase reads a case of testdata/golden: its model, batch, targets
// and mode.
func goldenCase(t *testing.T, file string) (*nn.Model, *tensor.Tensor, *tensor.Tensor, nn.Mode) {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var g golden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	sm, err := spec.Decode(g.Model)
	if err != nil {
		t.Fatal(err)
	}
	m, err := sm.Build()
	if err != nil {
		t.Fatal(err)
	}
	xs := nntest.Flat(g.X)
	n := len(xs) / m.Seq.Input().Size()
	x := &tensor.Tensor{Shape: append(tensor.Shape{n}, m.Seq.Input()...), Data: xs}
	y := &tensor.Tensor{Shape: append(tensor.Shape{n}, m.Loss.Target(m.Seq.Output())...), Data: nntest.Flat(g.Y)}
	mode := nn.Train
	if g.Mode == "eval" {
		mode = nn.Eval
	}
	return m, x, y, mode
}

func checkFloat32Pass(t *testing.T, file string, fused bool) {
	m, x, y, mode := goldenCase(t, file)
	newPass := nn.NewPass
	if fused {
		newPass = nn.NewFusedPass
	}
	keep := make([]*tensor.Tensor, len(m.Params))
	for i, q := range m.Params {
		keep[i] = q.Clone()
	}
	restore := func() { // a train-mode pass updates the buffers after recording
		for i, q := range keep {
			m.Params[i].CopyFrom(q)
		}
	}
	run := func(prec tensor.Precision) *nn.Pass {
		p := newPass(m)
		p.SetPrecision(prec)
		if err := p.Forward(x, y, mode, 7); err != nil {
			t.Fatal(err)
		}
		if err := p.Backward(); err != nil {
			t.Fatal(err)
		}
		restore()
		return p
	}
	p64, p32 := run(tensor.Float64), run(tensor.Float32)
	t64, t32 := p64.Session().Tape(), p32.Session().Tape()
	out := t64.Len() - 1 // the loss, recorded last
	vals, pres := tapetest.Values(t64, tensor.Float32)
	grads := tapetest.Grads(t64, vals, pres, out, tensor.Scalar(1), tensor.Float32)
	if t32.Len() != t64.Len() {
		t.Fatalf("float32 tape has %d nodes, float64 %d", t32.Len(), t64.Len())
	}
	for k := range vals {
		nd := t32.Node(k)
		if !tensor.Identical(nd.Value, vals[k]) || pres[k] != nil && !tensor.Identical(nd.Pre, pres[k]) {
			t.Fatalf("node %d (%v %v): float32 value %v, reference %v", k, nd.Kind, nd.Op, nd.Value, vals[k])
		}
	}
	if p32.Loss() != vals[out].Data[0] {
		t.Errorf("loss %v, reference %v", p32.Loss(), vals[out].Data[0])
	}
	differ := p32.Loss() != p64.Loss()
	for i, q := range m.Seq.Params() {
		got, id := p32.Grad(i), -1
		for k := range t32.Len() {
			if t32.Node(k).Name == q.Name {
				id = k
			}
		}
		if (got == nil) != (grads[id] == nil) || got != nil && !tensor.Identical(got, grads[id]) {
			t.Errorf("gradient of %s: float32 %v, reference %v", q.Name, got, grads[id])
		}
		if got != nil && !tensor.Identical(got, p64.Grad(i)) {
			differ = true
		}
	}
	if !differ {
		t.Error("the float32 pass gives the float64 loss and gradients")
	}
	for i, q := range m.Params {
		if !tensor.Identical(q, keep[i]) {
			t.Errorf("the passes left parameter %d changed", i)
		}
	}
}

// TestFloat32PassMatchesPyTorch runs every test model in float32 storage
// and compares the loss, the outputs and every parameter's gradient with
// PyTorch float32 (testdata/float32, written by testdata/torch_float32.py)
// to 1e-5 relative to each tensor's largest entry, plus 1e-7 (float32's
// epsilon) absolute for gradients that are 0 in exact arithmetic (a bias
// before batch norm: PyTorch's float32 leaves 4e-8 there): PyTorch
// accumulates its matmuls, convolutions, norms and losses in float32,
// TapeLab in float64 before rounding once.
func TestFloat32PassMatchesPyTorch(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			m, x, y, mode := goldenCase(t, f)
			data, err := os.ReadFile(filepath.Join("testdata", "float32", filepath.Base(f)))
			if err != nil {
				t.Fatalf("%v: rerun testdata/torch_float32.py", err)
			}
			var want struct {
				Dtype  string
				Loss   float64
				Output any
				Grads  map[string]any
			}
			if err := json.Unmarshal(data, &want); err != nil || want.Dtype != "float32" {
				t.Fatalf("%v, dtype %q", err, want.Dtype)
			}
			p := nn.NewPass(m)
			p.SetPrecision(tensor.Float32)
			if err := p.Forward(x, y, mode, 0); err != nil {
				t.Fatal(err)
			}
			if err := p.Backward(); err != nil {
				t.Fatal(err)
			}
			near := func(what string, got, want []float64) {
				scale := 0.0
				for _, w := range want {
					scale = math.Max(scale, math.Abs(w))
				}
				if len(got) != len(want) {
					t.Fatalf("%s: %d values, PyTorch %d", what, len(got), len(want))
				}
				for i := range want {
					if math.Abs(got[i]-want[i]) > 1e-5*scale+1e-7 {
						t.Errorf("%s[%d] = %.9g, PyTorch float32 %.9g", what, i, got[i], want[i])
					}
				}
			}
			near("loss", []float64{p.Loss()}, []float64{want.Loss})
			near("output", p.Output().Data, nntest.Flat(want.Output))
			for i, q := range m.Seq.Params() {
				if !q.Buffer {
					near("d"+q.Name, p.Grad(i).Data, nntest.Flat(want.Grads[q.Name]))
				}
			}
		})
	}
}
