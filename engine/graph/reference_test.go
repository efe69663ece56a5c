package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// reached marks what the tape's BackwardDense from out reaches, computed
// from the graph alone: out, and every operand that takes a gradient and
// requires one of an instruction that is reached and requires a gradient.
func reached(g *Graph, out int) []bool {
	r := make([]bool, g.Len())
	r[out] = true
	for k := out; k >= 0; k-- {
		v := &g.Values[k]
		if !r[k] || v.Kind != autograd.OpNode || !v.RequiresGrad {
			continue
		}
		for j, p := range v.Args {
			if v.Op.Grads(j) && g.Values[p].RequiresGrad {
				r[p] = true
			}
		}
	}
	return r
}

// cone is the reference graph of BackwardDense from out: the prefix of g up
// to out in which every instruction that the pass does not run (not reached,
// or requiring no gradient) is replaced by a constant holding its value, so
// that Backprop runs exactly the VJPs BackwardDense runs. It returns the
// cone and the leaf tensors it takes.
func cone(g *Graph, in, vals []*tensor.Tensor, out int) (*Graph, []*tensor.Tensor) {
	r := reached(g, out)
	c := &Graph{Values: append([]Value(nil), g.Values[:out+1]...)}
	leaves := 0
	for k := range c.Values {
		v := &c.Values[k]
		switch {
		case isLeaf(v.Kind):
			leaves++
		case v.Kind == autograd.OpNode && !(r[k] && v.RequiresGrad):
			*v = Value{Kind: autograd.Const, Shape: v.Shape, Const: vals[k]}
		}
	}
	return c, in[:leaves]
}

// identityPack is the seed pack with seed at out and -0.0, the additive
// identity of IEEE arithmetic (-0 + x = x for every x, -0 included), at
// every other value.
func identityPack(vals []*tensor.Tensor, out int, seed *tensor.Tensor) []*tensor.Tensor {
	p := make([]*tensor.Tensor, len(vals))
	for i, v := range vals {
		p[i] = tensor.Zeros(v.Shape)
		p[i].Fill(math.Copysign(0, -1))
	}
	p[out] = seed
	return p
}

// denseAllStats counts what the dense-reference test saw.
type denseAllStats struct {
	outputs, certified, identical, signOnly int
}

