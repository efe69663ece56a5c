package app

import (
	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/tensor"
)

// Passes compares the two one-shot backward passes of a recorded step:
// the dense pass, which runs the VJP of every node that requires a gradient
// (TorchLean's backwardDenseFrom with a one-hot seed at the loss), and the
// single-output pass, Compiled.BackwardFrom from the loss, which visits the
// loss's dependencies and, where the dense pass needs it to stay
// bit-identical, a few nodes beyond them (graph.Compiled.Plan says which
// and why).
type Passes struct {
	// DenseRuns marks the nodes whose VJP the dense pass runs.
	DenseRuns []bool
	// SingleRuns marks the nodes whose VJP the single-output pass runs
	// (Compiled.Plan's visits).
	SingleRuns []bool
	Dense      int // VJPs the dense pass runs
	// Single is the number of VJPs the single-output pass ran, as
	// Compiled.BackwardFrom reports it.
	Single int
	// Beyond lists the single-output pass's visits beyond the loss's
	// dependencies, with their reasons, in the order the pass runs them.
	Beyond []graph.Visit
	// Identical reports that both passes gave bit-identical gradients for
	// every node (tensor.Identical, -0.0 and NaN included).
	Identical bool
	// Mismatch is the first node where they differ, or -1.
	Mismatch int
}

// Skipped lists the nodes the dense pass visits and the single-output pass
// does not.
func (p Passes) Skipped() []int {
	var out []int
	for i, d := range p.DenseRuns {
		if d && !p.SingleRuns[i] {
			out = append(out, i)
		}
	}
	return out
}

// ComparePasses runs both passes on r's step from its loss (seeded with 1)
// and compares them. The single-output pass runs on r.Compiled in compiled
// mode and on the snapshot of the tape (Recording.Compile) in eager mode.
func ComparePasses(r *Recording) (Passes, error) {
	n := r.Tape.Len()
	p := Passes{DenseRuns: make([]bool, n), SingleRuns: make([]bool, n), Mismatch: -1}
	for i := range n {
		nd := r.Tape.Node(i)
		if nd.Op != nil && nd.RequiresGrad {
			p.DenseRuns[i] = true
			p.Dense++
		}
	}
	seeds := make([]*tensor.Tensor, n)
	for i := range seeds {
		seeds[i] = tensor.Zeros(r.Tape.Node(i).Value.Shape)
	}
	seeds[r.Loss].Fill(1)
	dense := make([]*tensor.Tensor, n)
	c := r.Compiled
	if c != nil {
		gs, err := c.BackwardDenseFrom(seeds)
		if err != nil {
			return p, err
		}
		for i, g := range gs {
			if g != nil {
				dense[i] = g.Clone()
			}
		}
	} else {
		var g autograd.Grads
		if err := r.Tape.BackwardDenseFrom(seeds, &g); err != nil {
			return p, err
		}
		for i := range n {
			if gi := g.Of(i); gi != nil {
				dense[i] = gi.Clone()
			}
		}
		var err error
		if c, err = r.Compile(); err != nil {
			return p, err
		}
	}
	plan, err := c.Plan(r.Loss, seeds[r.Loss])
	if err != nil {
		return p, err
	}
	for _, v := range plan {
		p.SingleRuns[v.Node] = true
		if v.Reason != graph.ReasonDependency {
			p.Beyond = append(p.Beyond, v)
		}
	}
	single, visited, err := c.BackwardFrom(r.Loss, seeds[r.Loss])
	if err != nil {
		return p, err
	}
	p.Single = visited
	p.Identical = true
	for i := range n {
		if (dense[i] == nil) != (single[i] == nil) || dense[i] != nil && !tensor.Identical(dense[i], single[i]) {
			p.Identical, p.Mismatch = false, i
			break
		}
	}
	return p, nil
}
