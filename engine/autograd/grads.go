package autograd

import "tapelab/engine/tensor"

// Grads holds the gradients of one reverse pass, one slot per tape node. A
// slot is either set (holding a tensor of the node's shape) or empty (the
// pass never reached the node). Its buffers are reused by the next pass, so
// a Grads kept across training steps makes backward allocation-free.
type Grads struct {
	g    []*tensor.Tensor
	set  []bool
	unit tensor.Tensor // the seed 1 of Session.Backward
	pass *Grads        // BackwardAccumulate's own pass
}

// Zero empties every slot, keeping buffers: PyTorch's zero_grad() for
// gradients kept across passes (see AccumulateLeaves).
func (g *Grads) Zero() { g.reset(len(g.set)) }

// Len reports the number of slots (the tape length of the last pass).
func (g *Grads) Len() int { return len(g.set) }

// Of returns the gradient of node i, or nil when the pass did not reach it.
// The tensor belongs to g and is overwritten by the next pass.
func (g *Grads) Of(i int) *tensor.Tensor {
	if i < 0 || i >= len(g.set) || !g.set[i] {
		return nil
	}
	return g.g[i]
}

// Clone returns an independent copy (for keeping a result across passes).
func (g *Grads) Clone() *Grads {
	c := &Grads{g: make([]*tensor.Tensor, len(g.g)), set: append([]bool(nil), g.set...)}
	for i, t := range g.g {
		if g.set[i] {
			c.g[i] = t.Clone()
		}
	}
	return c
}

// reset empties n slots, keeping buffers.
func (g *Grads) reset(n int) {
	for len(g.g) < n {
		g.g = append(g.g, &tensor.Tensor{})
	}
	g.g = g.g[:n]
	if cap(g.set) < n {
		g.set = make([]bool, n)
	}
	g.set = g.set[:n]
	for i := range g.set {
		g.set[i] = false
	}
}

// store sets slot i to a copy of v.
func (g *Grads) store(i int, v *tensor.Tensor) {
	if g.g[i] == nil { // an empty slot of a Clone
		g.g[i] = &tensor.Tensor{}
	}
	g.g[i].CopyFrom(v)
	g.set[i] = true
}

// accumulate adds contribution c into slot i as TorchLean's addGradDense
// does: the first contribution is stored as is, later ones as existing + c,
// each sum rounded to precision p.
func (g *Grads) accumulate(i int, c *tensor.Tensor, p tensor.Precision) {
	if !g.set[i] {
		g.store(i, c)
		return
	}
	d := g.g[i].Data
	if p == tensor.Float32 {
		for k, v := range c.Data {
			d[k] = tensor.Round32(d[k] + v)
		}
		return
	}
	for k, v := range c.Data {
		d[k] = d[k] + v
	}
}

// PreGrad returns the gradient of fused node i's Pre (see Node.Act) from
// the one-shot reverse pass that filled g, or nil when i is not a fused
// node or that pass ran no VJP at node i. The tensor is node i's scratch,
// overwritten by its next VJP.
func (t *Tape) PreGrad(i int, g *Grads) *tensor.Tensor {
	if i < 0 || i >= t.n {
		return nil
	}
	nd := &t.nodes[i]
	if nd.Act == nil || !nd.RequiresGrad || g.Of(i) == nil {
		return nil
	}
	return nd.preGrad
}