// checkDenseAll checks that the tape holds Eval's values, then the tape's
// BackwardDense and BackwardDenseAll from
// several outputs (the program's and up to three others, random seeds with
// -0.0, ±Inf and NaN) on the compiled tape and on the eager session's tape
// against two references that share no step code with the tape:
//
//  1. Backprop over the cone of out (cone) seeded with the identity pack
//     (identityPack): bit-identical on every slot the pass reaches; the
//     others are empty after BackwardDense and +0.0 after BackwardDenseAll.
//     The order is the same: both fold, newest instruction first and in
//     operand order, existing + new, over the same instructions (the cone
//     runs exactly the VJPs BackwardDense runs), and BackwardDense's "the
//     first contribution is stored as is" is -0.0 + contribution.
//  2. TorchLean's dense one-hot pass (Backprop on g with seed at out and
//     +0.0 elsewhere): when every ZeroSafe certificate holds, bit-identical
//     except at elements where BackwardDenseAll holds -0.0 and the dense
//     pass +0.0 (a sum started at +0.0 cannot end at -0.0, and the VJPs the
//     dense pass runs beyond the cone add only ±0).
//
// mutate, when not nil, breaks the graph the tape is compiled from (the
// references use the original).
func checkDenseAll(c *randprog.Case, r *rand.Rand, mutate func(*Graph) *Graph, st *denseAllStats) error {
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	in := c.Tensors()
	vals, err := Eval(g, in)
	if err != nil {
		return err
	}
	tapes := map[string]*autograd.Tape{}
	if mutate != nil {
		bad, _, err := Compile(mutate(g), in)
		if err != nil {
			return fmt.Errorf("Compile: %v", err)
		}
		tapes["compiled"] = bad
	} else {
		ct, _, err := Compile(g, in)
		if err != nil {
			return fmt.Errorf("Compile: %v", err)
		}
		s, err := eager(c)
		if err != nil {
			return fmt.Errorf("eager: %v", err)
		}
		tapes["compiled"], tapes["eager"] = ct, s.Tape()
	}
	for name, tape := range tapes {
		if err := sameTensors(name+" tape values vs Eval", tapeValues(tape), vals); err != nil {
			return err
		}
	}
	outs := []int{c.Output}
	for range 3 {
		outs = append(outs, r.IntN(len(vals)))
	}
	certified := allCertified(g, vals)
	for _, o := range outs {
		seed := randprog.Tensor(r, vals[o].Shape, r.IntN(2) == 0)
		if r.IntN(4) == 0 {
			seed.Data[r.IntN(len(seed.Data))] = math.Copysign(0, -1)
		}
		cg, cin := cone(g, in, vals, o)
		ref, err := Backprop(cg, cin, identityPack(vals[:o+1], o, seed))
		if err != nil {
			return fmt.Errorf("output %d: Backprop on the cone: %v", o, err)
		}
		onehot, err := Backprop(g, in, oneHot(vals, o, seed))
		if err != nil {
			return err
		}
		reach := reached(g, o)
		for name, tape := range tapes {
			var dense, all autograd.Grads
			if err := tape.BackwardDense(o, seed, &dense); err != nil {
				return err
			}
			if err := tape.BackwardDenseAll(o, seed, &all); err != nil {
				return err
			}
			for i := range vals {
				switch {
				case reach[i]:
					if !tensor.Identical(dense.Of(i), ref[i]) || !tensor.Identical(all.Of(i), ref[i]) {
						return fmt.Errorf("%s tape, output %d: node %d: BackwardDense %v, BackwardDenseAll %v, reference %v", name, o, i, dense.Of(i), all.Of(i), ref[i])
					}
				case dense.Of(i) != nil || !tensor.Identical(all.Of(i), tensor.Zeros(vals[i].Shape)):
					return fmt.Errorf("%s tape, output %d: node %d is not reached, yet BackwardDense gives %v and BackwardDenseAll %v", name, o, i, dense.Of(i), all.Of(i))
				}
			}
			if !certified {
				continue
			}
			for i := range vals {
				if err := sameUpToNegZero(all.Of(i), onehot[i]); err != nil {
					return fmt.Errorf("%s tape, output %d: node %d: BackwardDenseAll vs dense one-hot: %v", name, o, i, err)
				}
			}
		}
		st.outputs++
		if certified {
			st.certified++
			var all autograd.Grads
			if err := tapes["compiled"].BackwardDenseAll(o, seed, &all); err != nil {
				return err
			}
			same := true
			for i := range vals {
				same = same && tensor.Identical(all.Of(i), onehot[i])
			}
			if same {
				st.identical++
			} else {
				st.signOnly++
			}
		}
	}
	return nil
}

// sameUpToNegZero reports the first element where a and b differ, except
// where a holds -0.0 and b +0.0.
func sameUpToNegZero(a, b *tensor.Tensor) error {
	if !a.Shape.Equal(b.Shape) {
		return fmt.Errorf("shapes %v and %v", a.Shape, b.Shape)
	}
	for k, x := range a.Data {
		y := b.Data[k]
		if math.Float64bits(x) == math.Float64bits(y) || math.IsNaN(x) && math.IsNaN(y) {
			continue
		}
		if x == 0 && math.Signbit(x) && y == 0 && !math.Signbit(y) {
			continue
		}
		return fmt.Errorf("element %d: %v vs %v", k, x, y)
	}
	return nil
}

func TestDenseAllEqualsReference(t *testing.T) {
	var st denseAllStats
	forPrograms(t, config, func(c *randprog.Case, r *rand.Rand) error { return checkDenseAll(c, r, nil, &st) })
	t.Logf("%d outputs; %d with every certificate holding: %d bit-identical to the dense one-hot pass, %d differing only where BackwardDenseAll holds -0.0",
		st.outputs, st.certified, st.identical, st.signOnly)
	if st.certified < st.outputs/10 || st.signOnly == 0 {
		t.Errorf("too few interesting cases: %+v", st)
	}
}

func TestDenseAllCatchesMutants(t *testing.T) {
	caughtShare(t, func(c *randprog.Case, r *rand.Rand, mutate func(*Graph) *Graph) error {
		return checkDenseAll(c, r, mutate, &denseAllStats{})
	})
}
