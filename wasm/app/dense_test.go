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

// TestDenseRunsTheMetricWithoutAStep: in dense mode the metric beside the
// loss runs its VJP on its zero cotangent within the loss's step (Passed),
// not as a step of its own, so both passes take the same steps; in
// single-output mode it is skipped. Both show the same parameter
// gradients, and stepping back takes the metric's +0 back with the step.
func TestDenseRunsTheMetricWithoutAStep(t *testing.T) {
	dense := newTestPlayground(t, Modes{})
	single := newTestPlayground(t, Modes{Single: true})
	rec := dense.Recording()
	metric := rec.Metric
	ds, ss := dense.Stepper(), single.Stepper()
	ds.ForwardToEnd()
	ss.ForwardToEnd()
	if !ds.State(metric).Has(Side) || ds.State(metric).Has(Skipped) || !ss.State(metric).Has(Side|Skipped) {
		t.Errorf("metric state: dense %b, single %b; want Side in both, Skipped in single only", ds.State(metric), ss.State(metric))
	}
	if !ds.Quiet(metric) || ss.Quiet(metric) {
		t.Errorf("Quiet(metric): dense %v, single-output %v; want true, false", ds.Quiet(metric), ss.Quiet(metric))
	}
	if g := ds.Grad(metric); g == nil || g.Data[0] != 0 {
		t.Errorf("dense: the metric shows %v before the backward pass, want its zero cotangent", g)
	}
	e, ok := ds.Step()
	if !ok || e.Node != rec.Loss || len(ds.Passed()) != 1 || ds.Passed()[0] != metric {
		t.Fatalf("dense: the first backward step ran node %d with %v, want the loss %d with the metric %d", e.Node, ds.Passed(), rec.Loss, metric)
	}
	if ds.Focus() != rec.Loss || ds.Position().Node == metric {
		t.Errorf("dense: after the first step the focus is %d and the next node %d", ds.Focus(), ds.Position().Node)
	}
	c := ds.Contribs(metric)
	if len(c) != 1 || c[0].Parent != rec.Pred || c[0].Value.Data[0] != 0 || !tensor.Identical(c[0].After, ds.Contribs(rec.Loss)[0].After) {
		t.Errorf("the metric's +0 into the prediction: %+v", c)
	}
	if !ds.State(metric).Has(Ran | Final) {
		t.Errorf("dense: the metric's state after the first step %b", ds.State(metric))
	}
	ds.ToEnd()
	ss.ToEnd()
	if ss.State(metric).Has(Ran) || ss.Contribs(metric) != nil {
		t.Error("single-output: the metric ran its VJP")
	}
	if d, s := ds.Counts(), ss.Counts(); d.Backward != s.Backward || d.BackwardTotal != s.BackwardTotal {
		t.Errorf("dense took %d of %d steps, single-output %d of %d; want the same", d.Backward, d.BackwardTotal, s.Backward, s.BackwardTotal)
	}
	for _, p := range []*Playground{dense, single} {
		ps, err := p.Passes()
		if err != nil {
			t.Fatal(err)
		}
		if ps.Dense != len(ds.Order()) || ps.Single != len(ss.Order()) {
			t.Errorf("passes (%+v): dense %d, single %d VJPs; the steppers run %d and %d", p.Modes(), ps.Dense, ps.Single,
				len(ds.Order()), len(ss.Order()))
		}
	}
	for _, i := range rec.ParamNodes {
		if !tensor.Identical(ds.Grad(i), ss.Grad(i)) {
			t.Errorf("parameter node %d: dense %v, single-output %v", i, ds.Grad(i), ss.Grad(i))
		}
	}
	// Back to the first step: the metric stays run with it; back over
	// it: the metric is taken back with it.
	for ds.Counts().Backward > 1 {
		ds.Back()
	}
	if ds.Contribs(metric) == nil || ds.Focus() != rec.Loss || ds.Position().Node == metric {
		t.Errorf("after stepping back to the first step: metric contribs %v, focus %d, next %d", ds.Contribs(metric), ds.Focus(), ds.Position().Node)
	}
	ds.Back()
	if ds.Contribs(metric) != nil || ds.Grad(rec.Pred) != nil || ds.Position().Steps != 0 {
		t.Errorf("after taking back every step the metric's contributions are %v and the prediction shows %v", ds.Contribs(metric), ds.Grad(rec.Pred))
	}
	ds.ToEnd()
	for _, i := range rec.ParamNodes {
		if !tensor.Identical(ds.Grad(i), ss.Grad(i)) {
			t.Errorf("after back and forth, parameter node %d: dense %v, single-output %v", i, ds.Grad(i), ss.Grad(i))
		}
	}
}
