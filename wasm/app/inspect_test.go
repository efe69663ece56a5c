package app

import (
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// TestInspect: the stepper records the step with the given weights and the
// given batch, and stepping to the end gives the engine's one-shot
// gradients for those weights.
func TestInspect(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	w := tensor.Matrix([][]float64{{0.1, 0.2}, {0.3, -0.4}, {0.5, 0.6}, {-0.7, 0.8}})
	b := Batch{X: tensor.Matrix([][]float64{{1, 2}, {3, 4}}), Y: tensor.Matrix([][]float64{{1}, {-1}})}
	if err := p.Inspect(p.Doc(), map[string]*tensor.Tensor{"0.weight": w}, b); err != nil {
		t.Fatal(err)
	}
	if !tensor.Identical(p.Model().Params[0], w) {
		t.Fatalf("0.weight = %v, want %v", p.Model().Params[0], w)
	}
	if p.Batch().X.Shape[0] != 2 {
		t.Fatalf("batch has %d examples, want 2", p.Batch().X.Shape[0])
	}
	s := p.Stepper()
	s.ToEnd()
	g := oneShot(t, p)
	for _, n := range p.Recording().ParamNodes {
		if !tensor.Identical(s.Grad(n), g.Of(n)) {
			t.Errorf("node %d: stepped gradient %v, one-shot %v", n, s.Grad(n), g.Of(n))
		}
	}
	if p.CanUndo() {
		t.Error("inspecting the same model recorded an edit")
	}
	// A different model is an edit; a wrong shape is an error naming it.
	doc := p.Doc().Insert(1, nn.ReLU{})
	if err := p.Inspect(doc, nil, b); err != nil || !p.CanUndo() {
		t.Fatalf("Inspect with a new model: %v, CanUndo %v", err, p.CanUndo())
	}
	seeded := p.Model().Params[0].Clone()
	bias := tensor.Vector(9, 9, 9, 9)
	if err := p.Inspect(doc, map[string]*tensor.Tensor{"0.weight": tensor.Zeros(tensor.Shape{2, 2}), "0.bias": bias}, b); err == nil {
		t.Error("a 2×2 0.weight was accepted")
	}
	// What does not fit leaves the seeded values, all of them, recorded.
	if p.Stepper() == nil || !tensor.Identical(p.Model().Params[0], seeded) || tensor.Identical(p.Model().Params[1], bias) {
		t.Errorf("after a 0.weight that does not fit: stepper %v, 0.weight %v (seeded %v), 0.bias %v", p.Stepper() != nil, p.Model().Params[0], seeded, p.Model().Params[1])
	}
}

// TestOpen: a link's model, modes, batch and weights make the step, in
// those modes; a model that does not build is one error, with the doc kept
// (as an edit) to be fixed.
func TestOpen(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	w := tensor.Matrix([][]float64{{0.1, 0.2}, {0.3, -0.4}, {0.5, 0.6}, {-0.7, 0.8}})
	b := Batch{X: tensor.Matrix([][]float64{{1, 2}, {3, 4}}), Y: tensor.Matrix([][]float64{{1}, {-1}})}
	m := Modes{Compiled: true, Eval: true}
	doc := p.Doc().Insert(1, nn.ReLU{})
	if err := p.Open(doc, m, map[string]*tensor.Tensor{"0.weight": w}, b); err != nil {
		t.Fatal(err)
	}
	if p.Modes() != m || p.Recording().Modes != m || p.Recording().Compiled == nil {
		t.Errorf("modes %+v, recorded in %+v (compiled %v), want %+v", p.Modes(), p.Recording().Modes, p.Recording().Compiled != nil, m)
	}
	if !p.Doc().Equal(doc) || !tensor.Identical(p.Model().Params[0], w) || p.Batch().X.Shape[0] != 2 {
		t.Errorf("doc %v, 0.weight %v, %d examples: not the ones opened", p.Doc(), p.Model().Params[0], p.Batch().X.Shape[0])
	}
	broken, _ := doc.Remove(len(doc.Layers) - 1) // its output no longer fits the targets
	if err := p.Open(broken, Modes{}, nil, b); err == nil || p.Err() == nil || !p.Doc().Equal(broken) {
		t.Errorf("a model that does not build: error %v, Err %v, doc kept %v", err, p.Err(), p.Doc().Equal(broken))
	}
}

// BenchmarkInspectWithWeights opens the default model's step with given
// weights, as a shared link with trained weights or the training view's
// inspected batch does.
func BenchmarkInspectWithWeights(b *testing.B) {
	p, err := New(DefaultDoc(), testBatch())
	if err != nil {
		b.Fatal(err)
	}
	params := map[string]*tensor.Tensor{}
	for i, q := range p.Model().Seq.Params() {
		w := p.Model().Params[i].Clone()
		for k := range w.Data {
			w.Data[k] += 0.01
		}
		params[q.Name] = w
	}
	doc, batch := p.Doc(), p.Batch()
	for b.Loop() {
		if err := p.Inspect(doc, params, batch); err != nil {
			b.Fatal(err)
		}
	}
}
