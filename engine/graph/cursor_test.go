package graph

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

// expectedPlan is the visit list of BackwardFrom(out, seed) as the package
// doc states it, computed from the graph and its values alone (the reach of
// reached, the ops' ZeroSafe certificates evaluated afresh), without the
// Compiled.
func expectedPlan(g *Graph, vals []*tensor.Tensor, out int, seed *tensor.Tensor) []Visit {
	runs := func(k int) bool { return g.Values[k].Kind == autograd.OpNode && g.Values[k].RequiresGrad }
	var plan []Visit
	dep := reached(g, out)
	for k := range g.Values {
		if v := &g.Values[k]; runs(k) && v.Op.ZeroSafe == nil {
			for j := g.Len() - 1; j >= 0; j-- {
				switch {
				case runs(j) && dep[j]:
					plan = append(plan, Visit{Node: j, Reason: ReasonDependency, By: -1})
				case runs(j):
					plan = append(plan, Visit{Node: j, Reason: ReasonUncertified, By: -1})
				}
			}
			return plan
		}
	}
	fedBy := make([]int, g.Len())
	for i := range fedBy {
		fedBy[i] = -1
	}
	neg := hasNegZeroT(seed) && g.Values[out].RequiresGrad
	for k := g.Len() - 1; k >= 0; k-- {
		if !runs(k) {
			continue
		}
		v := &g.Values[k]
		xs := make([]*tensor.Tensor, len(v.Args))
		feedsOut := false
		for j, p := range v.Args {
			xs[j] = vals[p]
			feedsOut = feedsOut || p == out && v.Op.Grads(j) && g.Values[p].RequiresGrad
		}
		var r Reason
		switch {
		case dep[k]:
			r = ReasonDependency
		case fedBy[k] >= 0:
			r = ReasonFed
		case !v.Op.ZeroSafe(vals[k], xs, v.Attrs):
			r = ReasonNotZeroSafe
		case neg && k > out && feedsOut:
			plan = append(plan, Visit{Node: k, Reason: ReasonNegZeroSeed, By: -1})
			continue
		default:
			continue
		}
		plan = append(plan, Visit{Node: k, Reason: r, By: -1})
		if r == ReasonFed {
			plan[len(plan)-1].By = fedBy[k]
		}
		if dep[k] {
			continue
		}
		for j, p := range v.Args {
			if v.Op.Grads(j) && g.Values[p].RequiresGrad && !dep[p] && fedBy[p] < 0 {
				fedBy[p] = k
			}
		}
	}
	return plan
}

// cursorStats counts what the cursor test saw.
type cursorStats struct {
	outputs int
	reasons map[Reason]int
	// uncertify, when set, makes checkCursor take away the ZeroSafe
	// certificate of the last instruction requiring a gradient (on a copy
	// of its op), so that BackwardFrom falls back to the dense pass.
	uncertify bool
	// prec is the precision checkCursor compiles in (its seeds rounded to
	// it, so that the package doc's plan reads the same -0.0).
	prec tensor.Precision
}

// uncertified returns a copy of g whose last instruction requiring a
// gradient has an op without a ZeroSafe certificate (its forward and VJP
// unchanged), or g itself when no instruction requires a gradient.
func uncertified(g *Graph) *Graph {
	for k := g.Len() - 1; k >= 0; k-- {
		if v := &g.Values[k]; v.Kind == autograd.OpNode && v.RequiresGrad {
			c := copyGraph(g)
			o := *v.Op
			o.ZeroSafe = nil
			c.Values[k].Op = &o
			return c
		}
	}
	return g
}

