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
