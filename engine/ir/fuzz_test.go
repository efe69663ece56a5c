package ir

import (
	"os"
	"testing"

	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// FuzzDecodeIR feeds arbitrary bytes to Decode: it must never panic, and a
// document it accepts must encode and decode back to the same graph. A graph
// that also passes CheckShapes and is small is evaluated: Denote and the
// lowered graph must agree (invariant 5 on fuzzed graphs), with zero-filled
// inputs. The seed corpus is testdata/mlp.json, some random graphs and the
// files in testdata/fuzz/FuzzDecodeIR.
func FuzzDecodeIR(f *testing.F) {
	if data, err := os.ReadFile("testdata/mlp.json"); err == nil {
		f.Add(data)
	}
	for seed := uint64(0); seed < 20; seed++ {
		c, err := newIRCase(seed, randprog.Config{Finite: true})
		if err != nil {
			f.Fatal(err)
		}
		if c == nil {
			continue
		}
		data, err := Encode(c.g)
		if err != nil {
			f.Fatalf("seed %d: Encode of a finite graph: %v", seed, err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		g, err := Decode(data)
		if err != nil {
			return
		}
		enc, err := Encode(g)
		if err != nil {
			t.Fatalf("Encode of a decoded graph: %v", err)
		}
		back, err := Decode(enc)
		if err != nil || !sameGraph(g, back) {
			t.Fatalf("Decode(Encode(g)) differs from g: %v\n%s", err, enc)
		}
		if CheckShapes(g) != nil {
			return
		}
		total := 0
		for i := range g.Nodes {
			total += g.Nodes[i].OutShape.Size()
		}
		if total > 1<<16 {
			return
		}
		var inputs []*tensor.Tensor
		for _, s := range inputShapes(g) {
			inputs = append(inputs, tensor.Zeros(s))
		}
		c := &irCase{g: g, inputs: inputs}
		if err := equivalence(c, lowerOp); err != nil {
			t.Fatalf("%v\n%s", err, enc)
		}
	})
}
