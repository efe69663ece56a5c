package app

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/nn"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// compileCase records c with graph.Builder and compiles it twice: one
// Compiled for the stepper's cursor, one for the one-shot reference.
func compileCase(c *randprog.Case) (step, ref *graph.Compiled, err error) {
	b := graph.NewBuilder()
	vals := make([]op.Value, len(c.Inputs))
	for i, in := range c.Inputs {
		kind := autograd.Input
		if in.RequiresGrad {
			kind = autograd.Param
		}
		vals[i] = b.Leaf(in.Name, in.Value.Shape, kind, in.RequiresGrad)
	}
	c.Program(b, vals)
	g, err := b.Graph()
	if err != nil {
		return nil, nil, err
	}
	if step, err = graph.CompileChecked(g, c.Tensors()); err != nil {
		return nil, nil, err
	}
	ref, err = graph.CompileChecked(g, c.Tensors())
	return step, ref, err
}

// checkSingleStepper steps the single-output pass of stepC from out to the
// end and checks it against refC's one-shot BackwardFrom and Plan: the
// stepper's order and counts are the plan's, every visit is marked Ran (an
// extra one Extra, with its reason), every other op node that takes a
// gradient Skipped, and the gradients are BackwardFrom's, bit for bit. It
// reports how many visits beyond the dependencies it saw.
func checkSingleStepper(stepC, refC *graph.Compiled, out int) (int, error) {
	s, err := NewStepper(stepC, out)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	seed := tensor.Zeros(refC.Values()[out].Shape)
	seed.Fill(1)
	plan, err := refC.Plan(out, seed)
	if err != nil {
		return 0, err
	}
	want, visited, err := refC.BackwardFrom(out, seed)
	if err != nil {
		return 0, err
	}
	if len(plan) != visited {
		return 0, fmt.Errorf("Plan has %d visits, BackwardFrom counted %d", len(plan), visited)
	}
	if c := s.Counts(); c.BackwardTotal != visited {
		return 0, fmt.Errorf("the stepper's backward total is %d, BackwardFrom visited %d", c.BackwardTotal, visited)
	}
	steps := s.ToEnd()
	if c := s.Counts(); c.Backward != visited || steps != c.ForwardTotal+visited {
		return 0, fmt.Errorf("stepped %d (backward %d), want %d forward + %d backward", steps, c.Backward, c.ForwardTotal, visited)
	}
	if err := s.Err(); err != nil {
		return 0, err
	}
	inPlan := map[int]graph.Visit{}
	for k, v := range plan {
		inPlan[v.Node] = v
		if s.Order()[k] != v.Node {
			return 0, fmt.Errorf("visit %d: the stepper runs node %d, the plan %d", k, s.Order()[k], v.Node)
		}
	}
	extras := 0
	t := stepC.Tape()
	for i := range t.Len() {
		st := s.State(i)
		v, visits := inPlan[i]
		extra := visits && v.Reason != graph.ReasonDependency
		nd := t.Node(i)
		switch {
		case st.Has(Ran) != visits:
			return 0, fmt.Errorf("node %d: Ran %v, in the plan %v", i, st.Has(Ran), visits)
		case st.Has(Extra) != extra:
			return 0, fmt.Errorf("node %d: Extra %v, visited beyond the dependencies %v", i, st.Has(Extra), extra)
		case nd.Op != nil && st.Has(Skipped) == visits:
			return 0, fmt.Errorf("node %d: Skipped %v, in the plan %v", i, st.Has(Skipped), visits)
		case extra && s.VisitReason(i) == "":
			return 0, fmt.Errorf("node %d: an extra visit with no reason shown", i)
		}
		if extra {
			extras++
		}
		if g := s.Cursor().Grad(i); !tensor.Identical(g, want[i]) {
			return 0, fmt.Errorf("node %d: stepped gradient %v, BackwardFrom %v", i, g, want[i])
		}
		if g := s.Grad(i); g != nil && !tensor.Identical(g, want[i]) {
			return 0, fmt.Errorf("node %d: shown gradient %v, BackwardFrom %v", i, g, want[i])
		}
	}
	return extras, nil
}

