package graph

import (
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// chains builds ten independent chains of tanh(h·W) layers over [16 16]
// matrices, each with its own input and weights, and returns the graph, its
// inputs and the end of the first chain, which depends on about a tenth of
// the instructions.
func chains(b *testing.B) (*Graph, []*tensor.Tensor, int) {
	const nChains, depth, n = 10, 10, 16
	r := rand.New(rand.NewPCG(1, 2))
	bl := NewBuilder()
	var in []*tensor.Tensor
	// values of moderate size, so that tanh does not saturate and the
	// gradients do not sink into subnormal numbers (slow on most CPUs)
	leaf := func(name string) op.Value {
		t := tensor.Zeros(tensor.Shape{n, n})
		for i := range t.Data {
			t.Data[i] = r.NormFloat64() / 4
		}
		in = append(in, t)
		return bl.Param(name, tensor.Shape{n, n})
	}
	out := op.NoValue
	for c := 0; c < nChains; c++ {
		h := leaf("x")
		for d := 0; d < depth; d++ {
			h = op.Tanh(bl, op.MatMul(bl, h, leaf("w")))
		}
		if c == 0 {
			out = h
		}
	}
	g, err := bl.Graph()
	if err != nil {
		b.Fatal(err)
	}
	return g, in, int(out)
}

// BenchmarkSingleOutputBackward compares, on the compiled chains graph,
// the compact single-output pass (BackwardFrom) with the dense pass seeded
// with the one-hot pack, on the Compiled and on its tape. vjps/op is the
// number of VJPs each runs.
func BenchmarkSingleOutputBackward(b *testing.B) {
	g, in, out := chains(b)
	cc, err := CompileChecked(g, in)
	if err != nil {
		b.Fatal(err)
	}
	seed := tensor.Zeros(cc.Values()[out].Shape)
	seed.Fill(1)
	pack := oneHot(cc.Values(), out, seed)
	deps, dense := dependencies(g, out), denseCount(g)
	b.Logf("%d values, %d instructions, output %d depends on %d (%.0f%%)", g.Len(), dense, out, deps, 100*float64(deps)/float64(dense))

	b.Run("compact", func(b *testing.B) {
		b.ReportAllocs()
		visited := 0
		for b.Loop() {
			_, visited, _ = cc.BackwardFrom(out, seed)
		}
		b.ReportMetric(float64(visited), "vjps/op")
	})
	b.Run("dense-one-hot", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, err := cc.BackwardDenseFrom(pack); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(dense), "vjps/op")
	})
	b.Run("tape-dense-one-hot", func(b *testing.B) {
		tape := cc.Tape()
		var gr autograd.Grads
		b.ReportAllocs()
		for b.Loop() {
			if err := tape.BackwardDenseFrom(pack, &gr); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(dense), "vjps/op")
	})
}

// BenchmarkCompileChecked measures the checked single pass on the same graph.
func BenchmarkCompileChecked(b *testing.B) {
	g, in, _ := chains(b)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := CompileChecked(g, in); err != nil {
			b.Fatal(err)
		}
	}
}
