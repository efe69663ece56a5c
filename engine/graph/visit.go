package graph

import (
	"strconv"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Reason tells why the single-output pass (Compiled.BackwardFrom) visits an
// instruction, that is, runs its VJP.
type Reason uint8

// The reasons for a visit. Only ReasonDependency is a visit of one of the
// output's dependencies; the others are the visits beyond them, which the
// pass needs to stay bit-identical to the dense pass.
const (
	// ReasonDependency: the instruction is the output or one whose value
	// reaches the output through operands that take gradients.
	ReasonDependency Reason = iota
	// ReasonNotZeroSafe: its op's ZeroSafe certificate fails on its saved
	// values (an infinite or NaN value, a zero divisor), so its VJP on a
	// zero cotangent can give NaN (0·∞), which the dense pass adds in.
	ReasonNotZeroSafe
	// ReasonFed: beyond the dependencies, but an earlier visit beyond them
	// (Visit.By) wrote into its gradient, which may no longer be zero.
	ReasonFed
	// ReasonNegZeroSeed: it feeds the output, whose seed holds -0.0; the
	// dense pass adds its +0 contribution there and turns -0.0 into +0.0.
	ReasonNegZeroSeed
	// ReasonUncertified: some instruction of the reverse pass has an op
	// with no ZeroSafe certificate, so the pass runs densely: every
	// instruction requiring a gradient, and those that are not
	// dependencies have this reason.
	ReasonUncertified
)

// String says why, as the playground shows it.
func (r Reason) String() string {
	switch r {
	case ReasonDependency:
		return "dependency"
	case ReasonNotZeroSafe:
		return "0·∞: not zero-safe"
	case ReasonFed:
		return "fed by a visit beyond the dependencies"
	case ReasonNegZeroSeed:
		return "−0.0 seed: feeds the output"
	case ReasonUncertified:
		return "uncertified op: dense pass"
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// Visit is one VJP the single-output pass runs.
type Visit struct {
	Node   int
	Reason Reason
	// By is, for ReasonFed, the visit whose contribution first wrote into
	// the node's gradient; -1 otherwise.
	By int
}

// Plan lists the VJPs BackwardFrom(output, seed) runs, in the order it runs
// them (last id first), each with the reason for the visit; len(Plan) is
// the count BackwardFrom reports. Which nodes are visited depends on the
// graph, the saved values (ZeroSafe) and whether seed holds -0.0, never on
// gradient values, so the plan is known before the pass runs. The slice is
// fresh. It fails as BackwardFrom does on a bad output or seed.
func (c *Compiled) Plan(output int, seed *tensor.Tensor) ([]Visit, error) {
	if err := c.checkFrom(output, seed); err != nil {
		return nil, err
	}
	return c.plan(output, c.negZero(seed), nil), nil
}

// plan appends to dst[:0] the visits of the single-output pass from output
// (see "Compact support" in the package doc). A slot is touched when it may
// differ from the pristine +0.0: output's is, and a live visit touches the
// slots it feeds. A node is live when its slot is touched or its op cannot
// certify that a zero cotangent gives ±0 contributions; live nodes are
// visited. When the seed holds -0.0 (and output takes contributions),
// output's consumers are visited as well, since adding their +0 would turn
// output's -0 into +0; such a visit of a node that is not live adds only
// ±0 elsewhere, so it touches nothing. Dependencies are the touched slots
// reached from output through dependencies alone. When some op has no
// certificate, every instruction requiring a gradient is visited.
func (c *Compiled) plan(output int, negZero bool, dst []Visit) []Visit {
	dst = dst[:0]
	const (
		pristine = iota
		dependency
		fed
	)
	if c.mark == nil {
		c.mark = make([]uint8, len(c.nodes))
		c.by = make([]int, len(c.nodes))
	}
	mark := c.mark
	clear(mark)
	mark[output] = dependency
	negZero = negZero && c.nodes[output].requiresGrad
	for k := len(c.nodes) - 1; k >= 0; k-- {
		if !c.runsVJP(k) {
			continue
		}
		s := &c.nodes[k]
		v := Visit{Node: k, By: -1}
		switch {
		case mark[k] == dependency:
			v.Reason = ReasonDependency
		case c.uncertified:
			v.Reason = ReasonUncertified
		case mark[k] == fed:
			v.Reason, v.By = ReasonFed, c.by[k]
		case !s.zeroSafe:
			v.Reason = ReasonNotZeroSafe
		case negZero && k > output && s.feeds(output):
			dst = append(dst, Visit{Node: k, Reason: ReasonNegZeroSeed, By: -1})
			continue // not live: it touches nothing
		default:
			continue
		}
		dst = append(dst, v)
		for j, p := range s.args {
			switch {
			case !s.wants[j] || mark[p] == dependency:
			case mark[k] == dependency:
				mark[p] = dependency
			case mark[p] == pristine:
				mark[p], c.by[p] = fed, k
			}
		}
	}
	return dst
}

// runsVJP reports whether value k is an instruction requiring a gradient,
// one whose VJP a reverse pass may run.
func (c *Compiled) runsVJP(k int) bool {
	return c.nodes[k].requiresGrad && c.nodes[k].kind == autograd.OpNode
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
