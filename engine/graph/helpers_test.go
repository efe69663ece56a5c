package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// leafKind is how tests declare a generated input on either backend.
func leafKind(in randprog.Input) autograd.Kind {
	if in.RequiresGrad {
		return autograd.Param
	}
	return autograd.Input
}

// build records c's program on a Builder.
func build(c *randprog.Case) (*Graph, error) {
	b := NewBuilder()
	vals := make([]op.Value, len(c.Inputs))
	for i, in := range c.Inputs {
		vals[i] = b.Leaf(in.Name, in.Value.Shape, leafKind(in), in.RequiresGrad)
	}
	if out := c.Program(b, vals); b.Err() == nil && int(out) != c.Output {
		return nil, fmt.Errorf("program returned %d, generator said %d", out, c.Output)
	}
	return b.Graph()
}

// eager runs c's program on an eager session. The session first records
// the program once, has its op values overwritten with NaN and is Reset, so
// the recording returned reuses dirty buffers (as a training loop does):
// a kernel that relied on a zeroed output would show.
func eager(c *randprog.Case) (*autograd.Session, error) { return eagerAt(c, tensor.Float64) }

// eagerAt is eager on a session in precision p.
func eagerAt(c *randprog.Case, p tensor.Precision) (*autograd.Session, error) {
	s := autograd.NewSession()
	s.SetPrecision(p)
	record(s, c)
	t := s.Tape()
	for i := 0; i < t.Len(); i++ {
		if nd := t.Node(i); nd.Kind == autograd.OpNode {
			nd.Value.Fill(math.NaN())
		}
	}
	s.Reset()
	record(s, c)
	return s, s.Err()
}

func record(s *autograd.Session, c *randprog.Case) {
	vals := make([]op.Value, len(c.Inputs))
	for i, in := range c.Inputs {
		vals[i] = s.Leaf(in.Value, in.Name, leafKind(in), in.RequiresGrad)
	}
	c.Program(s, vals)
}

// seedPack returns one random seed per value; special values (-0.0, ±Inf,
// NaN) appear unless finite is set.
func seedPack(r *rand.Rand, vals []*tensor.Tensor, finite bool) []*tensor.Tensor {
	seeds := make([]*tensor.Tensor, len(vals))
	for i, v := range vals {
		seeds[i] = randprog.Tensor(r, v.Shape, finite)
	}
	return seeds
}

// oneHot returns the pack with seed at out and +0.0 elsewhere.
func oneHot(vals []*tensor.Tensor, out int, seed *tensor.Tensor) []*tensor.Tensor {
	seeds := make([]*tensor.Tensor, len(vals))
	for i, v := range vals {
		seeds[i] = tensor.Zeros(v.Shape)
	}
	seeds[out] = seed
	return seeds
}

// sameTensors reports the first index where a and b are not identical.
func sameTensors(what string, a, b []*tensor.Tensor) error {
	if len(a) != len(b) {
		return fmt.Errorf("%s: %d vs %d tensors", what, len(a), len(b))
	}
	for i := range a {
		if !tensor.Identical(a[i], b[i]) {
			return fmt.Errorf("%s: value %d differs:\n  %v\n  %v", what, i, a[i], b[i])
		}
	}
	return nil
}

// tapeGrads runs the tape's dense pass from seeds and returns every slot.
func tapeGrads(t *autograd.Tape, seeds []*tensor.Tensor) ([]*tensor.Tensor, error) {
	var g autograd.Grads
	if err := t.BackwardDenseFrom(seeds, &g); err != nil {
		return nil, err
	}
	out := make([]*tensor.Tensor, t.Len())
	for i := range out {
		out[i] = g.Of(i)
	}
	return out, nil
}

// tapeValues returns every node value of t.
func tapeValues(t *autograd.Tape) []*tensor.Tensor {
	out := make([]*tensor.Tensor, t.Len())
	for i := range out {
		out[i] = t.Node(i).Value
	}
	return out
}

func cloneAll(ts []*tensor.Tensor) []*tensor.Tensor {
	out := make([]*tensor.Tensor, len(ts))
	for i, t := range ts {
		out[i] = t.Clone()
	}
	return out
}

// dependencies counts the instructions whose VJP a pass from out runs when
// nothing forces more: out and every instruction requiring a gradient that
// reaches out through operands taking gradients. It walks the graph
// independently of the backward code.
func dependencies(g *Graph, out int) int {
	reached := make([]bool, g.Len())
	reached[out] = true
	n := 0
	for k := out; k >= 0; k-- {
		v := &g.Values[k]
		if !reached[k] || v.Kind != autograd.OpNode || !v.RequiresGrad {
			continue
		}
		n++
		for j, p := range v.Args {
			if v.Op.Grads(j) && g.Values[p].RequiresGrad {
				reached[p] = true
			}
		}
	}
	return n
}

// allCertified reports whether every instruction requiring a gradient has a
// ZeroSafe certificate that holds on its values.
func allCertified(g *Graph, vals []*tensor.Tensor) bool {
	for k := range g.Values {
		v := &g.Values[k]
		if v.Kind != autograd.OpNode || !v.RequiresGrad {
			continue
		}
		xs := make([]*tensor.Tensor, len(v.Args))
		for j, p := range v.Args {
			xs[j] = vals[p]
		}
		if v.Op.ZeroSafe == nil || !v.Op.ZeroSafe(vals[k], xs, v.Attrs) {
			return false
		}
	}
	return true
}

func allFinite(ts []*tensor.Tensor) bool {
	for _, t := range ts {
		if !t.Finite() {
			return false
		}
	}
	return true
}

func hasNegZeroT(t *tensor.Tensor) bool {
	for _, v := range t.Data {
		if v == 0 && math.Signbit(v) {
			return true
		}
	}
	return false
}

// precisions are the precisions the eager == compiled properties hold for.
var precisions = []tensor.Precision{tensor.Float64, tensor.Float32}

// programs is how many generated programs each property test runs: 1,000,
// or 200 with -short.
func programs() int {
	if testing.Short() {
		return 200
	}
	return 1000
}
