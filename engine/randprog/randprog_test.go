package randprog_test

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
)

const programs = 1000

// run records c on an eager session.
func run(c *randprog.Case) (*autograd.Session, op.Value) {
	s := autograd.NewSession()
	in := make([]op.Value, len(c.Inputs))
	for i, x := range c.Inputs {
		kind := autograd.Input
		if x.RequiresGrad {
			kind = autograd.Param
		}
		in[i] = s.Leaf(x.Value, x.Name, kind, x.RequiresGrad)
	}
	return s, c.Program(s, in)
}

func TestDefaultProgramsAreWellTypedAndInDomain(t *testing.T) {
	for seed := uint64(0); seed < programs; seed++ {
		c := randprog.Generate(seed, randprog.Config{})
		s, out := run(c)
		if err := s.Err(); err != nil {
			t.Fatalf("seed %d: %v\n%v", seed, err, c)
		}
		if int(out) != c.Output || c.Output != s.Tape().Len()-1-trailingConsts(s.Tape()) {
			t.Fatalf("seed %d: program returned %d, Output says %d, tape has %d nodes", seed, out, c.Output, s.Tape().Len())
		}
		if c.Fault != -1 {
			t.Fatalf("seed %d: Fault = %d without Config.Faults", seed, c.Fault)
		}
	}
}

func trailingConsts(t *autograd.Tape) int {
	n := 0
	for i := t.Len() - 1; i >= 0 && t.Node(i).Kind == autograd.Const; i-- {
		n++
	}
	return n
}

func TestEveryCatalogueOpIsGenerated(t *testing.T) {
	counts := map[string]int{}
	for seed := uint64(0); seed < programs; seed++ {
		for _, name := range randprog.Generate(seed, randprog.Config{}).Applied {
			counts[name]++
		}
	}
	for _, o := range op.All() {
		if counts[o.Name] < 20 {
			t.Errorf("op %s applied %d times in %d programs; want at least 20 (does it need a recipe?)", o.Name, counts[o.Name], programs)
		}
	}
	t.Logf("applications per op: %v", counts)
}

// TestProgramsHaveTheStructuresTestsNeed checks, over the default
// programs, that the features the property tests rely on occur often:
// -0.0, ±Inf and NaN computed by ops, a value used twice by one node, a
// value used by several nodes, values the output does not depend on, and
// constants.
func TestProgramsHaveTheStructuresTestsNeed(t *testing.T) {
	var negZero, inf, nan, twice, fanOut, unreachable, consts int
	for seed := uint64(0); seed < programs; seed++ {
		c := randprog.Generate(seed, randprog.Config{})
		s, out := run(c)
		tp := s.Tape()
		var nz, in, na, tw, fo, un, co bool
		uses := make([]int, tp.Len())
		for i := 0; i < tp.Len(); i++ {
			nd := tp.Node(i)
			if nd.Kind == autograd.Const {
				co = true
			}
			for j, p := range nd.Parents {
				uses[p]++
				for _, q := range nd.Parents[:j] {
					tw = tw || p == q
				}
			}
			if nd.Kind != autograd.OpNode {
				continue
			}
			for _, v := range nd.Value.Data {
				nz = nz || (v == 0 && math.Signbit(v))
				in = in || math.IsInf(v, 0)
				na = na || math.IsNaN(v)
			}
		}
		reach := make([]bool, tp.Len())
		reach[out] = true
		for i := int(out); i >= 0; i-- {
			if reach[i] {
				for _, p := range tp.Node(i).Parents {
					reach[p] = true
				}
			} else {
				un = true
			}
			fo = fo || uses[i] > 1
		}
		for _, f := range []struct {
			b bool
			n *int
		}{{nz, &negZero}, {in, &inf}, {na, &nan}, {tw, &twice}, {fo, &fanOut}, {un, &unreachable}, {co, &consts}} {
			if f.b {
				*f.n++
			}
		}
	}
	t.Logf("of %d programs: -0.0 computed in %d, ±Inf in %d, NaN in %d; a value used twice by one node in %d, by several nodes in %d; unreachable values in %d; constants in %d",
		programs, negZero, inf, nan, twice, fanOut, unreachable, consts)
	for name, n := range map[string]int{"-0.0": negZero, "±Inf": inf, "NaN": nan, "twice by one node": twice, "fan-out": fanOut, "unreachable": unreachable, "constants": consts} {
		if n < programs/20 {
			t.Errorf("%s occurs in only %d of %d programs", name, n, programs)
		}
	}
}

func TestFiniteConfigKeepsInputsFinite(t *testing.T) {
	for seed := uint64(0); seed < 200; seed++ {
		c := randprog.Generate(seed, randprog.Config{Finite: true})
		for _, in := range c.Inputs {
			for _, v := range in.Value.Data {
				if math.IsNaN(v) || math.IsInf(v, 0) || (v == 0 && math.Signbit(v)) || (v != 0 && math.Abs(v) < 1e-100) || math.Abs(v) > 1e100 {
					t.Fatalf("seed %d: input %s holds %v", seed, in.Name, v)
				}
			}
		}
	}
}

func TestFaultsAreWhereTheSessionFails(t *testing.T) {
	faults := 0
	for seed := uint64(0); seed < programs; seed++ {
		c := randprog.Generate(seed, randprog.Config{Faults: true})
		s, _ := run(c)
		err := s.Err()
		if c.Fault < 0 {
			if err != nil {
				t.Fatalf("seed %d: no fault announced, session failed: %v", seed, err)
			}
			continue
		}
		faults++
		e, ok := err.(*op.Error)
		if !ok || e.Node != c.Fault {
			t.Fatalf("seed %d: fault announced at %d, session error %v\n%v", seed, c.Fault, err, c)
		}
	}
	if faults < programs/10 {
		t.Errorf("only %d of %d programs have a domain fault", faults, programs)
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	for seed := uint64(0); seed < 50; seed++ {
		a, b := randprog.Generate(seed, randprog.Config{}), randprog.Generate(seed, randprog.Config{})
		if a.String() != b.String() {
			t.Fatalf("seed %d gives two programs:\n%v\n%v", seed, a, b)
		}
	}
}

func TestConfigOpsAndSteps(t *testing.T) {
	tanh, _ := op.Lookup("tanh")
	c := randprog.Generate(1, randprog.Config{Ops: []*op.Op{tanh}, Steps: 5})
	if strings.Join(c.Applied, " ") != "tanh tanh tanh tanh tanh" {
		t.Errorf("Applied = %v", c.Applied)
	}
	if randprog.Generate(1, randprog.Config{Ops: []*op.Op{}}) != nil {
		t.Error("no ops: want nil")
	}
}

func TestProgramWithWrongInputCountRecordsNothing(t *testing.T) {
	c := randprog.Generate(3, randprog.Config{})
	s := autograd.NewSession()
	if out := c.Program(s, nil); out != op.NoValue || s.Tape().Len() != 0 {
		t.Errorf("got %d with %d nodes recorded", out, s.Tape().Len())
	}
}

func TestTensorShapes(t *testing.T) {
	c := randprog.Generate(0, randprog.Config{})
	if len(c.Tensors()) != len(c.Inputs) {
		t.Fatal("Tensors")
	}
	for _, in := range c.Inputs {
		if in.Value.Shape.Size() != len(in.Value.Data) || !in.Value.Shape.Valid() {
			t.Errorf("input %s: %v", in.Name, in.Value)
		}
	}
}
