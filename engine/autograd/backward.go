package autograd

import (
	"fmt"

	"tapelab/engine/tensor"
)

// BackwardDense is TorchLean's backwardDense: it seeds node out with seed and
// walks ids from out down to 0, running the VJP of every node that the pass
// has reached and that requires a gradient. Contributions are folded into
// parents in operand order, existing + new; contributions to parents that do
// not require gradients are dropped. Unreached nodes keep empty slots in g.
func (t *Tape) BackwardDense(out int, seed *tensor.Tensor, g *Grads) error {
	if err := t.checkSeed(out, seed); err != nil {
		return err
	}
	g.reset(t.n)
	t.seed(out, seed, g)
	t.walk(reached, out, g)
	return nil
}

// pass names one of the tape's two reverse walks.
type pass uint8

const (
	// reached is BackwardDense's walk: it runs the VJP of each node the
	// pass has reached (its slot in g is set) that requires a gradient.
	reached pass = iota
	// every is BackwardDenseFrom's walk: it runs the VJP of every node that
	// requires a gradient, reached or not.
	every
)

// next returns the largest id j ≤ k whose VJP pass p runs next, or -1 when
// there is none. The one-shot passes (through walk) and Cursor step the tape
// with it, so they run exactly the same nodes in the same order.
func (t *Tape) next(p pass, k int, g *Grads) int {
	for ; k >= 0; k-- {
		if (p == every || g.set[k]) && t.hasVJP(k) {
			return k
		}
	}
	return -1
}

// walk runs pass p from node k down to 0, one step per node next returns.
func (t *Tape) walk(p pass, k int, g *Grads) {
	for k = t.next(p, k, g); k >= 0; k = t.next(p, k-1, g) {
		t.step(k, g, nil)
	}
}

// BackwardDenseAll is BackwardDense followed by filling every unreached slot
// with zeros, without calling any VJP on those synthetic zeros.
func (t *Tape) BackwardDenseAll(out int, seed *tensor.Tensor, g *Grads) error {
	if err := t.BackwardDense(out, seed, g); err != nil {
		return err
	}
	for i := 0; i < t.n; i++ {
		if !g.set[i] {
			g.g[i].Reshape(t.nodes[i].Value.Shape)
			g.g[i].Fill(0)
			g.set[i] = true
		}
	}
	return nil
}

// BackwardDenseFrom is TorchLean's backwardDenseFrom: seeds holds one
// cotangent per node (len(seeds) == Len()), and every node that requires a
// gradient, reached or not, has its VJP run on its total cotangent, from the
// last id down to 0.
func (t *Tape) BackwardDenseFrom(seeds []*tensor.Tensor, g *Grads) error {
	if len(seeds) != t.n {
		return fmt.Errorf("autograd: BackwardDenseFrom needs one seed per node: tape has %d nodes, got %d seeds", t.n, len(seeds))
	}
	for i, s := range seeds {
		if err := t.checkSeed(i, s); err != nil {
			return err
		}
	}
	t.seedAll(seeds, g)
	t.walk(every, t.n-1, g)
	return nil
}

// seedAll empties g down to one slot per seed and stores every seed: the
// start of BackwardDenseFrom, and of a dense Cursor's reverse pass.
func (t *Tape) seedAll(seeds []*tensor.Tensor, g *Grads) {
	g.reset(len(seeds))
	for i, s := range seeds {
		t.seed(i, s, g)
	}
}

// seed stores a copy of s, rounded to the tape's precision, in slot i.
func (t *Tape) seed(i int, s *tensor.Tensor, g *Grads) {
	g.store(i, s)
	t.prec.Round(g.g[i])
}

// checkSeed checks that out is a node and seed has its shape.
func (t *Tape) checkSeed(out int, seed *tensor.Tensor) error {
	if out < 0 || out >= t.n {
		return fmt.Errorf("autograd: output node %d does not exist (tape has %d nodes)", out, t.n)
	}
	if seed == nil {
		return fmt.Errorf("autograd: node %d: missing seed", out)
	}
	if want := t.nodes[out].Value.Shape; !seed.Shape.Equal(want) || len(seed.Data) != want.Size() {
		return fmt.Errorf("autograd: node %d: seed has shape %v, the node's value has shape %v", out, seed.Shape, want)
	}
	return nil
}

// hasVJP reports whether node k is an op node that requires a gradient.
func (t *Tape) hasVJP(k int) bool {
	nd := &t.nodes[k]
	return nd.Op != nil && nd.RequiresGrad
}

// step runs node k's VJP on its gradient and folds the contributions into
// its parents in operand order. It is the one reverse step every pass and
// cursor uses. When rec is not nil, each contribution is also appended to
// *rec with copies of the contribution and of the parent's gradient before
// (nil when the parent had none) and after it was folded in; passes give
// nil and allocate nothing.
func (t *Tape) step(k int, g *Grads, rec *[]Contribution) {
	cs := t.contributions(k, g.g[k])
	for i, p := range t.nodes[k].Parents {
		c := cs[i]
		if c == nil {
			continue
		}
		if rec == nil {
			g.accumulate(p, c, t.prec)
			continue
		}
		r := Contribution{Operand: i, Parent: p, Value: c.Clone(), Before: cloneOrNil(g.Of(p))}
		g.accumulate(p, c, t.prec)
		r.After = g.Of(p).Clone()
		*rec = append(*rec, r)
	}
}

// contributions runs node k's VJP on cotangent dy and returns one
// contribution per operand (nil where the operand takes no gradient or does
// not require one). The tensors are node k's scratch, valid until its next VJP.
func (t *Tape) contributions(k int, dy *tensor.Tensor) []*tensor.Tensor {
	nd := &t.nodes[k]
	for len(nd.contrib) < len(nd.Parents) {
		nd.contrib = append(nd.contrib, &tensor.Tensor{})
	}
	dx := t.dxScratch(len(nd.Parents))
	for i, p := range nd.Parents {
		if nd.Op.Grads(i) && t.nodes[p].RequiresGrad {
			c := nd.contrib[i]
			c.Reshape(t.nodes[p].Value.Shape)
			dx[i] = c
		} else {
			dx[i] = nil
		}
	}
	y := nd.Value
	if nd.Act != nil {
		// A fused node: Act's VJP gives the cotangent of Pre, then Op's VJP
		// runs on it, as the two nodes of the unfused tape would.
		if nd.preGrad == nil {
			nd.preGrad = &tensor.Tensor{}
		}
		nd.preGrad.Reshape(nd.Pre.Shape)
		nd.Act.VJP(t.single(1, nd.preGrad), dy, nd.Value, t.single(0, nd.Pre), nd.ActAttrs)
		t.prec.Round(nd.preGrad)
		dy, y = nd.preGrad, nd.Pre
	}
	nd.Op.VJP(dx, dy, y, t.operands(nd), nd.Attrs)
	if t.prec != tensor.Float64 {
		for _, c := range dx {
			if c != nil {
				t.prec.Round(c)
			}
		}
	}
	return dx
}
