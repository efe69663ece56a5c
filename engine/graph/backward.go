package graph

import (
	"math"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// BackwardDenseFrom is the dense reverse pass over the saved graph, with
// autograd.Tape.BackwardDenseFrom's semantics: seeds holds one cotangent per
// value, and every instruction requiring a gradient runs its VJP on its total
// cotangent, from the last id to the first, adding contributions into its
// operands in operand order as existing + new. It returns every value's
// gradient; the tensors belong to c and are overwritten by its next pass
// (Clone what you keep).
func (c *Compiled) BackwardDenseFrom(seeds []*tensor.Tensor) ([]*tensor.Tensor, error) {
	if c == nil {
		return nil, errNilCompiled
	}
	if err := c.checkSeeds(seeds); err != nil {
		return nil, err
	}
	g := c.resetGrads()
	for k, s := range seeds {
		copy(g[k].Data, s.Data)
		c.prec.Round(g[k])
	}
	c.allWritten = true
	c.dense()
	return g, nil
}

// BackwardFrom seeds one value, output (any input, constant or
// intermediate), with seed and returns every value's gradient, bit-identical
// to BackwardDenseFrom with the one-hot pack (seed at output, +0.0 elsewhere),
// NaN, ±Inf and -0.0 included. It runs only the VJPs that can change a
// result (see "Compact support" in the package doc) and reports how many it
// ran: normally exactly output's dependencies; more when a zero cotangent
// meets a value its op cannot certify (0·∞) or the seed holds -0.0; every
// instruction of the reverse pass when some op has no ZeroSafe certificate.
// Plan lists those visits with their reasons, and a Cursor steps them one
// at a time with the same seeding and step code.
// The gradients belong to c and are overwritten by its next pass.
func (c *Compiled) BackwardFrom(output int, seed *tensor.Tensor) (grads []*tensor.Tensor, visited int, err error) {
	if err := c.checkFrom(output, seed); err != nil {
		return nil, 0, err
	}
	c.visits = c.plan(output, c.negZero(seed), c.visits)
	g := c.seedFrom(output, seed)
	for _, v := range c.visits {
		c.step(v.Node, nil)
	}
	return g, len(c.visits), nil
}

// checkFrom checks BackwardFrom's arguments.
func (c *Compiled) checkFrom(output int, seed *tensor.Tensor) error {
	if c == nil {
		return errNilCompiled
	}
	if output < 0 || output >= len(c.vals) {
		return c.outOfRange(output)
	}
	return checkSeed(output, c.name(output), c.vals[output].Shape, seed)
}

// seedFrom is the start of BackwardFrom and of a Cursor's reverse pass: every
// gradient +0.0 except output's, which holds seed.
func (c *Compiled) seedFrom(output int, seed *tensor.Tensor) []*tensor.Tensor {
	g := c.resetGrads()
	copy(g[output].Data, seed.Data)
	c.prec.Round(g[output])
	c.wrote(output)
	return g
}

// dense runs every instruction requiring a gradient, last id first.
func (c *Compiled) dense() {
	for k := len(c.nodes) - 1; k >= 0; k-- {
		if c.runsVJP(k) {
			c.step(k, nil)
		}
	}
}

// step runs node k's VJP on its gradient and adds each contribution into
// its operand's gradient in operand order, existing + new. It is the one
// reverse step of every pass over c and of its Cursor. When rec is not nil,
// each contribution is also appended to *rec with copies of the
// contribution and of the operand's gradient before and after it was added;
// passes give nil and allocate nothing.
func (c *Compiled) step(k int, rec *[]autograd.Contribution) {
	s := &c.nodes[k]
	c.xs = c.xs[:0]
	c.dx = c.dx[:0]
	for _, p := range s.args {
		c.xs = append(c.xs, c.vals[p])
	}
	c.dx = append(c.dx, s.contrib...)
	s.op.VJP(c.dx, c.grads[k], c.vals[k], c.xs, s.attrs)
	for j, p := range s.args {
		d := c.dx[j]
		if d == nil {
			continue
		}
		c.prec.Round(d)
		c.wrote(p)
		var r autograd.Contribution
		if rec != nil {
			r = autograd.Contribution{Operand: j, Parent: p, Value: d.Clone(), Before: c.grads[p].Clone()}
		}
		acc := c.grads[p].Data
		if c.prec == tensor.Float32 {
			for i, v := range d.Data {
				acc[i] = tensor.Round32(acc[i] + v)
			}
		} else {
			for i, v := range d.Data {
				acc[i] = acc[i] + v
			}
		}
		if rec != nil {
			r.After = c.grads[p].Clone()
			*rec = append(*rec, r)
		}
	}
}

// resetGrads makes one +0.0 gradient per value and starts a new pass (a
// Cursor whose pass this ends notices). Buffers are reused: only the slots
// the previous pass wrote are cleared, so a compact pass costs what it
// visits, not the graph's size.
func (c *Compiled) resetGrads() []*tensor.Tensor {
	c.passes++
	if c.grads == nil {
		c.grads = make([]*tensor.Tensor, len(c.vals))
		for k, v := range c.vals {
			c.grads[k] = tensor.Zeros(v.Shape)
		}
		c.written = make([]bool, len(c.vals))
		return c.grads
	}
	if c.allWritten {
		for k, g := range c.grads {
			clear(g.Data)
			c.written[k] = false
		}
	} else {
		for _, k := range c.writtenList {
			clear(c.grads[k].Data)
			c.written[k] = false
		}
	}
	c.writtenList = c.writtenList[:0]
	c.allWritten = false
	return c.grads
}

// wrote records that slot k may no longer be +0.0.
func (c *Compiled) wrote(k int) {
	if !c.written[k] {
		c.written[k] = true
		c.writtenList = append(c.writtenList, k)
	}
}

func (c *Compiled) checkSeeds(seeds []*tensor.Tensor) error {
	if len(seeds) != len(c.vals) {
		return c.packError(len(seeds))
	}
	for k, s := range seeds {
		if err := checkSeed(k, c.name(k), c.vals[k].Shape, s); err != nil {
			return err
		}
	}
	return nil
}

// name is how errors name value k: its op, or its kind for leaves.
func (c *Compiled) name(k int) string {
	if s := &c.nodes[k]; s.op != nil {
		return s.op.Name
	}
	return c.nodes[k].kind.String()
}

// negZero reports whether seed holds -0.0 once rounded to c's precision.
func (c *Compiled) negZero(seed *tensor.Tensor) bool {
	for _, v := range seed.Data {
		if c.prec == tensor.Float32 {
			v = tensor.Round32(v)
		}
		if v == 0 && math.Signbit(v) {
			return true
		}
	}
	return false
}
