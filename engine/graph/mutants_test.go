package graph

import (
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// A mutant is a deliberately broken copy of a graph: the new property tests
// (linked session, dense references, tape structure, the single-output
// cursor) each run one side of their comparison on the mutant and the other
// on the original, and TestNewPropertiesCatchMutants requires them to notice.
type mutant struct {
	name string
	// apply returns a broken copy of g, or nil when g offers this mutant
	// nothing to break (no instruction it applies to).
	apply func(g *Graph) *Graph
	// min is the share of eligible programs that must be caught, in
	// percent: a broken rule can be invisible on some programs (a swap of
	// two operands that hold equal values, an infinite gradient that
	// swamps a perturbation, an attribute whose zero gives the same value).
	min int
}

var mutants = []mutant{
	{"wrong VJP", wrongVJP, 75},
	{"swapped parents", swappedParents, 33},
	{"dropped attribute", droppedAttrs, 33},
}

// copyGraph returns a copy of g whose values (and their Args) may be
// modified without touching g.
func copyGraph(g *Graph) *Graph {
	c := &Graph{Values: append([]Value(nil), g.Values...)}
	for k := range c.Values {
		c.Values[k].Args = append([]int(nil), c.Values[k].Args...)
	}
	return c
}

// wrongVJP replaces the op of every instruction that passes a contribution
// to its first operand with a copy whose VJP adds 0.25 to that contribution.
func wrongVJP(g *Graph) *Graph {
	c := copyGraph(g)
	n := 0
	for k := range c.Values {
		v := &c.Values[k]
		if v.Kind == autograd.OpNode && v.RequiresGrad && v.Op.Grads(0) && g.Values[v.Args[0]].RequiresGrad {
			v.Op = perturbed(v.Op)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return c
}

// swappedParents swaps the first and last operands of every instruction
// requiring a gradient whose first and last operands are different values
// of the same shape (so that the broken graph still checks).
func swappedParents(g *Graph) *Graph {
	c := copyGraph(g)
	n := 0
	for k := range c.Values {
		v := &c.Values[k]
		if v.Kind != autograd.OpNode || !v.RequiresGrad || len(v.Args) < 2 {
			continue
		}
		i, j := 0, len(v.Args)-1
		if a, b := v.Args[i], v.Args[j]; a != b && g.Values[a].Shape.Equal(g.Values[b].Shape) {
			v.Args[i], v.Args[j] = b, a
			n++
		}
	}
	if n == 0 || c.Check() != nil {
		return nil
	}
	return c
}

// droppedAttrs zeroes the attributes of every instruction that has some
// and whose shape rule gives the same shape without them.
func droppedAttrs(g *Graph) *Graph {
	c := copyGraph(g)
	n := 0
	for k := range c.Values {
		v := &c.Values[k]
		if v.Kind != autograd.OpNode || v.Attrs.String() == "" {
			continue
		}
		in := make([]tensor.Shape, len(v.Args))
		for j, p := range v.Args {
			in[j] = g.Values[p].Shape
		}
		if s, err := v.Op.Shape(nil, in, op.Attrs{}); err == nil && s.Equal(v.Shape) {
			v.Attrs = op.Attrs{}
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return c
}

// caughtShare runs check (one of the new properties, with its mutate
// argument) on mutantPrograms() generated programs for each mutant and requires
// it to fail on at least the mutant's share of the programs the mutant
// applies to.
func caughtShare(t *testing.T, check func(c *randprog.Case, r *rand.Rand, mutate func(*Graph) *Graph) error) {
	t.Helper()
	for _, m := range mutants {
		eligible, caught := 0, 0
		for i := uint64(0); i < uint64(mutantPrograms()); i++ {
			c := randprog.Generate(i, config(i))
			g, err := build(c)
			if err != nil {
				t.Fatal(err)
			}
			if m.apply(g) == nil {
				continue
			}
			eligible++
			if check(c, rand.New(rand.NewPCG(i, 13)), m.apply) != nil {
				caught++
			}
		}
		t.Logf("%s: caught in %d of %d programs", m.name, caught, eligible)
		if eligible < mutantPrograms()/10 || caught*100 < eligible*m.min {
			t.Errorf("%s: caught in %d of %d programs, want at least %d%%", m.name, caught, eligible, m.min)
		}
	}
}

// mutantPrograms is how many programs a mutation test runs: 200 (100 with
// -short). A mutation test shows that a property notices a broken rule; the
// property tests themselves run programs() programs.
func mutantPrograms() int {
	if testing.Short() {
		return 100
	}
	return 200
}
