package ir

import (
	"math/rand/v2"
	"strings"
	"testing"

	"tapelab/engine/graph"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// TestFromModel exports models with every layer type and checks, in both
// modes, that the IR's value (Denote, and Lower then graph.Eval) equals the
// eager nn.Pass bit for bit: the output without the loss, the loss with it.
func TestFromModel(t *testing.T) {
	models := []struct {
		name   string
		input  tensor.Shape
		loss   nn.Loss
		layers []nn.Layer
	}{
		{"mlp", tensor.Shape{3}, nn.MSE, []nn.Layer{nn.NewLinear(8), nn.Tanh{}, nn.Linear{Out: 4}, nn.ReLU{}, nn.NewLinear(2)}},
		{"activations", tensor.Shape{4}, nn.CrossEntropy, []nn.Layer{nn.NewLinear(6), nn.NewLeakyReLU(), nn.NewBatchNorm(), nn.GELU{}, nn.Dropout{P: 0.25}, nn.NewLinear(5), nn.Sigmoid{}, nn.NewLinear(3)}},
		{"softmax", tensor.Shape{2}, nn.BCEWithLogits, []nn.Layer{nn.NewLinear(3), nn.Softmax{}}},
		{"cnn", tensor.Shape{2, 6, 6}, nn.CrossEntropy, []nn.Layer{nn.Conv2D{OutChannels: 3, KernelSize: 3, Stride: 1, Padding: 1}, nn.ReLU{}, nn.NewMaxPool2D(2), nn.Flatten{}, nn.NewLinear(4)}},
	}
	for _, tc := range models {
		seq, err := nn.NewSeq(tc.input, tc.layers...)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		m, err := nn.NewModel(seq, tc.loss, 3, nn.InitPyTorch)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		r := rand.New(rand.NewPCG(1, 2))
		const batch = 5
		x := tensor.Zeros(append(tensor.Shape{batch}, tc.input...))
		for i := range x.Data {
			x.Data[i] = r.NormFloat64()
		}
		y := tensor.Zeros(append(tensor.Shape{batch}, tc.loss.Target(seq.Output())...))
		for i := range y.Data {
			if tc.loss == nn.CrossEntropy {
				y.Data[i] = float64(r.IntN(seq.Output()[0]))
			} else {
				y.Data[i] = r.Float64()
			}
		}
		for _, mode := range []nn.Mode{nn.Eval, nn.Train} {
			for _, withLoss := range []bool{false, true} {
				g, err := FromModel(m, batch, mode, 11, withLoss)
				if err != nil {
					t.Fatalf("%s %v: %v", tc.name, mode, err)
				}
				inputs := []*tensor.Tensor{x}
				if withLoss {
					inputs = append(inputs, y)
				}
				vals, err := Denote(g, inputs...)
				if err != nil {
					t.Fatalf("%s %v: Denote: %v", tc.name, mode, err)
				}
				lg, err := Lower(g)
				if err != nil {
					t.Fatal(err)
				}
				feed, err := Feed(g, inputs...)
				if err != nil {
					t.Fatal(err)
				}
				ev, err := graph.Eval(lg, feed)
				if err != nil {
					t.Fatal(err)
				}
				// The eager pass, on a copy (train mode updates the buffers).
				p := nn.NewPass(m.Clone())
				if err := p.Forward(x, y, mode, 11); err != nil {
					t.Fatal(err)
				}
				want := p.Output()
				if withLoss {
					want = tensor.Scalar(p.Loss())
				}
				got := vals[len(vals)-1]
				if !tensor.Identical(got, want) || !tensor.Identical(ev[len(ev)-1], want) {
					t.Errorf("%s %v loss=%v: IR gives %v (lowered %v), nn.Pass %v", tc.name, mode, withLoss, got, ev[len(ev)-1], want)
				}
			}
		}
		if tc.name != "mlp" {
			continue
		}
		// Linear layers with a bias carry their weights; the one without
		// a bias is a matmul by the transposed weight, a param node.
		g, _ := FromModel(m, batch, nn.Eval, 0, false)
		var kinds []string
		for _, n := range g.Nodes {
			kinds = append(kinds, n.Kind)
		}
		want := "input param linear tanh transpose matmul relu linear"
		if got := strings.Join(kinds, " "); got != want {
			t.Errorf("mlp exported as %q, want %q", got, want)
		}
		if w := g.Payload[2].Weight; w == nil || w.Name != "0.weight" || g.Payload[1].Value.Name != "2.weight" {
			t.Errorf("mlp payload names wrong: %+v %+v", g.Payload[1], g.Payload[2])
		}
	}
}
