package randprog

import (
	"fmt"
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// gen is the state of one generation: every value made so far with its
// concrete tensor, so that recipes can match shapes and domains.
type gen struct {
	r   *rand.Rand
	cfg Config

	pool     []entry
	inputs   []Input
	steps    []step
	stepRefs [][]ref // per step, its operands
	// tame, when > 0, makes new leaves hold values inside common domains
	// (1: positive numbers, 2: numbers in [0, 1]); recipes fall back to it
	// when random operands miss an op's domain.
	tame int
}

// ref names a value before the final numbering: input i or step i.
type ref struct {
	input bool
	i     int
}

type entry struct {
	ref ref
	t   *tensor.Tensor
}

// tryApply makes up to eight attempts to feed o and records the first that
// its shape rule (and, unless a fault is wanted, its domain) accepts.
func (g *gen) tryApply(o *op.Op) bool {
	rec := recipes[o.Name]
	if rec == nil {
		rec = generic
	}
	for attempt := 0; attempt < 8; attempt++ {
		g.tame = 0
		if attempt >= 4 {
			g.tame = 1 + attempt%2
		}
		args, attrs, ok := rec(g, o)
		g.tame = 0
		if !ok || !o.AcceptsArity(len(args)) {
			continue
		}
		xs := make([]*tensor.Tensor, len(args))
		shapes := make([]tensor.Shape, len(args))
		for i, a := range args {
			xs[i] = g.pool[a].t
			shapes[i] = xs[i].Shape
		}
		shape, err := o.Shape(nil, shapes, attrs)
		if err != nil || shape.Size() > 256 {
			continue
		}
		fault := false
		if err := o.Check(xs, attrs); err != nil {
			if !g.cfg.Faults || g.r.IntN(2) == 0 {
				continue
			}
			fault = true
		}
		y := tensor.Zeros(shape)
		o.Forward(y, xs, attrs)
		refs := make([]ref, len(args))
		for i, a := range args {
			refs[i] = g.pool[a].ref
		}
		g.push(step{op: o, attrs: attrs, shape: shape, fault: fault}, refs, y)
		return true
	}
	return false
}

func (g *gen) push(s step, refs []ref, t *tensor.Tensor) int {
	g.steps = append(g.steps, s)
	g.stepRefs = append(g.stepRefs, refs)
	g.pool = append(g.pool, entry{ref: ref{i: len(g.steps) - 1}, t: t})
	return len(g.pool) - 1
}

// newLeaf adds an input of the given shape and returns its pool index.
func (g *gen) newLeaf(shape tensor.Shape, requiresGrad bool) int {
	t := g.tensor(shape)
	name := fmt.Sprintf("x%d", len(g.inputs))
	if requiresGrad {
		name = fmt.Sprintf("w%d", len(g.inputs))
	}
	g.inputs = append(g.inputs, Input{Name: name, Value: t, RequiresGrad: requiresGrad})
	g.pool = append(g.pool, entry{ref: ref{input: true, i: len(g.inputs) - 1}, t: t})
	return len(g.pool) - 1
}

// newConst adds a constant holding t and returns its pool index.
func (g *gen) newConst(t *tensor.Tensor) int {
	return g.push(step{konst: t, shape: t.Shape}, nil, t)
}

// fresh adds a new leaf or constant of the given shape.
func (g *gen) fresh(shape tensor.Shape) int {
	switch g.r.IntN(5) {
	case 0, 1:
		return g.newConst(g.tensor(shape))
	case 2:
		return g.newLeaf(shape, false)
	}
	return g.newLeaf(shape, true)
}

// pick returns any value, most often a recent one (making chains deep), or
// a fresh leaf when taming.
func (g *gen) pick() int {
	if g.tame > 0 {
		return g.fresh(g.pool[g.r.IntN(len(g.pool))].t.Shape)
	}
	if g.r.IntN(2) == 0 {
		return len(g.pool) - 1 - g.r.IntN(min(3, len(g.pool)))
	}
	return g.r.IntN(len(g.pool))
}

// pickWhere returns a value satisfying ok, or -1 when none does (or by
// chance, so that fresh leaves keep coming, or always when taming).
func (g *gen) pickWhere(ok func(tensor.Shape) bool) int {
	if g.tame > 0 || g.r.IntN(4) == 0 {
		return -1
	}
	var cands []int
	for i, e := range g.pool {
		if ok(e.t.Shape) {
			cands = append(cands, i)
		}
	}
	if len(cands) == 0 {
		return -1
	}
	if g.r.IntN(2) == 0 { // favour the most recent
		return cands[len(cands)-1]
	}
	return cands[g.r.IntN(len(cands))]
}

// pickShape returns a value of the given shape, existing or fresh.
func (g *gen) pickShape(s tensor.Shape) int {
	if i := g.pickWhere(s.Equal); i >= 0 {
		return i
	}
	return g.fresh(s)
}

// pickRank returns a value of rank r, existing or fresh.
func (g *gen) pickRank(r int) int {
	if i := g.pickWhere(func(s tensor.Shape) bool { return len(s) == r }); i >= 0 {
		return i
	}
	s := make(tensor.Shape, r)
	for k := range s {
		s[k] = g.dim()
	}
	return g.fresh(s)
}

// pickRanked returns a value of rank at least 1, existing or fresh.
func (g *gen) pickRanked() int {
	if i := g.pickWhere(func(s tensor.Shape) bool { return len(s) >= 1 }); i >= 0 {
		return i
	}
	return g.fresh(g.randShapeRank(1 + g.r.IntN(3)))
}

func (g *gen) dim() int { return 1 + g.r.IntN(4) }

// randShape returns a shape of rank 0 to 3 with dimensions 1 to 4.
func (g *gen) randShape() tensor.Shape {
	r := [...]int{0, 1, 1, 1, 2, 2, 2, 2, 3, 2}[g.r.IntN(10)]
	return g.randShapeRank(r)
}

func (g *gen) randShapeRank(r int) tensor.Shape {
	s := make(tensor.Shape, r)
	for k := range s {
		s[k] = g.dim()
	}
	return s
}
