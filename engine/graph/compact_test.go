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

// TestCompactSkipsOnlyWhatIsExact shows the three cases of the package doc
// on small graphs, against the dense pass.
func TestCompactSkipsOnlyWhatIsExact(t *testing.T) {
	inf := math.Inf(1)
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name    string
		rec     func(b *Builder) int // returns the output
		in      []*tensor.Tensor
		seed    *tensor.Tensor
		visited int
		check   func(g []*tensor.Tensor) bool
	}{
		{"unrelated branch is skipped", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			y := op.Tanh(b, x)
			op.Tanh(b, op.Scale(b, x, 3)) // not a dependency of y
			return int(y)
		}, []*tensor.Tensor{tensor.Vector(0.5)}, tensor.Vector(1), 1, nil},
		{"0·∞ on an unrelated branch is visited", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			y := op.Neg(b, x)
			op.Mul(b, x, b.Const(tensor.Vector(inf))) // its VJP gives 0·∞ = NaN to x
			return int(y)
		}, []*tensor.Tensor{tensor.Vector(2)}, tensor.Vector(1), 2, func(g []*tensor.Tensor) bool { return math.IsNaN(g[0].Data[0]) }},
		{"-0.0 seed visits the output's consumers", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			op.Tanh(b, x) // adds +0 into x's -0 seed: the result is +0
			return int(x)
		}, []*tensor.Tensor{tensor.Vector(2)}, tensor.Vector(negZero), 1, func(g []*tensor.Tensor) bool {
			return g[0].Data[0] == 0 && !math.Signbit(g[0].Data[0])
		}},
		{"-0.0 seed on a value that takes no gradient", func(b *Builder) int {
			x := b.Input("x", tensor.Shape{1})
			op.Tanh(b, x)
			return int(x)
		}, []*tensor.Tensor{tensor.Vector(2)}, tensor.Vector(negZero), 0, func(g []*tensor.Tensor) bool { return math.Signbit(g[0].Data[0]) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			out := tc.rec(b)
			g, err := b.Graph()
			if err != nil {
				t.Fatal(err)
			}
			cc, err := CompileChecked(g, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			dense, err := cc.BackwardDenseFrom(oneHot(cc.Values(), out, tc.seed))
			if err != nil {
				t.Fatal(err)
			}
			dense = cloneAll(dense)
			got, visited, err := cc.BackwardFrom(out, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameTensors("compact vs dense", got, dense); err != nil {
				t.Error(err)
			}
			if visited != tc.visited {
				t.Errorf("visited %d, want %d", visited, tc.visited)
			}
			if tc.check != nil && !tc.check(got) {
				t.Errorf("gradients %v", got)
			}
		})
	}
}

// TestCompactFallsBackWithoutCertificate: one op without ZeroSafe anywhere
// in the reverse pass makes BackwardFrom run every VJP, still bit-identical.
func TestCompactFallsBackWithoutCertificate(t *testing.T) {
	uncertified := *lookup(t, "tanh")
	uncertified.ZeroSafe = nil
	b := NewBuilder()
	x := b.Param("x", tensor.Shape{2})
	y := op.Neg(b, x)
	b.Apply(&uncertified, op.Attrs{}, x, op.NoValue, op.NoValue)
	op.Scale(b, x, 2)
	g, err := b.Graph()
	if err != nil {
		t.Fatal(err)
	}
	cc, err := CompileChecked(g, []*tensor.Tensor{tensor.Vector(1, -1)})
	if err != nil {
		t.Fatal(err)
	}
	if cc.Certified() {
		t.Fatal("Certified() with an uncertified op")
	}
	seed := tensor.Vector(1, 2)
	dense, _ := cc.BackwardDenseFrom(oneHot(cc.Values(), int(y), seed))
	dense = cloneAll(dense)
	got, visited, err := cc.BackwardFrom(int(y), seed)
	if err != nil {
		t.Fatal(err)
	}
	if visited != 3 {
		t.Errorf("visited %d, want all 3", visited)
	}
	if err := sameTensors("fallback vs dense", got, dense); err != nil {
		t.Error(err)
	}
}

// TestGradientsAreReusedBuffers documents that a Compiled's results are
// overwritten by its next pass.
func TestGradientsAreReusedBuffers(t *testing.T) {
	b := NewBuilder()
	x := b.Param("x", tensor.Shape{1})
	y := op.Scale(b, x, 2)
	g, _ := b.Graph()
	cc, err := CompileChecked(g, []*tensor.Tensor{tensor.Vector(1)})
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := cc.BackwardFrom(int(y), tensor.Vector(1))
	kept := first[x].Clone()
	second, _, _ := cc.BackwardFrom(int(y), tensor.Vector(5))
	if kept.Data[0] != 2 || second[x].Data[0] != 10 || first[x].Data[0] != 10 {
		t.Errorf("kept %v, second %v, first now %v", kept, second[x], first[x])
	}
}