// checkCursor: for the program's output and up to three others, with
// random seeds (-0.0 in a quarter, ±Inf and NaN in half), a Cursor stepped
// to the end equals the one-shot BackwardFrom bit for bit after exactly its
// count of steps; its plan is the one the package doc states
// (expectedPlan: the same nodes, order, reasons); every gradient it
// declares final is the final one; every forward step reveals the compiled
// value; and (for the program's output) undoing every VJP step restores the
// seeding, after which stepping again ends at the same gradients. mutate, when not nil, breaks
// the graph the cursor's Compiled is compiled from; broken, when not nil,
// breaks the cursor's plan (the one-shot pass uses the original of both).
func checkCursor(c *randprog.Case, r *rand.Rand, mutate func(*Graph) *Graph, broken func([]Visit) []Visit, st *cursorStats) error {
	g, err := build(c)
	if err != nil {
		return fmt.Errorf("build: %v", err)
	}
	if st.uncertify {
		g = uncertified(g)
	}
	in := c.Tensors()
	cc, err := CompileCheckedAt(g, in, st.prec)
	if err != nil {
		return fmt.Errorf("CompileChecked: %v", err)
	}
	cm := cc
	if mutate != nil {
		if cm, err = CompileCheckedAt(mutate(g), in, st.prec); err != nil {
			return fmt.Errorf("CompileChecked: %v", err)
		}
	}
	vals := cc.Values()
	outs := []int{c.Output}
	for range 3 {
		outs = append(outs, r.IntN(len(vals)))
	}
	for _, o := range outs {
		seed := randprog.Tensor(r, vals[o].Shape, r.IntN(2) == 0)
		if r.IntN(4) == 0 {
			seed.Data[r.IntN(len(seed.Data))] = math.Copysign(0, -1)
		}
		st.prec.Round(seed)
		want, count, err := cc.BackwardFrom(o, seed)
		if err != nil {
			return err
		}
		want = cloneAll(want)
		cur, err := cm.NewCursor(o, seed)
		if err != nil {
			return err
		}
		if broken != nil {
			cur = newCursor(cm, o, seed, broken(cur.Plan()))
		}
		plan := cur.Plan()
		if exp := expectedPlan(g, vals, o, seed); !slices.Equal(plan, exp) {
			return fmt.Errorf("output %d: the cursor's plan %v, the package doc's %v", o, plan, exp)
		}
		if len(plan) != count {
			return fmt.Errorf("output %d: the cursor plans %d visits, BackwardFrom ran %d", o, len(plan), count)
		}
		final := make([]*tensor.Tensor, len(vals))
		for {
			e, ok := cur.Forward()
			if !ok {
				break
			}
			if !tensor.Identical(e.Value, vals[e.Node]) {
				return fmt.Errorf("output %d: forward step %d reveals %v, the context holds %v", o, e.Node, e.Value, vals[e.Node])
			}
		}
		if err := stepToEnd(cur, final); err != nil {
			return fmt.Errorf("output %d: %v", o, err)
		}
		if p := cur.Position(); p.Phase != autograd.PhaseDone || p.Steps != count || p.Known != len(vals) {
			return fmt.Errorf("output %d: at the end the cursor is at %+v, BackwardFrom ran %d VJPs", o, p, count)
		}
		for i := range vals {
			if !tensor.Identical(cur.Grad(i), want[i]) {
				return fmt.Errorf("output %d: node %d: cursor %v, BackwardFrom %v", o, i, cur.Grad(i), want[i])
			}
			if !tensor.Identical(final[i], want[i]) {
				return fmt.Errorf("output %d: node %d was declared final at %v, BackwardFrom gives %v", o, i, final[i], want[i])
			}
		}
		if o != outs[0] {
			cur.Close()
			st.outputs++
			for _, v := range plan {
				st.reasons[v.Reason]++
			}
			continue
		}
		for range count {
			if _, ok := cur.Undo(); !ok {
				return fmt.Errorf("output %d: Undo failed", o)
			}
		}
		pack := oneHot(vals, o, seed)
		for i, s := range pack {
			if !tensor.Identical(cur.Grad(i), s) {
				return fmt.Errorf("output %d: after undoing every VJP node %d holds %v, its seed is %v", o, i, cur.Grad(i), s)
			}
		}
		if err := stepToEnd(cur, final); err != nil {
			return fmt.Errorf("output %d, stepping again: %v", o, err)
		}
		if err := sameTensors(fmt.Sprintf("output %d: stepping again", o), cur.c.grads, want); err != nil {
			return err
		}
		cur.Close()
		st.outputs++
		for _, v := range plan {
			st.reasons[v.Reason]++
		}
	}
	return nil
}

