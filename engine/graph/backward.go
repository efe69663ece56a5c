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
// The gradients belong to c and are overwritten by its next pass.
func (c *Compiled) BackwardFrom(output int, seed *tensor.Tensor) (grads []*tensor.Tensor, visited int, err error) {
	if c == nil {
		return nil, 0, errNilCompiled
	}
	if output < 0 || output >= len(c.vals) {
		return nil, 0, c.outOfRange(output)
	}
	if err := checkSeed(output, c.name(output), c.vals[output].Shape, seed); err != nil {
		return nil, 0, err
	}
	g := c.resetGrads()
	copy(g[output].Data, seed.Data)
	c.wrote(output)
	if c.uncertified {
		return g, c.dense(), nil
	}
	return g, c.compact(output, hasNegZero(seed)), nil
}

// dense runs every instruction requiring a gradient, last id first, and
// returns how many ran.
func (c *Compiled) dense() int {
	n := 0
	for k := len(c.nodes) - 1; k >= 0; k-- {
		if c.nodes[k].requiresGrad && c.nodes[k].kind == autograd.OpNode {
			c.step(k)
			n++
		}
	}
	return n
}

// compact runs the reverse pass from output, skipping every instruction
// whose VJP could only add ±0 into slots that never hold -0.0, and returns
// how many ran. touched[k] means slot k may differ from the pristine +0.0.
//
// A node is live when its slot was touched or its op cannot certify that a
// zero cotangent gives ±0 contributions; live nodes run and touch the slots
// they feed. When the seed holds -0.0 (and output takes contributions),
// output's consumers run as well, since adding their +0 would turn output's
// -0 into +0; a consumer that is not live adds only ±0 elsewhere, so it
// touches nothing.
func (c *Compiled) compact(output int, negZero bool) int {
	touched := c.touched
	touched[output] = true
	negZero = negZero && c.nodes[output].requiresGrad
	n := 0
	for k := len(c.nodes) - 1; k >= 0; k-- {
		s := &c.nodes[k]
		if !s.requiresGrad || s.kind != autograd.OpNode {
			continue
		}
		live := touched[k] || !s.zeroSafe
		if !live && !(negZero && k > output && s.feeds(output)) {
			continue
		}
		c.step(k)
		n++
		if live {
			for j, p := range s.args {
				if s.wants[j] {
					touched[p] = true
				}
			}
		}
	}
	return n
}

// feeds reports whether the node passes a contribution to value p.
func (s *saved) feeds(p int) bool {
	for j, a := range s.args {
		if a == p && s.wants[j] {
			return true
		}
	}
	return false
}

// step runs node k's VJP on its gradient and adds each contribution into
// its operand's gradient in operand order, existing + new.
func (c *Compiled) step(k int) {
	s := &c.nodes[k]
	c.xs = c.xs[:0]
	c.dx = c.dx[:0]
	for _, p := range s.args {
		c.xs = append(c.xs, c.vals[p])
	}
	c.dx = append(c.dx, s.contrib...)
	s.op.VJP(c.dx, c.grads[k], c.vals[k], c.xs, s.attrs)
	for j, p := range s.args {
		if d := c.dx[j]; d != nil {
			c.wrote(p)
			acc := c.grads[p].Data
			for i, v := range d.Data {
				acc[i] = acc[i] + v
			}
		}
	}
}

// resetGrads makes one +0.0 gradient per value and clears the touched
// marks. Buffers are reused: only the slots the previous pass wrote are
// cleared, so a compact pass costs what it visits, not the graph's size.
func (c *Compiled) resetGrads() []*tensor.Tensor {
	if c.grads == nil {
		c.grads = make([]*tensor.Tensor, len(c.vals))
		for k, v := range c.vals {
			c.grads[k] = tensor.Zeros(v.Shape)
		}
		c.touched = make([]bool, len(c.vals))
		c.written = make([]bool, len(c.vals))
		return c.grads
	}
	if c.allWritten {
		for k, g := range c.grads {
			clear(g.Data)
			c.touched[k] = false
			c.written[k] = false
		}
	} else {
		// touched slots were all written (seeded or fed), so this clears them too
		for _, k := range c.writtenList {
			clear(c.grads[k].Data)
			c.touched[k] = false
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

// hasNegZero reports whether t holds -0.0.
func hasNegZero(t *tensor.Tensor) bool {
	for _, v := range t.Data {
		if v == 0 && math.Signbit(v) {
			return true
		}
	}
	return false
}
