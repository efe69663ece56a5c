package nn_test

import (
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/nn"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// TestEagerEqualsCompiled: a model's loss program recorded by graph.Builder
// and compiled gives the eager Pass's loss and gradients bit for bit.
func TestEagerEqualsCompiled(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 9))
	for c := 0; c < 200; c++ {
		m, x, y := randModel(t, r, 5)
		mode := [2]int{0, 1}[r.IntN(2)]
		seed := r.Uint64()
		p := nn.NewPass(m)
		if err := p.Forward(x, y, nn.Mode(mode), seed); err != nil {
			t.Fatal(err)
		}
		if err := p.Backward(); err != nil {
			t.Fatal(err)
		}

		b := graph.NewBuilder()
		in := []op.Value{b.Input("x", x.Shape), b.Input("y", y.Shape)}
		inputs := []*tensor.Tensor{x, y}
		for i, q := range m.Seq.Params() {
			if q.Buffer {
				in = append(in, b.Buffer(q.Name, q.Shape))
			} else {
				in = append(in, b.Param(q.Name, q.Shape))
			}
			inputs = append(inputs, m.Params[i])
		}
		out := m.LossProgram(nn.Mode(mode), seed)(b, in)
		g, err := b.Graph()
		if err != nil {
			t.Fatal(err)
		}
		tape, vals, err := graph.Compile(g, inputs)
		if err != nil {
			t.Fatal(err)
		}
		var grads autograd.Grads
		if err := tape.BackwardDense(int(out), tensor.Scalar(1), &grads); err != nil {
			t.Fatal(err)
		}
		if !tensor.Identical(vals[out], tensor.Scalar(p.Loss())) {
			t.Fatalf("case %d (%s): compiled loss %v, eager %v", c, describe(m), vals[out], p.Loss())
		}
		for i, q := range m.Seq.Params() {
			got := grads.Of(int(in[2+i]))
			want := p.Grad(i)
			if q.Buffer {
				want = nil
			}
			if (got == nil) != (want == nil) || got != nil && !tensor.Identical(got, want) {
				t.Fatalf("case %d (%s): gradient of %s: compiled %v, eager %v", c, describe(m), q.Name, got, want)
			}
		}
	}
}
