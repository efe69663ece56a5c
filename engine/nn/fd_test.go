package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"

	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/tensor"
)

// randModel draws a model over a random sequence with a loss that fits it,
// and a batch of inputs and targets for it.
func randModel(t testing.TB, r *rand.Rand, maxLayers int) (*nn.Model, *tensor.Tensor, *tensor.Tensor) {
	seq, _ := nntest.Seq(r, maxLayers)
	losses := nn.Losses()
	m, err := nn.NewModel(seq, losses[r.IntN(len(losses))], r.Uint64(), nn.Init(r.IntN(2)))
	if err != nil {
		t.Fatal(err)
	}
	// Move every trainable parameter off its initial value: Xavier's zero
	// biases would put the outputs of all-zero windows (padding, dropped
	// inputs) exactly on relu's kink, where finite differences do not apply.
	for i, q := range seq.Params() {
		if !q.Buffer {
			for k := range m.Params[i].Data {
				m.Params[i].Data[k] += 0.1 * r.NormFloat64()
			}
		}
	}
	n := 2 + r.IntN(4)
	x := tensor.Zeros(append(tensor.Shape{n}, seq.Input()...))
	for i := range x.Data {
		x.Data[i] = r.NormFloat64()
	}
	y := tensor.Zeros(append(tensor.Shape{n}, m.Loss.Target(seq.Output())...))
	for i := range y.Data {
		switch m.Loss {
		case nn.CrossEntropy:
			y.Data[i] = float64(r.IntN(seq.Output()[0]))
		case nn.BCEWithLogits:
			y.Data[i] = r.Float64()
		default:
			y.Data[i] = r.NormFloat64()
		}
	}
	return m, x, y
}

// TestGradientsFiniteDifferences checks whole-model gradients of random
// models (every layer type, both modes, all losses) against central finite
// differences of the loss (gonum's diff/fd).
func TestGradientsFiniteDifferences(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	seen := map[string]bool{}
	for c := 0; c < 300; c++ {
		m, x, y := randModel(t, r, 5)
		mode := nn.Mode(r.IntN(2))
		seed := r.Uint64()
		p := nn.NewPass(m)
		if err := p.Forward(x, y, mode, seed); err != nil {
			t.Fatal(err)
		}
		if err := p.Backward(); err != nil {
			t.Fatal(err)
		}
		var at []float64 // flattened trainable parameters
		var grad []float64
		for i, q := range m.Seq.Params() {
			if q.Buffer {
				continue
			}
			at = append(at, m.Params[i].Data...)
			if g := p.Grad(i); g != nil {
				grad = append(grad, g.Data...)
			} else {
				grad = append(grad, make([]float64, q.Shape.Size())...)
			}
		}
		if len(at) == 0 {
			continue
		}
		probe := m.Clone()
		pp := nn.NewPass(probe)
		loss := func(v []float64) float64 {
			k := 0
			for i, q := range probe.Seq.Params() {
				if !q.Buffer {
					k += copy(probe.Params[i].Data, v[k:k+q.Shape.Size()])
				}
			}
			if err := pp.Forward(x, y, mode, seed); err != nil {
				t.Fatal(err)
			}
			return pp.Loss()
		}
		num := fd.Gradient(nil, loss, at, &fd.Settings{Formula: fd.Central, Step: 1e-6})
		for i := range num {
			if math.Abs(num[i]-grad[i]) > 1e-6*math.Max(1, math.Abs(num[i])) {
				t.Fatalf("case %d (%s, %s, %v): d loss/d param[%d] = %v, finite differences %v", c, describe(m), m.Loss, mode, i, grad[i], num[i])
			}
		}
		for i := 0; i < m.Seq.Len(); i++ {
			seen[m.Seq.Layer(i).Type()+" "+mode.String()] = true
		}
	}
	for _, lt := range nn.LayerTypes() {
		for _, mode := range []string{"train", "eval"} {
			if !seen[lt.Name+" "+mode] {
				t.Errorf("no case checked %s in %s mode", lt.Name, mode)
			}
		}
	}
}

func describe(m *nn.Model) string {
	s := m.Seq.Input().String()
	for i := 0; i < m.Seq.Len(); i++ {
		s += " " + m.Seq.Layer(i).Type()
	}
	return s
}
