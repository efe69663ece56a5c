package graph

import (
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// These tests break one path on purpose and check that the property tests'
// comparisons notice. The eager and compiled paths share every VJP from the
// op catalogue, so a wrong VJP in the catalogue is caught by engine/op's
// finite-difference test, not here; what the comparisons here catch is
// wrong plumbing: a VJP applied to the wrong operands, in the wrong order,
// or a path that differs from the other.

// perturbed returns a copy of o whose VJP adds 0.25 to its first
// operand's contribution.
func perturbed(o *op.Op) *op.Op {
	p := *o
	vjp := o.VJP
	p.VJP = func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a op.Attrs) {
		vjp(dx, dy, y, x, a)
		if dx[0] != nil {
			for i := range dx[0].Data {
				dx[0].Data[i] += 0.25
			}
		}
	}
	return &p
}

// replaced returns a copy of g whose instructions using o use p instead,
// and how many of them pass a contribution to their first operand.
func replaced(g *Graph, o, p *op.Op) (*Graph, int) {
	c := &Graph{Values: append([]Value(nil), g.Values...)}
	n := 0
	for k := range c.Values {
		v := &c.Values[k]
		if v.Op == o {
			v.Op = p
			if v.RequiresGrad && o.Grads(0) && g.Values[v.Args[0]].RequiresGrad {
				n++
			}
		}
	}
	return c, n
}

// TestComparisonCatchesPerturbedVJP compiles, for every catalogue op, the
// generated programs with that op's VJP perturbed, and compares with
// Backprop on the unperturbed graph, as TestDenseBackwardEqualsBackprop
// does: the comparison must fail on at least 3/4 of the programs where the
// perturbed VJP feeds a gradient (in the others an infinite gradient at that
// operand, e.g. from log(0), swamps the perturbation; in practice 85-100%).
func TestComparisonCatchesPerturbedVJP(t *testing.T) {
	eligible, caught := map[*op.Op]int{}, map[*op.Op]int{}
	perturbedOf := map[*op.Op]*op.Op{}
	for _, o := range op.All() {
		perturbedOf[o] = perturbed(o)
	}
	for i := uint64(0); i < uint64(programs()/2); i++ {
		c := randprog.Generate(i, randprog.Config{Finite: true})
		g, err := build(c)
		if err != nil {
			t.Fatal(err)
		}
		used := map[*op.Op]bool{}
		for _, v := range g.Values {
			if v.Op != nil {
				used[v.Op] = true
			}
		}
		for o := range used {
			bad, n := replaced(g, o, perturbedOf[o])
			if n == 0 {
				continue
			}
			eligible[o]++
			if denseMatchesBackprop(bad, g, c.Tensors(), rand.New(rand.NewPCG(i, 3)), true, Compile) != nil {
				caught[o]++
			}
		}
	}
	for _, o := range op.All() {
		if o.Operands[0].NoGrad { // detach: its VJP never runs
			continue
		}
		if eligible[o] == 0 || caught[o] < eligible[o]*3/4 {
			t.Errorf("%s: a perturbed VJP was caught in %d of %d programs", o.Name, caught[o], eligible[o])
		}
	}
}

// compileSwapped is a deliberately broken copy of Compile: it computes
// every value correctly but swaps the first and last parents of every
// instruction whose first and last operands have the same shape, so the
// tape's VJPs see those operands swapped and feed the wrong parents.
func compileSwapped(g *Graph, inputs []*tensor.Tensor) (*autograd.Tape, []*tensor.Tensor, error) {
	tape, vals, err := Compile(g, inputs)
	if err != nil {
		return nil, nil, err
	}
	t := &autograd.Tape{}
	for k := range g.Values {
		v := &g.Values[k]
		if v.Kind != autograd.OpNode {
			n := tape.Node(k)
			t.Leaf(n.Value, n.Name, n.Kind, n.RequiresGrad)
			continue
		}
		parents := append([]int(nil), v.Args...)
		if i, j := 0, len(parents)-1; g.Values[parents[i]].Shape.Equal(g.Values[parents[j]].Shape) {
			parents[i], parents[j] = parents[j], parents[i]
		}
		t.Record(v.Op, v.Attrs, parents, vals[k])
	}
	return t, vals, nil
}

// TestComparisonCatchesSwappedOperands runs the dense-backward comparison
// with compileSwapped in place of Compile and expects it to fail on many of
// the programs where a swap type-checks (symmetric ops such as add and mul
// are immune to it, so not on all).
func TestComparisonCatchesSwappedOperands(t *testing.T) {
	eligible, caught := 0, 0
	for i := uint64(0); i < uint64(programs()); i++ {
		c := randprog.Generate(i, randprog.Config{Finite: true})
		g, err := build(c)
		if err != nil {
			t.Fatal(err)
		}
		if !hasSwappableInstr(g) {
			continue
		}
		eligible++
		if denseMatchesBackprop(g, g, c.Tensors(), rand.New(rand.NewPCG(i, 5)), true, compileSwapped) != nil {
			caught++
		}
	}
	t.Logf("swapped operands caught in %d of %d programs", caught, eligible)
	if eligible < programs()/4 || caught < eligible/3 {
		t.Errorf("swapped operands caught in %d of %d programs", caught, eligible)
	}
}

// hasSwappableInstr reports whether some instruction requiring a gradient
// has two operands that are different values of the same shape, so that a
// swap type-checks and changes which value receives what.
func hasSwappableInstr(g *Graph) bool {
	for _, v := range g.Values {
		if v.Kind != autograd.OpNode || !v.RequiresGrad || len(v.Args) < 2 {
			continue
		}
		a, b := v.Args[0], v.Args[len(v.Args)-1]
		if a != b && g.Values[a].Shape.Equal(g.Values[b].Shape) {
			return true
		}
	}
	return false
}
