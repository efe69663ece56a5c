package program

import (
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// run is one program run eagerly and compiled: every node's value and the
// gradients of the reverse pass from the output, on each side.
type run struct {
	eager, compiled           []*tensor.Tensor // node values
	eagerGrads, compiledGrads []*tensor.Tensor // per node (nil: not reached)
}

// runBoth runs p on an autograd.Session and through graph.CompileChecked
// and differentiates both from the output with the program's seed.
func runBoth(p *Program) (*run, error) { return runBothAt(p, tensor.Float64) }

// runBothAt is runBoth in precision prec.
func runBothAt(p *Program, prec tensor.Precision) (*run, error) {
	s, err := p.EagerAt(prec)
	if err != nil {
		return nil, err
	}
	c, err := p.CompileAt(prec)
	if err != nil {
		return nil, fmt.Errorf("eager ran but compiled failed: %w", err)
	}
	r := &run{compiled: c.Values()}
	t := s.Tape()
	for i := 0; i < t.Len(); i++ {
		r.eager = append(r.eager, t.Node(i).Value)
	}
	var g, h autograd.Grads
	if err := t.BackwardDense(p.Output(), p.Seed(), &g); err != nil {
		return nil, err
	}
	if err := c.Tape().BackwardDense(p.Output(), p.Seed(), &h); err != nil {
		return nil, err
	}
	for i := 0; i < t.Len(); i++ {
		r.eagerGrads = append(r.eagerGrads, g.Of(i))
		r.compiledGrads = append(r.compiledGrads, h.Of(i))
	}
	return r, nil
}

// identical reports the first difference between two lists of tensors
// (nil entries must match), or "".
func identical(what string, a, b []*tensor.Tensor) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%s: %d vs %d nodes", what, len(a), len(b))
	}
	for i := range a {
		if (a[i] == nil) != (b[i] == nil) || a[i] != nil && !tensor.Identical(a[i], b[i]) {
			return fmt.Sprintf("%s: node %d: %v vs %v", what, i, a[i], b[i])
		}
	}
	return ""
}

// mismatch compares eager and compiled runs bit for bit.
func (r *run) mismatch() string {
	if m := identical("values eager vs compiled", r.eager, r.compiled); m != "" {
		return m
	}
	if m := identical("gradients eager vs compiled tape", r.eagerGrads, r.compiledGrads); m != "" {
		return m
	}
	return ""
}

// same compares two runs of (what should be) one program bit for bit.
func (r *run) same(o *run) string {
	if m := identical("values", r.eager, o.eager); m != "" {
		return m
	}
	return identical("gradients", r.eagerGrads, o.eagerGrads)
}
