package ir

import (
	"fmt"

	"tapelab/engine/graph"
	"tapelab/engine/nn"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// FromModel exports a model as an IR graph for batches of the given size:
// the model's forward program in the given mode (seed drives dropout masks,
// as in nn.Seq.Forward) is recorded with graph.Builder and exported with
// FromGraph, so input 0 is x [batch, input...] and the payload holds the
// model's parameters under their state_dict names (a linear layer with a
// bias becomes one linear node carrying its weight and bias). With loss set
// the graph also reads the targets as input 1 ([batch, target...]) and ends
// with the model's loss; otherwise it ends with the model's output.
func FromModel(m *nn.Model, batch int, mode nn.Mode, seed uint64, loss bool) (*Graph, error) {
	if batch < 1 {
		return nil, fmt.Errorf("ir: batch size %d must be at least 1", batch)
	}
	seq := m.Seq
	b := graph.NewBuilder()
	x := b.Input("x", append(tensor.Shape{batch}, seq.Input()...))
	ps := seq.Params()
	vals := make([]op.Value, len(ps))
	params := make(map[string]*tensor.Tensor, len(ps))
	for i, p := range ps {
		if p.Buffer {
			vals[i] = b.Buffer(p.Name, p.Shape)
		} else {
			vals[i] = b.Param(p.Name, p.Shape)
		}
		params[p.Name] = m.Params[i]
	}
	out := seq.Forward(b, x, vals, mode, seed, nil)
	if loss {
		y := b.Input("y", append(tensor.Shape{batch}, m.Loss.Target(seq.Output())...))
		m.Loss.Apply(b, out, y)
	}
	g, err := b.Graph()
	if err != nil {
		return nil, fmt.Errorf("ir: recording the model: %w", err)
	}
	return FromGraph(g, params)
}
