package app

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/ir"
)

// zeroTimesInf is an IR document whose exp overflows beside its result:
// the single-output pass from sum(p) visits the exp anyway (0·∞).
const zeroTimesInf = `{"format": "tapelab.ir.v1",
 "nodes": [
  {"id": 0, "parents": [], "kind": "param", "out_shape": [2]},
  {"id": 1, "parents": [0], "kind": "exp", "out_shape": [2]},
  {"id": 2, "parents": [0], "kind": "sum", "out_shape": []}],
 "payload": {"0": {"value": {"name": "p", "shape": [2], "data": [1000, 1]}}}}`

func TestModelPipelineInCompiledMode(t *testing.T) {
	if p := newTestPlayground(t, Modes{}).Pipeline(); p != nil {
		t.Fatalf("eager mode has a pipeline: %v", p.Stages)
	}
	p := newTestPlayground(t, Modes{Compiled: true}).Pipeline()
	if p == nil || p.Err() != nil {
		t.Fatalf("the model's IR path: %v", p)
	}
	var names []string
	for _, s := range p.Stages {
		names = append(names, s.String())
	}
	if got := strings.Join(names, ", "); got != "export ✓, check ✓, check shapes ✓, lower ✓, feed ✓, compile ✓" {
		t.Errorf("stages: %s", got)
	}
}

func TestOpenIRStepsItsSingleOutputPass(t *testing.T) {
	p := newTestPlayground(t, Modes{Compiled: true, Single: true})
	if err := p.OpenIR([]byte(zeroTimesInf)); err != nil {
		t.Fatal(err)
	}
	if p.Pipeline().Stages[0].Name != ir.StageDecode || p.Recording().IR == nil {
		t.Fatalf("the opened document's pipeline is not shown: %v", p.Pipeline().Stages)
	}
	s := p.Stepper()
	if c := s.Counts(); c.ForwardTotal != 3 || c.BackwardTotal != 2 {
		t.Fatalf("counts %+v, want 3 nodes and 2 visits (the sum and the exp beyond it)", c)
	}
	s.ToEnd()
	if !s.State(1).Has(Extra|Ran) || !strings.Contains(s.VisitReason(1), "0·∞") {
		t.Errorf("exp: state %b, reason %q", s.State(1), s.VisitReason(1))
	}
	for s.Focus() != 1 {
		s.Back()
	}
	if w := Walkthrough(s); len(w) < 2 || !strings.Contains(w[1], "single-output pass runs its VJP (0·∞: not zero-safe)") {
		t.Errorf("the walkthrough of the exp's step: %q", w)
	}
	s.ToEnd()
	if g := s.Grad(0); g == nil || !math.IsNaN(g.Data[0]) {
		t.Errorf("p's gradient %v, want NaN first (0·∞)", g)
	}
	ps, err := p.Passes()
	if err != nil || ps.Single != 2 || len(ps.Beyond) != 1 || ps.Beyond[0].Node != 1 || !ps.Identical {
		t.Errorf("passes %+v, %v", ps, err)
	}
	if lines, err := p.IRListing(); err != nil || len(lines) != 3 || lines[1].Text != "n1 = exp n0 : [2]" || lines[1].Node != 1 {
		t.Errorf("listing %+v, %v", lines, err)
	}
	if err := p.SetModes(p.Modes()); err != nil || p.Recording().IR != nil || p.Pipeline().Stages[0].Name != ir.StageExport {
		t.Errorf("a mode switch keeps the opened document: %v", err)
	}
}

func TestOpenIRShowsTheRefusingStage(t *testing.T) {
	for _, c := range []struct{ name, doc, stage string }{
		{"not JSON", `{"format": `, ir.StageDecode},
		{"parent after child", strings.Replace(zeroTimesInf, `"parents": [0], "kind": "exp"`, `"parents": [2], "kind": "exp"`, 1), ir.StageCheck},
		{"wrong shape", strings.Replace(zeroTimesInf, `"kind": "sum", "out_shape": []`, `"kind": "sum", "out_shape": [2]`, 1), ir.StageShapes},
		{"input not the batch's shape", `{"format": "tapelab.ir.v1", "nodes": [{"id": 0, "parents": [], "kind": "input", "out_shape": [7]},
		 {"id": 1, "parents": [0], "kind": "sum", "out_shape": []}]}`, ir.StageFeed},
	} {
		p := newTestPlayground(t, Modes{Compiled: true, Single: true})
		before := p.Stepper()
		err := p.OpenIR([]byte(c.doc))
		if err == nil || !strings.HasPrefix(err.Error(), c.stage+": ") {
			t.Errorf("%s: error %v, want the %s stage's", c.name, err, c.stage)
			continue
		}
		var failed string
		for _, s := range p.Pipeline().Stages {
			if s.Err != nil {
				failed = s.Name
			}
		}
		if failed != c.stage || p.Stepper() != before || p.Recording().IR != nil {
			t.Errorf("%s: stage %q failed, the step was replaced %v", c.name, failed, p.Stepper() != before)
		}
	}
}