// compactStats counts what the compact-support test saw.
type compactStats struct {
	outputs, negZero, exact, skipped, visited, dense int
	// finite counts outputs whose program holds only finite values (seed
	// without -0.0); finiteExtra those of them that visited more than the
	// dependencies (a certificate failing on finite values, e.g. sqrt at 0).
	finite, finiteExtra int
}

// checkCompact: for every value o of the program and a random seed (-0.0,
// ±Inf and NaN included one time in two), BackwardFrom(o, seed) equals the
// dense pass with the one-hot pack bit for bit, on the Compiled and on the
// compiled tape; it visits at least o's dependencies, and exactly those
// whenever every certificate holds and the seed has no -0.0.
func checkCompact(c *randprog.Case, r *rand.Rand, st *compactStats) error {
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	in := c.Tensors()
	cc, err := CompileChecked(g, in)
	if err != nil {
		return fmt.Errorf("CompileChecked: %v", err)
	}
	tape, _, err := Compile(g, in)
	if err != nil {
		return err
	}
	vals := cc.Values()
	denseVJPs := denseCount(g)
	certified := allCertified(g, vals)
	finite := allFinite(vals)
	// the dense references first, so that the compact passes below run
	// back to back on one Compiled (each reusing the last one's buffers)
	seeds := make([]*tensor.Tensor, len(vals))
	dense := make([][]*tensor.Tensor, len(vals))
	for o := range vals {
		seed := randprog.Tensor(r, vals[o].Shape, r.IntN(2) == 0)
		if r.IntN(4) == 0 {
			seed.Data[r.IntN(len(seed.Data))] = math.Copysign(0, -1)
		}
		pack := oneHot(vals, o, seed)
		d, err := cc.BackwardDenseFrom(pack)
		if err != nil {
			return err
		}
		seeds[o], dense[o] = seed, cloneAll(d)
		viaTape, err := tapeGrads(tape, pack)
		if err != nil {
			return err
		}
		if err := sameTensors(fmt.Sprintf("output %d: Compiled dense vs tape dense", o), dense[o], viaTape); err != nil {
			return err
		}
	}
	for _, o := range r.Perm(len(vals)) {
		seed := seeds[o]
		got, visited, err := cc.BackwardFrom(o, seed)
		if err != nil {
			return err
		}
		if err := sameTensors(fmt.Sprintf("output %d, seed %v: BackwardFrom vs dense one-hot", o, seed), got, dense[o]); err != nil {
			return err
		}
		deps := dependencies(g, o)
		neg := hasNegZeroT(seed)
		st.outputs++
		st.visited += visited
		st.dense += denseVJPs
		if visited < deps {
			return fmt.Errorf("output %d: visited %d nodes, fewer than its %d dependencies", o, visited, deps)
		}
		if certified && !neg {
			st.exact++
			if visited != deps {
				return fmt.Errorf("output %d: every certificate holds and the seed has no -0.0, yet it visited %d nodes for %d dependencies", o, visited, deps)
			}
		}
		if neg {
			st.negZero++
		} else if finite && seed.Finite() {
			st.finite++
			if visited != deps {
				st.finiteExtra++
			}
		}
		if visited < denseVJPs {
			st.skipped++
		}
	}
	return nil
}

// denseCount is the number of VJPs the dense pass runs.
func denseCount(g *Graph) int {
	n := 0
	for _, v := range g.Values {
		if v.Kind == autograd.OpNode && v.RequiresGrad {
			n++
		}
	}
	return n
}

func TestCompactEqualsDenseOneHot(t *testing.T) {
	var st compactStats
	forPrograms(t, config, func(c *randprog.Case, r *rand.Rand) error { return checkCompact(c, r, &st) })
	t.Logf("%d outputs: %d with every certificate holding and no -0.0 seed (visited == dependencies checked), %d with a -0.0 seed; compact skipped work for %d; %d VJPs run vs %d dense",
		st.outputs, st.exact, st.negZero, st.skipped, st.visited, st.dense)
	t.Logf("%d outputs with only finite values and seeds: %d visited more than their dependencies (a certificate that fails on finite values)", st.finite, st.finiteExtra)
	if st.exact < st.outputs/4 || st.skipped < st.outputs/4 || st.negZero == 0 {
		t.Errorf("too few interesting cases: %+v", st)
	}
}