// stepToEnd runs every backward step, keeping in final each gradient as it
// was when the cursor first declared it final.
func stepToEnd(cur *Cursor, final []*tensor.Tensor) error {
	clear(final)
	mark := func() {
		for i := range final {
			if final[i] == nil && cur.Final(i) {
				final[i] = cur.Grad(i).Clone()
			}
		}
	}
	mark()
	for {
		e, ok := cur.Backward()
		if !ok {
			break
		}
		if want := cur.plan[e.Position.Steps-1].Node; e.Node != want {
			return fmt.Errorf("step %d ran node %d, the plan says %d", e.Position.Steps, e.Node, want)
		}
		mark()
	}
	return cur.Err()
}

// TestCursorEqualsBackwardFrom runs checkCursor on random programs, one in
// eight with an op stripped of its certificate (the dense fallback), half
// of them compiled in float32.
func TestCursorEqualsBackwardFrom(t *testing.T) {
	st := cursorStats{reasons: map[Reason]int{}}
	i := 0
	forPrograms(t, config, func(c *randprog.Case, r *rand.Rand) error {
		st.uncertify = i%8 == 7
		st.prec = precisions[i/8%2] // both precisions, certified or not
		i++
		return checkCursor(c, r, nil, nil, &st)
	})
	t.Logf("%d outputs; visits by reason: %v", st.outputs, st.reasons)
	for _, r := range []Reason{ReasonDependency, ReasonNotZeroSafe, ReasonFed, ReasonNegZeroSeed, ReasonUncertified} {
		if st.reasons[r] == 0 {
			t.Errorf("no visit for the reason %q", r)
		}
	}
}

func TestCursorCatchesMutants(t *testing.T) {
	caughtShare(t, func(c *randprog.Case, r *rand.Rand, mutate func(*Graph) *Graph) error {
		return checkCursor(c, r, mutate, nil, &cursorStats{reasons: map[Reason]int{}})
	})
}

// TestCursorCatchesReachableOnlyPlan gives the cursor the plan of the
// reachable-only pass (the dependencies alone, what the playground stepped
// before) and requires the cursor test to fail on every program where
// BackwardFrom visits more.
func TestCursorCatchesReachableOnlyPlan(t *testing.T) {
	depsOnly := func(plan []Visit) []Visit {
		var out []Visit
		for _, v := range plan {
			if v.Reason == ReasonDependency {
				out = append(out, v)
			}
		}
		return out
	}
	eligible, caught := 0, 0
	for i := uint64(0); i < uint64(mutantPrograms()); i++ {
		c := randprog.Generate(i, config(i))
		st := cursorStats{reasons: map[Reason]int{}}
		if err := checkCursor(c, rand.New(rand.NewPCG(i, 7)), nil, nil, &st); err != nil {
			t.Fatal(err)
		}
		if st.reasons[ReasonNotZeroSafe]+st.reasons[ReasonNegZeroSeed]+st.reasons[ReasonUncertified] == 0 {
			continue
		}
		eligible++
		if checkCursor(c, rand.New(rand.NewPCG(i, 7)), nil, depsOnly, &st) != nil {
			caught++
		}
	}
	t.Logf("caught in %d of %d programs with visits beyond the dependencies", caught, eligible)
	if eligible == 0 || caught != eligible {
		t.Errorf("caught in %d of %d programs with visits beyond the dependencies", caught, eligible)
	}
}

