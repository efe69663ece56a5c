package graph

import (
	"errors"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/autograd/tapetest"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// The property tests stand in for TorchLean's theorems (engine/README.md
// lists which test checks which). Each runs over programs() generated
// programs; a failure prints the program's seed and listing.

// config is the generator setting for program number i: every fourth
// program keeps its inputs finite, so that the compact pass's "visits only
// the dependencies" claim is exercised often.
func config(i uint64) randprog.Config {
	return randprog.Config{Finite: i%4 == 0}
}

func forPrograms(t *testing.T, cfg func(uint64) randprog.Config, check func(c *randprog.Case, r *rand.Rand) error) {
	t.Helper()
	n := programs()
	ran := 0
	for i := uint64(0); i < uint64(n); i++ {
		c := randprog.Generate(i, cfg(i))
		if c == nil {
			t.Fatalf("program %d: the generator made nothing", i)
		}
		r := rand.New(rand.NewPCG(i, 7))
		if err := check(c, r); err != nil {
			t.Fatalf("program %d: %v\nprogram:\n%v", i, err, c)
		}
		ran++
	}
	t.Logf("%d programs", ran)
}

// checkCompiledContext: Compile, CompileChecked (and its Tape) and
// LowerChecked hold exactly Eval's values.
func checkCompiledContext(c *randprog.Case, _ *rand.Rand) error {
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	in := c.Tensors()
	vals, err := Eval(g, in)
	if err != nil {
		return fmt.Errorf("Eval: %v", err)
	}
	tape, cvals, err := Compile(g, in)
	if err != nil {
		return fmt.Errorf("Compile: %v", err)
	}
	if err := sameTensors("Compile values vs Eval", cvals, vals); err != nil {
		return err
	}
	if err := sameTensors("Compile tape vs Eval", tapeValues(tape), vals); err != nil {
		return err
	}
	cc, err := CompileChecked(g, in)
	if err != nil {
		return fmt.Errorf("CompileChecked on an in-domain program: %v", err)
	}
	if err := sameTensors("CompileChecked context vs Eval", cc.Values(), vals); err != nil {
		return err
	}
	if err := sameTensors("CompileChecked tape vs Eval", tapeValues(cc.Tape()), vals); err != nil {
		return err
	}
	lt, err := LowerChecked(g, in)
	if err != nil {
		return fmt.Errorf("LowerChecked on an in-domain program: %v", err)
	}
	if err := sameTensors("LowerChecked tape vs Eval", tapeValues(lt), vals); err != nil {
		return err
	}
	return checkFloat32Context(g, in)
}

// checkFloat32Context: in float32, CompileAt, CompileCheckedAt (and its
// Tape) and LowerCheckedAt hold exactly the float32-storage reference's
// values (tapetest.Values), or the checked two fail alike (rounding can
// take an operand out of its op's domain), and leave the inputs as they
// were.
func checkFloat32Context(g *Graph, in []*tensor.Tensor) error {
	keep := cloneAll(in)
	t64, _, err := Compile(g, in)
	if err != nil {
		return fmt.Errorf("Compile: %v", err)
	}
	want, _ := tapetest.Values(t64, tensor.Float32)
	tape, cvals, err := CompileAt(g, in, tensor.Float32)
	if err != nil {
		return fmt.Errorf("CompileAt: %v", err)
	}
	if err := sameTensors("float32 CompileAt values vs the reference", cvals, want); err != nil {
		return err
	}
	if err := sameTensors("float32 CompileAt tape vs the reference", tapeValues(tape), want); err != nil {
		return err
	}
	cc, cerr := CompileCheckedAt(g, in, tensor.Float32)
	lt, lerr := LowerCheckedAt(g, in, tensor.Float32)
	switch {
	case cerr != nil || lerr != nil:
		if cerr == nil || lerr == nil || cerr.Error() != lerr.Error() {
			return fmt.Errorf("float32: CompileCheckedAt: %v; LowerCheckedAt: %v", cerr, lerr)
		}
	case cc.Precision() != tensor.Float32 || cc.Tape().Precision() != tensor.Float32 || lt.Precision() != tensor.Float32:
		return fmt.Errorf("float32: the compiled precisions are %v, %v, %v", cc.Precision(), cc.Tape().Precision(), lt.Precision())
	default:
		for what, vals := range map[string][]*tensor.Tensor{"CompileCheckedAt": cc.Values(), "its Tape": tapeValues(cc.Tape()), "LowerCheckedAt": tapeValues(lt)} {
			if err := sameTensors("float32 "+what+" vs the reference", vals, want); err != nil {
				return err
			}
		}
	}
	return sameTensors("the inputs after the float32 runs", in, keep)
}

func TestCompiledContextEqualsEval(t *testing.T) {
	forPrograms(t, config, checkCompiledContext)
}

// checkDenseBackward: for a random seed pack (-0.0, ±Inf and NaN seeds
// included), the compiled tape's BackwardDenseFrom, the Compiled's and its
// materialised tape's all equal Backprop bit for bit.
func checkDenseBackward(c *randprog.Case, r *rand.Rand) error {
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	return denseMatchesBackprop(g, g, c.Tensors(), r, r.IntN(3) == 0, Compile)
}

// denseMatchesBackprop compares Backprop on ref with the dense passes of
// what compile makes of g (g is ref, except in the tests that show a broken
// path is caught), for a random seed pack (finite when finite is set).
func denseMatchesBackprop(g, ref *Graph, in []*tensor.Tensor, r *rand.Rand, finite bool,
	compile func(*Graph, []*tensor.Tensor) (*autograd.Tape, []*tensor.Tensor, error)) error {
	tape, vals, err := compile(g, in)
	if err != nil {
		return fmt.Errorf("Compile: %v", err)
	}
	seeds := seedPack(r, vals, finite)
	want, err := Backprop(ref, in, seeds)
	if err != nil {
		return fmt.Errorf("Backprop: %v", err)
	}
	got, err := tapeGrads(tape, seeds)
	if err != nil {
		return fmt.Errorf("tape: %v", err)
	}
	if err := sameTensors("compiled tape BackwardDenseFrom vs Backprop", got, want); err != nil {
		return err
	}
	cc, err := CompileChecked(g, in)
	if err != nil {
		return fmt.Errorf("CompileChecked: %v", err)
	}
	got, err = cc.BackwardDenseFrom(seeds)
	if err != nil {
		return fmt.Errorf("Compiled.BackwardDenseFrom: %v", err)
	}
	if err := sameTensors("Compiled.BackwardDenseFrom vs Backprop", got, want); err != nil {
		return err
	}
	got, err = tapeGrads(cc.Tape(), seeds)
	if err != nil {
		return fmt.Errorf("Compiled.Tape: %v", err)
	}
	return sameTensors("Compiled.Tape BackwardDenseFrom vs Backprop", got, want)
}

func TestDenseBackwardEqualsBackprop(t *testing.T) {
	forPrograms(t, config, checkDenseBackward)
}

// checkEagerEqualsCompiled: the program run on autograd.Session and through
// Builder → Compile gives the same tape (kinds, ops, parents, flags) with
// bit-identical values, and identical gradients from BackwardDenseFrom,
// BackwardDense and BackwardDenseAll.
func checkEagerEqualsCompiled(c *randprog.Case, r *rand.Rand) error {
	for _, p := range precisions {
		if err := checkEagerEqualsCompiledAt(c, r, p); err != nil {
			return fmt.Errorf("%v: %v", p, err)
		}
	}
	return nil
}

// checkEagerEqualsCompiledAt is checkEagerEqualsCompiled in precision p; in
// float32 the passes' gradients also equal the float32-storage reference's
// (tapetest.Grads) and the Compiled's dense pass the eager tape's.
func checkEagerEqualsCompiledAt(c *randprog.Case, r *rand.Rand, prec tensor.Precision) error {
	s, err := eagerAt(c, prec)
	if err != nil {
		return fmt.Errorf("eager: %v", err)
	}
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	ct, _, err := CompileAt(g, c.Tensors(), prec)
	if err != nil {
		return fmt.Errorf("Compile: %v", err)
	}
	et := s.Tape()
	if et.Len() != ct.Len() {
		return fmt.Errorf("eager tape has %d nodes, compiled %d", et.Len(), ct.Len())
	}
	for i := 0; i < et.Len(); i++ {
		a, b := et.Node(i), ct.Node(i)
		if a.Kind != b.Kind || a.Op != b.Op || a.RequiresGrad != b.RequiresGrad || a.Name != b.Name || fmt.Sprint(a.Parents) != fmt.Sprint(b.Parents) {
			return fmt.Errorf("node %d: eager {%v %v %v %q %v} vs compiled {%v %v %v %q %v}", i,
				a.Kind, a.Op, a.RequiresGrad, a.Name, a.Parents, b.Kind, b.Op, b.RequiresGrad, b.Name, b.Parents)
		}
	}
	vals := tapeValues(ct)
	if err := sameTensors("eager vs compiled values", tapeValues(et), vals); err != nil {
		return err
	}
	seeds := seedPack(r, vals, r.IntN(3) == 0)
	ge, err := tapeGrads(et, seeds)
	if err != nil {
		return err
	}
	gc, err := tapeGrads(ct, seeds)
	if err != nil {
		return err
	}
	if err := sameTensors("eager vs compiled BackwardDenseFrom", ge, gc); err != nil {
		return err
	}
	if cc, err := CompileCheckedAt(g, c.Tensors(), prec); err == nil {
		gcc, err := cc.BackwardDenseFrom(seeds)
		if err != nil {
			return err
		}
		if err := sameTensors("eager vs Compiled.BackwardDenseFrom", ge, gcc); err != nil {
			return err
		}
	}
	seed := randprog.Tensor(r, vals[c.Output].Shape, false)
	for _, pass := range []struct {
		name string
		run  func(*autograd.Tape, *autograd.Grads) error
	}{
		{"BackwardDense", func(t *autograd.Tape, g *autograd.Grads) error { return t.BackwardDense(c.Output, seed, g) }},
		{"BackwardDenseAll", func(t *autograd.Tape, g *autograd.Grads) error { return t.BackwardDenseAll(c.Output, seed, g) }},
	} {
		var a, b autograd.Grads
		if err := pass.run(et, &a); err != nil {
			return err
		}
		if err := pass.run(ct, &b); err != nil {
			return err
		}
		for i := 0; i < et.Len(); i++ {
			if !tensor.Identical(a.Of(i), b.Of(i)) {
				return fmt.Errorf("%s from %d: node %d: eager %v, compiled %v", pass.name, c.Output, i, a.Of(i), b.Of(i))
			}
		}
		if pass.name != "BackwardDense" || prec != tensor.Float32 {
			continue
		}
		t64, _, err := Compile(g, c.Tensors())
		if err != nil {
			return err
		}
		vs, pres := tapetest.Values(t64, prec)
		want := tapetest.Grads(t64, vs, pres, c.Output, seed, prec)
		for i, w := range want {
			if (w == nil) != (a.Of(i) == nil) || w != nil && !tensor.Identical(a.Of(i), w) {
				return fmt.Errorf("BackwardDense from %d: node %d: eager %v, the float32-storage reference %v", c.Output, i, a.Of(i), w)
			}
		}
	}
	return nil
}

func TestEagerEqualsCompiled(t *testing.T) {
	forPrograms(t, config, checkEagerEqualsCompiled)
}

// checkCheckedFailure: on programs that may leave an op's domain,
// CompileChecked and LowerChecked both succeed with identical values, or
// both fail with the same *op.Error (node id, op, shapes, message), at the
// node the generator made fault first.
func checkCheckedFailure(c *randprog.Case, _ *rand.Rand) error {
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	in := c.Tensors()
	lt, lerr := LowerChecked(g, in)
	cc, cerr := CompileChecked(g, in)
	switch {
	case lerr == nil && cerr == nil:
		if c.Fault >= 0 {
			return fmt.Errorf("both passed, but node %d is outside its domain", c.Fault)
		}
		return sameTensors("LowerChecked vs CompileChecked values", tapeValues(lt), cc.Values())
	case lerr == nil || cerr == nil:
		return fmt.Errorf("LowerChecked: %v; CompileChecked: %v", lerr, cerr)
	}
	if lerr.Error() != cerr.Error() {
		return fmt.Errorf("messages differ:\n  LowerChecked:   %v\n  CompileChecked: %v", lerr, cerr)
	}
	var le, ce *op.Error
	if !errors.As(lerr, &le) || !errors.As(cerr, &ce) {
		return fmt.Errorf("errors are not *op.Error: %T, %T", lerr, cerr)
	}
	if le.Node != ce.Node || le.Node != c.Fault {
		return fmt.Errorf("failed at nodes %d and %d, the first fault is %d", le.Node, ce.Node, c.Fault)
	}
	return nil
}

func TestCompileCheckedFailsLikeLowerChecked(t *testing.T) {
	faults := 0
	forPrograms(t, func(i uint64) randprog.Config {
		return randprog.Config{Faults: true, Finite: i%4 == 0}
	}, func(c *randprog.Case, r *rand.Rand) error {
		if c.Fault >= 0 {
			faults++
		}
		return checkCheckedFailure(c, r)
	})
	t.Logf("%d programs with a domain fault", faults)
	if faults < programs()/10 {
		t.Errorf("only %d programs had a domain fault", faults)
	}
}

// FuzzPrograms drives the generator from the fuzzer's bytes through every
// property of the package.
func FuzzPrograms(f *testing.F) {
	for _, s := range []string{"", "a", "tapelab", "\x01\x02\x03", "faults"} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		h := fnv.New64a()
		h.Write(data)
		seed := h.Sum64()
		cfg := randprog.Config{Finite: seed&1 == 0}
		r := func() *rand.Rand { return rand.New(rand.NewPCG(seed, 11)) }
		c := randprog.Generate(seed, cfg)
		var st compactStats
		for name, check := range map[string]func(*randprog.Case, *rand.Rand) error{
			"CompiledContextEqualsEval":   checkCompiledContext,
			"DenseBackwardEqualsBackprop": checkDenseBackward,
			"EagerEqualsCompiled":         checkEagerEqualsCompiled,
			"CompactEqualsDenseOneHot":    func(c *randprog.Case, r *rand.Rand) error { return checkCompact(c, r, &st) },
			"LinkedSessionEqualsBackprop": func(c *randprog.Case, r *rand.Rand) error { return checkLinked(c, r, nil) },
			"DenseAllEqualsReference":     func(c *randprog.Case, r *rand.Rand) error { return checkDenseAll(c, r, nil, &denseAllStats{}) },
			"CompiledTapeMatchesCompile":  func(c *randprog.Case, r *rand.Rand) error { return checkTapeStructure(c, r, nil) },
			"CursorEqualsBackwardFrom": func(c *randprog.Case, r *rand.Rand) error {
				return checkCursor(c, r, nil, nil, &cursorStats{reasons: map[Reason]int{}})
			},
		} {
			if err := check(c, r()); err != nil {
				t.Fatalf("%s: seed %d: %v\nprogram:\n%v", name, seed, err, c)
			}
		}
		cfg.Faults = true
		c = randprog.Generate(seed, cfg)
		if err := checkCheckedFailure(c, r()); err != nil {
			t.Fatalf("CompileCheckedFailsLikeLowerChecked: seed %d: %v\nprogram:\n%v", seed, err, c)
		}
	})
}
