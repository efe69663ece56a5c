package nn_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// randMLP returns a random model of linear layers (with and without bias),
// each followed by nothing, an activation, dropout, batch norm or layer
// norm, its loss drawn at random; now and then a weight is large enough
// that a pre-activation overflows to ±Inf behind a finite activation.
func randMLP(r *rand.Rand) (*nn.Model, int) {
	in := 1 + r.IntN(6)
	var layers []nn.Layer
	pairs := 0
	for range 1 + r.IntN(4) {
		lin := nn.Linear{Out: 1 + r.IntN(9), Bias: r.IntN(5) != 0}
		layers = append(layers, lin)
		acts := []nn.Layer{nn.Tanh{}, nn.ReLU{}, nn.Sigmoid{}, nn.GELU{}, nn.LeakyReLU{NegativeSlope: []float64{0.01, -2, 0}[r.IntN(3)]},
			nn.Dropout{P: 0.3}, nn.NewBatchNorm(), nn.NewLayerNorm()}
		switch k := r.IntN(len(acts) + 2); {
		case k < len(acts):
			layers = append(layers, acts[k])
			if k < 5 && lin.Bias {
				pairs++
			}
		}
	}
	loss := nn.Losses()[r.IntN(3)]
	if loss == nn.CrossEntropy {
		if _, ok := layers[len(layers)-1].(nn.Linear); !ok {
			layers = append(layers, nn.NewLinear(2+r.IntN(3)))
		}
	}
	seq, err := nn.NewSeq(tensor.Shape{in}, layers...)
	if err != nil {
		panic(err)
	}
	m, err := nn.NewModel(seq, loss, r.Uint64(), nn.InitPyTorch)
	if err != nil {
		panic(err)
	}
	if r.IntN(6) == 0 {
		p := m.Params[r.IntN(len(m.Params))]
		p.Data[r.IntN(len(p.Data))] = 1e308
	}
	return m, pairs
}

// TestFusedPassIsPass: a fused pass gives bit for bit what a plain pass
// gives on random models and batches, in train and eval mode: the loss,
// every layer's output and, after Backward, every parameter's gradient and
// every layer output's gradient; its tape has one node fewer per fused
// linear layer and activation.
func TestFusedPassIsPass(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 21))
	cases := 600
	if testing.Short() {
		cases = 150
	}
	fusedSome := 0
	for c := range cases {
		m, pairs := randMLP(r)
		n := 1 + r.IntN(7)
		x := tensor.Zeros(append(tensor.Shape{n}, m.Seq.Input()...))
		for i := range x.Data {
			x.Data[i] = 2 * r.NormFloat64()
		}
		y := tensor.Zeros(append(tensor.Shape{n}, m.Loss.Target(m.Seq.Output())...))
		for i := range y.Data {
			switch m.Loss {
			case nn.CrossEntropy:
				y.Data[i] = float64(r.IntN(m.Seq.Output()[0]))
			case nn.BCEWithLogits:
				y.Data[i] = r.Float64()
			default:
				y.Data[i] = r.NormFloat64()
			}
		}
		mode := nn.Mode(r.IntN(2))
		plain, fused := nn.NewPass(m.Clone()), nn.NewFusedPass(m.Clone())
		seed := r.Uint64()
		errP, errF := plain.Forward(x, y, mode, seed), fused.Forward(x, y, mode, seed)
		if (errP == nil) != (errF == nil) {
			t.Fatalf("case %d: plain pass %v, fused pass %v", c, errP, errF)
		}
		if errP != nil {
			continue
		}
		if got, want := fused.Session().Tape().Len(), plain.Session().Tape().Len()-pairs; got != want {
			t.Fatalf("case %d: fused tape has %d nodes, want %d (%d pairs fused)", c, got, want, pairs)
		}
		if pairs > 0 {
			fusedSome++
		}
		same := func(what string, i int, a, b *tensor.Tensor) {
			t.Helper()
			if (a == nil) != (b == nil) || a != nil && !tensor.Identical(a, b) {
				t.Fatalf("case %d (%v): %s %d differs:\nplain %v\nfused %v", c, layerTypes(m), what, i, a, b)
			}
		}
		if math.Float64bits(plain.Loss()) != math.Float64bits(fused.Loss()) {
			t.Fatalf("case %d: loss %v vs %v", c, plain.Loss(), fused.Loss())
		}
		for i := 0; i < m.Seq.Len(); i++ {
			same("layer output", i, plain.LayerOutput(i), fused.LayerOutput(i))
		}
		if err := plain.Backward(); err != nil {
			t.Fatal(err)
		}
		if err := fused.Backward(); err != nil {
			t.Fatal(err)
		}
		for i := range m.Params {
			same("gradient of param", i, plain.Grad(i), fused.Grad(i))
		}
		for i := 0; i < m.Seq.Len(); i++ {
			same("gradient of layer output", i, plain.LayerGrad(i), fused.LayerGrad(i))
		}
	}
	if fusedSome < cases/3 {
		t.Errorf("only %d of %d models had a layer to fuse", fusedSome, cases)
	}
}

func layerTypes(m *nn.Model) []string {
	var s []string
	for i := 0; i < m.Seq.Len(); i++ {
		s = append(s, m.Seq.Layer(i).Type())
	}
	return s
}