// TestCursorReasons builds one small graph per reason and checks the plan
// the cursor steps, reason and feeder included, and that stepping it to the
// end gives BackwardFrom's gradients.
func TestCursorReasons(t *testing.T) {
	inf, negZero := math.Inf(1), math.Copysign(0, -1)
	uncertified := *lookup(t, "tanh")
	uncertified.ZeroSafe = nil
	tests := []struct {
		name string
		rec  func(b *Builder) int // returns the output
		seed *tensor.Tensor
		want []Visit
	}{
		{"dependencies only", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			y := op.Tanh(b, x)       // 1
			op.Tanh(b, op.Neg(b, x)) // 2, 3: beside y
			return int(y)
		}, tensor.Vector(1), []Visit{{1, ReasonDependency, -1}}},
		{"0·∞ and what it feeds", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			a := op.Tanh(b, x)                        // 1
			op.Mul(b, a, b.Const(tensor.Vector(inf))) // 2 const, 3 mul: 0·∞ = NaN into a
			return int(op.Neg(b, x))                  // 4
		}, tensor.Vector(1), []Visit{{4, ReasonDependency, -1}, {3, ReasonNotZeroSafe, -1}, {1, ReasonFed, 3}}},
		{"−0.0 seed", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			op.Tanh(b, x) // 1 adds +0 into x's -0 seed
			return int(x)
		}, tensor.Vector(negZero), []Visit{{1, ReasonNegZeroSeed, -1}}},
		{"uncertified op", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			y := op.Neg(b, x)                                            // 1
			b.Apply(&uncertified, op.Attrs{}, x, op.NoValue, op.NoValue) // 2
			return int(y)
		}, tensor.Vector(1), []Visit{{2, ReasonUncertified, -1}, {1, ReasonDependency, -1}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			out := tc.rec(b)
			g, err := b.Graph()
			if err != nil {
				t.Fatal(err)
			}
			cc, err := CompileChecked(g, []*tensor.Tensor{tensor.Vector(0.5)})
			if err != nil {
				t.Fatal(err)
			}
			want, count, err := cc.BackwardFrom(out, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			want = cloneAll(want)
			cur, err := cc.NewCursor(out, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			if got := cur.Plan(); !slices.Equal(got, tc.want) || count != len(tc.want) {
				t.Fatalf("plan %v (BackwardFrom ran %d), want %v", got, count, tc.want)
			}
			for _, v := range tc.want {
				if got, ok := cur.Visit(v.Node); !ok || got != v {
					t.Errorf("Visit(%d) = %v, %v", v.Node, got, ok)
				}
			}
			for {
				if _, ok := cur.Forward(); !ok {
					break
				}
			}
			for {
				if _, ok := cur.Backward(); !ok {
					break
				}
			}
			if err := sameTensors("cursor vs BackwardFrom", cur.c.grads, want); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestCursorNoticesAnotherPass: a pass run on the cursor's Compiled takes
// its gradient buffers; the cursor stops with an error until Reset.
func TestCursorNoticesAnotherPass(t *testing.T) {
	b := NewBuilder()
	x := b.Param("x", tensor.Shape{1})
	y := op.Tanh(b, op.Tanh(b, x))
	g, _ := b.Graph()
	cc, err := CompileChecked(g, []*tensor.Tensor{tensor.Vector(0.5)})
	if err != nil {
		t.Fatal(err)
	}
	cur, err := cc.NewCursor(int(y), tensor.Vector(1))
	if err != nil {
		t.Fatal(err)
	}
	for range cc.Len() {
		cur.Forward()
	}
	if _, ok := cur.Backward(); !ok {
		t.Fatal("first backward step failed")
	}
	if _, _, err := cc.BackwardFrom(int(y), tensor.Vector(2)); err != nil {
		t.Fatal(err)
	}
	if _, ok := cur.Backward(); ok || cur.Err() == nil || cur.Grad(0) != nil {
		t.Fatalf("the cursor stepped on after another pass: err %v", cur.Err())
	}
	cur.Reset()
	if cur.Err() != nil {
		t.Fatalf("after Reset: %v", cur.Err())
	}
	if _, err := cc.NewCursor(99, tensor.Vector(1)); err == nil {
		t.Error("NewCursor accepted a value that does not exist")
	}
	if _, err := cc.NewCursor(int(y), tensor.Vector(1, 2)); err == nil {
		t.Error("NewCursor accepted a seed of the wrong shape")
	}
}
