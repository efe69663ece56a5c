package app

import (
	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Passes compares the two one-shot backward passes of a recorded step:
// the dense pass, which runs the VJP of every node that requires a gradient
// (TorchLean's backwardDenseFrom with a one-hot seed at the loss), and the
// single-output pass, which visits only the loss's dependencies.
type Passes struct {
	// DenseRuns marks the nodes whose VJP the dense pass runs.
	DenseRuns []bool
	// SingleRuns marks the nodes whose VJP the single-output pass runs
	// (the engine cursor's backward order).
	SingleRuns []bool
	Dense      int // VJPs the dense pass runs
	// Single is the number of VJPs the single-output pass ran, as the
	// engine reports it (compiled mode: Compiled.BackwardFrom's count;
	// eager mode: the steps of the engine's cursor).
	Single int
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

// ComparePasses runs both passes on r's tape from its loss (seeded with 1)
// and compares them. order is the single-output pass's visit order, as the
// engine's cursor walks it (Stepper.Order).
func ComparePasses(r *Recording, order []int) (Passes, error) {
	n := r.Tape.Len()
	p := Passes{DenseRuns: make([]bool, n), SingleRuns: make([]bool, n), Mismatch: -1}
	for i := range n {
		nd := r.Tape.Node(i)
		if nd.Op != nil && nd.RequiresGrad {
			p.DenseRuns[i] = true
			p.Dense++
		}
	}
	for _, i := range order {
		p.SingleRuns[i] = true
	}
	seeds := make([]*tensor.Tensor, n)
	for i := range seeds {
		seeds[i] = tensor.Zeros(r.Tape.Node(i).Value.Shape)
	}
	seeds[r.Loss].Fill(1)
	dense := make([]*tensor.Tensor, n)
	single := make([]*tensor.Tensor, n)
	if r.Compiled != nil {
		gs, err := r.Compiled.BackwardDenseFrom(seeds)
		if err != nil {
			return p, err
		}
		for i, g := range gs {
			if g != nil {
				dense[i] = g.Clone()
			}
		}
		gs, visited, err := r.Compiled.BackwardFrom(r.Loss, seeds[r.Loss])
		if err != nil {
			return p, err
		}
		copy(single, gs)
		p.Single = visited
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
		// the single-output pass on the eager tape is BackwardDense from the
		// loss, filled with zeros where it never reached (BackwardDenseAll)
		if err := r.Tape.BackwardDenseAll(r.Loss, seeds[r.Loss], &g); err != nil {
			return p, err
		}
		for i := range n {
			single[i] = g.Of(i)
		}
		p.Single = len(order)
	}
	p.Identical = true
	for i := range n {
		if (dense[i] == nil) != (single[i] == nil) || dense[i] != nil && !tensor.Identical(dense[i], single[i]) {
			p.Identical, p.Mismatch = false, i
			break
		}
	}
	return p, nil
}
