package nn_test

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
)

// golden is one case written by testdata/torch_ref.py.
type golden struct {
	Model   json.RawMessage
	Mode    string
	X       any
	Y       any
	Loss    float64
	Output  any
	Grads   map[string]any
	Buffers map[string]any
}

// close reports whether got matches want within 1e-12 relative to the
// larger of |want[i]| and the tensor's largest magnitude times 1e-3 (so that
// entries that cancel to nearly zero are judged on the tensor's scale),
// plus 1e-14 absolute for entries that are zero in exact arithmetic (a
// bias before batch norm has gradient 0; float64 leaves ~1e-17 of noise).
func close(got, want []float64) (int, bool) {
	if len(got) != len(want) {
		return -1, false
	}
	scale := 0.0
	for _, w := range want {
		scale = math.Max(scale, math.Abs(w))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-12*math.Max(math.Abs(want[i]), 1e-3*scale)+1e-14 {
			return i, false
		}
	}
	return 0, true
}

// TestTorchGolden replays PyTorch's forward, loss, backward and buffer
// updates for every layer type through spec.Decode, Model.Build and Pass.
func TestTorchGolden(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.json")
	if err != nil || len(files) == 0 {
		t.Fatalf("no golden files (%v)", err)
	}
	seen := map[string]bool{}
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			data, err := os.ReadFile(f)
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
			for i := 0; i < m.Seq.Len(); i++ {
				seen[m.Seq.Layer(i).Type()+" "+g.Mode] = true
			}
			xs := nntest.Flat(g.X)
			n := len(xs) / m.Seq.Input().Size()
			x := &tensor.Tensor{Shape: append(tensor.Shape{n}, m.Seq.Input()...), Data: xs}
			y := &tensor.Tensor{Shape: append(tensor.Shape{n}, m.Loss.Target(m.Seq.Output())...), Data: nntest.Flat(g.Y)}
			mode := nn.Train
			if g.Mode == "eval" {
				mode = nn.Eval
			}
			p := nn.NewPass(m)
			if err := p.Forward(x, y, mode, 0); err != nil {
				t.Fatal(err)
			}
			if err := p.Backward(); err != nil {
				t.Fatal(err)
			}
			if i, ok := close([]float64{p.Loss()}, []float64{g.Loss}); !ok {
				t.Errorf("loss %v, torch %v (%d)", p.Loss(), g.Loss, i)
			}
			if i, ok := close(p.Output().Data, nntest.Flat(g.Output)); !ok {
				t.Errorf("output differs at %d: %v vs torch %v", i, p.Output().Data, nntest.Flat(g.Output))
			}
			for k, want := range g.Grads {
				i := m.Index(k)
				if i < 0 {
					t.Fatalf("torch has gradient %s, the model has no such parameter", k)
				}
				if j, ok := close(p.Grad(i).Data, nntest.Flat(want)); !ok {
					t.Errorf("grad %s differs at %d:\n got %v\nwant %v", k, j, p.Grad(i).Data, nntest.Flat(want))
				}
			}
			for k, want := range g.Buffers {
				if j, ok := close(m.Params[m.Index(k)].Data, nntest.Flat(want)); !ok {
					t.Errorf("buffer %s differs at %d:\n got %v\nwant %v", k, j, m.Params[m.Index(k)].Data, nntest.Flat(want))
				}
			}
			for i, q := range m.Seq.Params() {
				if _, ok := g.Grads[q.Name]; !ok && !q.Buffer {
					t.Errorf("torch golden has no gradient for %s", q.Name)
				}
				if q.Buffer && p.Grad(i) != nil {
					t.Errorf("buffer %s got a gradient", q.Name)
				}
			}
		})
	}
	for _, lt := range nn.LayerTypes() {
		if !seen[lt.Name+" train"] && lt.Name != "dropout" { // dropout's train-mode masks are PyTorch's own
			t.Errorf("no golden case runs %s in train mode", lt.Name)
		}
	}
	for _, typ := range []string{"batch_norm", "dropout"} {
		if !seen[typ+" eval"] {
			t.Errorf("no golden case runs %s in eval mode", typ)
		}
	}
}
