package app

import (
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// denseOneShot is the engine's dense all-seeds pass of the recorded step:
// BackwardDenseFrom with 1 at the loss and +0 elsewhere, on a fresh eager
// recording.
func denseOneShot(t *testing.T, p *Playground) *autograd.Grads {
	t.Helper()
	r := eagerRecording(t, p)
	seeds := make([]*tensor.Tensor, r.Tape.Len())
	for i := range seeds {
		seeds[i] = tensor.Zeros(r.Tape.Node(i).Value.Shape)
	}
	seeds[r.Loss].Fill(1)
	var g autograd.Grads
	if err := r.Tape.BackwardDenseFrom(seeds, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

// TestDenseStepsTheMetric: in dense mode the metric beside the loss gets a
// backward step of its own, on a zero cotangent; in single-output mode it
// is skipped. Both show the same parameter gradients.
func TestDenseStepsTheMetric(t *testing.T) {
	dense := newTestPlayground(t, Modes{})
	single := newTestPlayground(t, Modes{Single: true})
	metric := dense.Recording().Metric
	ds, ss := dense.Stepper(), single.Stepper()
	ds.ForwardToEnd()
	ss.ForwardToEnd()
	if !ds.State(metric).Has(Side) || ds.State(metric).Has(Skipped) || !ss.State(metric).Has(Side|Skipped) {
		t.Errorf("metric state: dense %b, single %b; want Side in both, Skipped in single only", ds.State(metric), ss.State(metric))
	}
	if g := ds.Grad(metric); g == nil || g.Data[0] != 0 {
		t.Errorf("dense: the metric shows %v before its step, want its zero cotangent", g)
	}
	if ss.Grad(metric) != nil {
		t.Errorf("single-output: the metric shows a gradient %v", ss.Grad(metric))
	}
	ran := false
	for {
		e, ok := ds.Step()
		if !ok {
			break
		}
		if e.Node == metric {
			ran = true
			if e.Grad.Data[0] != 0 || len(e.Contribs) != 1 || e.Contribs[0].Parent != dense.Recording().Pred {
				t.Errorf("the metric's step: dY %v, contributions %+v", e.Grad, e.Contribs)
			}
			c := ds.Contribs(metric)[0]
			if c.Before == nil || !tensor.Identical(c.After, c.Before) {
				t.Errorf("the metric's +0 into the prediction: before %v after %v", c.Before, c.After)
			}
		}
	}
	if !ran || !ds.State(metric).Has(Ran|Final) {
		t.Errorf("dense: the metric ran %v, state %b", ran, ds.State(metric))
	}
	ss.ToEnd()
	if ss.State(metric).Has(Ran) || ss.Contribs(metric) != nil {
		t.Error("single-output: the metric ran its VJP")
	}
	if d, s := ds.Counts().Backward, ss.Counts().Backward; d != s+1 {
		t.Errorf("dense ran %d VJPs, single-output %d; want one more (the metric)", d, s)
	}
	for _, p := range []*Playground{dense, single} {
		ps, err := p.Passes()
		if err != nil {
			t.Fatal(err)
		}
		if ps.Dense != ds.Counts().BackwardTotal || ps.Single != ss.Counts().BackwardTotal {
			t.Errorf("passes (%+v): dense %d, single %d VJPs; the steppers run %d and %d", p.Modes(), ps.Dense, ps.Single,
				ds.Counts().BackwardTotal, ss.Counts().BackwardTotal)
		}
	}
	for _, i := range dense.Recording().ParamNodes {
		if !tensor.Identical(ds.Grad(i), ss.Grad(i)) {
			t.Errorf("parameter node %d: dense %v, single-output %v", i, ds.Grad(i), ss.Grad(i))
		}
	}
	// Back over the metric's step and forward again: the same state.
	for ds.Counts().Backward > 1 {
		ds.Back()
	}
	if ds.Contribs(metric) != nil || ds.Grad(dense.Recording().Pred) == nil || ds.Focus() != ds.Order()[0] {
		t.Errorf("after stepping back to the first VJP: metric contribs %v, focus %d", ds.Contribs(metric), ds.Focus())
	}
	ds.Back()
	if ds.Grad(dense.Recording().Pred) != nil {
		t.Errorf("after taking back every VJP the prediction still shows %v", ds.Grad(dense.Recording().Pred))
	}
	ds.ToEnd()
	for _, i := range dense.Recording().ParamNodes {
		if !tensor.Identical(ds.Grad(i), ss.Grad(i)) {
			t.Errorf("after back and forth, parameter node %d: dense %v, single-output %v", i, ds.Grad(i), ss.Grad(i))
		}
	}
}