// TestSingleStepperIsBackwardFrom: on random programs (special IEEE values
// included, so 0·∞ visits happen) the single-output stepper's marks and
// counts are Compiled.Plan's and BackwardFrom's, from the program's output
// and from random nodes.
func TestSingleStepperIsBackwardFrom(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 60
	}
	extras := 0
	for i := range uint64(n) {
		c := randprog.Generate(i, randprog.Config{})
		stepC, refC, err := compileCase(c)
		if err != nil {
			continue // a program outside CompileChecked's domains
		}
		r := rand.New(rand.NewPCG(i, 13))
		for _, out := range []int{c.Output, r.IntN(len(refC.Values()))} {
			k, err := checkSingleStepper(stepC, refC, out)
			if err != nil {
				t.Fatalf("program %d, output %d: %v\n%v", i, out, err, c)
			}
			extras += k
		}
	}
	if extras == 0 {
		t.Fatal("no program had a visit beyond the output's dependencies: the test checks nothing of them")
	}
	t.Logf("%d visits beyond the dependencies", extras)
}

// TestSingleStepperShowsZeroTimesInfinity: exp(p) overflows beside the
// output sum(p); the single-output pass visits it anyway (0·∞ is NaN, which
// the dense pass adds into p's gradient), and the stepper shows why.
func TestSingleStepperShowsZeroTimesInfinity(t *testing.T) {
	b := graph.NewBuilder()
	p := b.Param("p", tensor.Shape{2})
	e := op.Exp(b, p)
	out := op.Sum(b, p)
	g, err := b.Graph()
	if err != nil {
		t.Fatal(err)
	}
	pv, _ := tensor.New(tensor.Shape{2}, []float64{1000, 1})
	stepC, err := graph.CompileChecked(g, []*tensor.Tensor{pv})
	if err != nil {
		t.Fatal(err)
	}
	refC, _ := graph.CompileChecked(g, []*tensor.Tensor{pv})
	if k, err := checkSingleStepper(stepC, refC, int(out)); err != nil || k != 1 {
		t.Fatalf("extra visits %d, err %v; want the exp's", k, err)
	}
	s, err := NewStepper(stepC, int(out))
	if err != nil {
		t.Fatal(err)
	}
	s.ToEnd()
	if !s.State(int(e)).Has(Extra|Ran) || s.VisitReason(int(e)) != "visited beyond the loss's dependencies: 0·∞: not zero-safe" {
		t.Errorf("exp: state %b, reason %q", s.State(int(e)), s.VisitReason(int(e)))
	}
	if v, ok := s.Visit(int(e)); !ok || ReasonBadge(v.Reason) != "0·∞" {
		t.Errorf("exp's visit %+v %v", v, ok)
	}
	if g := s.Grad(int(p)); g == nil || !math.IsNaN(g.Data[0]) || g.Data[1] != 1 {
		t.Errorf("p's gradient %v, want [NaN 1]", g)
	}
}

// TestSingleStepperOnEveryLayer: with dropout, batch norm, layer norm and
// an L2 penalty, in both executions, the single-output stepper (on the
// tape's snapshot in eager mode) runs exactly the recorded step's
// BackwardFrom visits and ends with the eager one-shot pass's parameter
// gradients, bit for bit.
func TestSingleStepperOnEveryLayer(t *testing.T) {
	doc := DefaultDoc()
	doc.Layers = []nn.Layer{nn.NewLinear(4), nn.NewBatchNorm(), nn.NewDropout(), nn.NewLeakyReLU(), nn.NewLinear(3), nn.NewLayerNorm(), nn.Tanh{}, nn.NewLinear(1)}
	for _, m := range []Modes{{Single: true}, {Single: true, Compiled: true}, {Single: true, L2: 0.1}, {Single: true, Eval: true}} {
		p, err := New(doc, testBatch())
		if err != nil {
			t.Fatal(err)
		}
		if err := p.SetModes(m); err != nil {
			t.Fatalf("%+v: %v", m, err)
		}
		s := p.Stepper()
		ps, err := p.Passes()
		if err != nil {
			t.Fatal(err)
		}
		if c := s.Counts(); c.BackwardTotal != ps.Single || !ps.Identical {
			t.Errorf("%+v: the stepper steps %d VJPs, BackwardFrom visits %d (identical to dense: %v)", m, c.BackwardTotal, ps.Single, ps.Identical)
		}
		s.ToEnd()
		want := oneShot(t, p)
		for _, i := range p.Recording().ParamNodes {
			g, w := s.Cursor().Grad(i), want.Of(i)
			if w == nil { // a buffer: BackwardFrom leaves its +0.0 seed, which the page does not show
				w = tensor.Zeros(g.Shape)
				if s.Grad(i) != nil {
					t.Errorf("%+v: buffer %d shows a gradient", m, i)
				}
			}
			if !tensor.Identical(g, w) {
				t.Errorf("%+v: node %d: stepped %v, one-shot %v", m, i, g, w)
			}
		}
	}
}
