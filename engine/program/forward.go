package program

import (
	"fmt"
	"math"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Tangents is a forward-mode pass: each node's directional derivative
// along a direction over the leaves, computed with the ops' own JVPs.
type Tangents struct {
	// Of holds each node's tangent; nil means zero (a constant, or a node
	// the direction does not reach) or unknown (see Known).
	Of []*tensor.Tensor
	// Known is false for nodes whose tangent needs an op without a JVP,
	// and for every node after them that depends on them.
	Known []bool
	// Missing names the ops without a JVP that the direction reached, in
	// tape order, each once.
	Missing []string
}

// OneHot returns the direction that is 1 at entry i of leaf (flat,
// row-major) and 0 everywhere else, in Leaves order.
func (p *Program) OneHot(leaf, i int) ([]*tensor.Tensor, error) {
	if leaf < 0 || leaf >= len(p.leaves) {
		return nil, errorf(Pos{1, 1}, "direction: there is no leaf %d (the program has %d)", leaf, len(p.leaves))
	}
	l := p.leaves[leaf]
	if i < 0 || i >= len(l.Value.Data) {
		return nil, errorf(l.Pos, "direction: %s has %d entries, no entry %d", l.Name, len(l.Value.Data), i)
	}
	dir := make([]*tensor.Tensor, len(p.leaves))
	for k, x := range p.leaves {
		dir[k] = tensor.Zeros(x.Value.Shape)
	}
	dir[leaf].Data[i] = 1
	return dir, nil
}

// checkDirection reports a direction of the wrong length or shapes.
func (p *Program) checkDirection(dir []*tensor.Tensor) error {
	if len(dir) != len(p.leaves) {
		return errorf(Pos{1, 1}, "direction: %d tensors for %d leaves", len(dir), len(p.leaves))
	}
	for i, d := range dir {
		if l := p.leaves[i]; d == nil || !d.Shape.Equal(l.Value.Shape) {
			return errorf(l.Pos, "direction: %s needs a tangent of shape %v", l.Name, l.Value.Shape)
		}
	}
	return nil
}

// Forward runs the JVPs forward over t, a tape the program recorded (an
// eager session's, or a compiled program's Tape()), from the direction
// dir over its leaves. An op without a JVP does not fail the pass: it is
// named in Missing and the tangents that depend on it are unknown. On a
// float32 tape (autograd.Tape.SetPrecision) the direction and each JVP's
// result are rounded to float32, as the tape's values are.
func (p *Program) Forward(t *autograd.Tape, dir []*tensor.Tensor) (*Tangents, error) {
	if err := p.checkDirection(dir); err != nil {
		return nil, err
	}
	if t.Len() != len(p.shapes) {
		return nil, errorf(Pos{1, 1}, "forward mode: the tape has %d nodes, the program %d", t.Len(), len(p.shapes))
	}
	n := t.Len()
	tg := &Tangents{Of: make([]*tensor.Tensor, n), Known: make([]bool, n)}
	seen := map[string]bool{}
	for i := 0; i < n; i++ {
		nd := t.Node(i)
		tg.Known[i] = true
		if i < len(p.leaves) {
			tg.Of[i] = dir[i].Clone()
			t.Precision().Round(tg.Of[i])
			continue
		}
		if nd.Op == nil { // a constant
			continue
		}
		dx := make([]*tensor.Tensor, len(nd.Parents))
		x := make([]*tensor.Tensor, len(nd.Parents))
		reached := false
		for k, q := range nd.Parents {
			x[k] = t.Node(q).Value
			if !nd.Op.Grads(k) {
				continue
			}
			if !tg.Known[q] {
				tg.Known[i] = false
			}
			if tg.Of[q] != nil {
				dx[k], reached = tg.Of[q], true
			}
		}
		switch {
		case !tg.Known[i]:
		case !reached:
		case nd.Op.JVP == nil:
			tg.Known[i] = false
			if !seen[nd.Op.Name] {
				seen[nd.Op.Name] = true
				tg.Missing = append(tg.Missing, nd.Op.Name)
			}
		default:
			y := tensor.Zeros(nd.Value.Shape)
			nd.Op.JVP(y, dx, nd.Value, x, nd.Attrs)
			t.Precision().Round(y)
			tg.Of[i] = y
		}
	}
	return tg, nil
}

// ForwardCheck compares forward mode with reverse mode for one direction:
// ⟨seed, tangent of the output⟩ against Σ ⟨gradient of leaf, direction on
// leaf⟩, the seed being the output's (1, or ones). The two are equal in
// exact arithmetic; in floating point they are computed in different
// orders.
type ForwardCheck struct {
	Forward, Reverse float64
	// Exact reports bit-for-bit equality (NaN equal to NaN).
	Exact bool
	// Agree reports |Forward − Reverse| ≤ Tol·Scale, or Exact.
	Agree bool
	// Scale is the sum of the absolute values of the products on both
	// sides, the size rounding errors are relative to.
	Scale float64
	// Missing names the ops without a JVP on the way (then Agree is false).
	Missing []string
}

// Tol is the relative tolerance of ForwardCheck.
const Tol = 1e-10

// String says what the check found, as the page shows it.
func (c *ForwardCheck) String() string {
	switch {
	case len(c.Missing) > 0:
		return fmt.Sprintf("forward mode cannot pass %v (no JVP); ⟨gradient, direction⟩ = %v", c.Missing, c.Reverse)
	case c.Exact:
		return fmt.Sprintf("forward tangent %v = ⟨gradient, direction⟩ %v exactly", c.Forward, c.Reverse)
	case c.Agree:
		return fmt.Sprintf("forward tangent %v = ⟨gradient, direction⟩ %v to %.0e relative", c.Forward, c.Reverse, Tol)
	}
	return fmt.Sprintf("forward tangent %v ≠ ⟨gradient, direction⟩ %v", c.Forward, c.Reverse)
}

// CheckForward runs the program eagerly, forward mode along dir and
// reverse mode from the output, and compares them.
func (p *Program) CheckForward(dir []*tensor.Tensor) (*ForwardCheck, error) {
	r, err := p.Grad()
	if err != nil {
		return nil, err
	}
	tg, err := p.Forward(r.Tape, dir)
	if err != nil {
		return nil, err
	}
	c := &ForwardCheck{Missing: tg.Missing}
	seed := p.Seed()
	if t := tg.Of[p.out]; t != nil {
		for k, v := range t.Data {
			c.Forward += seed.Data[k] * v
			c.Scale += math.Abs(seed.Data[k] * v)
		}
	}
	for i, g := range r.Grads {
		for k, v := range g.Data {
			c.Reverse += v * dir[i].Data[k]
			c.Scale += math.Abs(v * dir[i].Data[k])
		}
	}
	same := c.Forward == c.Reverse || math.IsNaN(c.Forward) && math.IsNaN(c.Reverse)
	c.Exact = same && len(c.Missing) == 0 && tg.Known[p.out]
	c.Agree = len(c.Missing) == 0 && tg.Known[p.out] && (same || math.Abs(c.Forward-c.Reverse) <= Tol*c.Scale)
	return c, nil
}
