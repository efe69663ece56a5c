package app

import (
	"tapelab/engine/graph"
	"tapelab/engine/ir"
	"tapelab/engine/tensor"
)

// RoleResult is the role of an opened IR document's result node.
const RoleResult = "result"

// Pipeline is the IR path of the playground's compiled step: the model
// exported to the IR and run stage by stage (ir.RunModel: export, check,
// check shapes, lower, feed, compile) on the mini-batch, in the recorded
// step's nn mode and randomness. While an IR document is open (OpenIR),
// it is that document's pipeline instead, passed or refused. It is nil in
// eager mode and before any model built.
func (p *Playground) Pipeline() *ir.Pipeline {
	if p.opened != nil {
		return p.opened
	}
	if !p.modes.Compiled || p.model == nil || p.batch.X == nil {
		return nil
	}
	if p.pipe == nil {
		b := p.batch
		p.pipe = ir.RunModel(p.model, b.X.Shape[0], p.modes.NNMode(), p.seed, true, b.X, b.Y)
	}
	return p.pipe
}

// OpenIR runs a tapelab.ir.v1 document through the IR pipeline
// (ir.RunJSON: decode, check, check shapes, lower, feed, compile), its
// graph inputs fed from the mini-batch (input 0 is x, input 1 the
// targets). When every stage passes, the playground steps the document's
// graph from its result (its last node) in the current pass until the next
// edit, mode switch or dataset change; the error is nil. Otherwise the
// recorded step stays, Pipeline shows which stage refused the document,
// and the error is that stage's (Pipeline.Err).
func (p *Playground) OpenIR(data []byte) error {
	in := p.irInputs(data)
	pl := ir.RunJSON(data, in...)
	p.opened = pl
	if err := pl.Err(); err != nil {
		return err
	}
	c := pl.Compiled
	out := pl.Output()
	rec := &Recording{Tape: c.Tape(), Loss: out, Pred: out, Metric: out, Data: out,
		Modes: p.modes, Graph: pl.Graph, Compiled: c, IR: pl}
	rec.Modes.Compiled = true
	rec.recompile = func() (*graph.Compiled, error) {
		q := ir.RunJSON(data, in...)
		return q.Compiled, q.Err()
	}
	step, err := p.stepperFor(rec)
	if err != nil {
		return err
	}
	if p.step != nil {
		p.step.Close()
	}
	p.rec, p.step = rec, step
	return nil
}

// irInputs returns the mini-batch tensors an IR document reads: as many of
// x and the targets as its input nodes number (nil when it does not
// decode: the pipeline's decode stage says why).
func (p *Playground) irInputs(data []byte) []*tensor.Tensor {
	g, err := ir.Decode(data)
	if err != nil {
		return nil
	}
	n := 0
	for _, nd := range g.Nodes {
		if nd.Kind == ir.KindInput {
			n = max(n, nd.Attrs.Input+1)
		}
	}
	batch := []*tensor.Tensor{p.batch.X, p.batch.Y}
	return batch[:min(n, len(batch))]
}
