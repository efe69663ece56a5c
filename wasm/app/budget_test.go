package app

import (
	"errors"
	"strings"
	"testing"

	"tapelab/engine/budget"
	"tapelab/engine/nn"
	"tapelab/engine/program"
)

// TestProgramOverBudgetIsNotRecorded: a program over the work budget is
// refused before anything is recorded, with a *program.Error at the op at
// fault that the editor marks, and the last program that ran stays.
func TestProgramOverBudgetIsNotRecorded(t *testing.T) {
	p, err := NewProgramPlayground("x = param(2.0)\ny = x * x\n")
	if err != nil {
		t.Fatal(err)
	}
	before := p.Recording()
	err = p.Edit("x = broadcast_to(1.0, shape=[1, 1, 1024, 1024])\nw = broadcast_to(0.5, shape=[1, 1, 512, 512])\nb = param([0.0])\ny = conv2d(x, w, b)\n")
	var pe *program.Error
	if !errors.As(err, &pe) || pe.Line != 4 || !strings.Contains(pe.Msg, "conv2d at line 4: 2.1e11 multiply-adds, the limit is 1e9") {
		t.Fatalf("Edit = %v, want a program error at line 4 naming conv2d's multiply-adds", err)
	}
	if p.Recording() != before {
		t.Error("the refused program replaced the recording")
	}
}

// TestModelOverBudgetIsNotBuilt: 200 linear layers of 4096 (3.4e9
// parameters, 27 GB) are refused before any parameter is made; the error
// is shown on the first 4096 → 4096 layer and the model stays editable.
func TestModelOverBudgetIsNotBuilt(t *testing.T) {
	p := newTestPlayground(t, Modes{})
	layers := []nn.Layer{nn.NewLinear(4096)}
	for range 199 {
		layers = append(layers, nn.NewLinear(4096))
	}
	layers = append(layers, nn.NewLinear(1))
	doc := p.Doc().with(layers)
	err := p.Edit(doc)
	var be *budget.Error
	if !errors.As(err, &be) || be.Part != "layer 1 (linear)" || be.Quantity != "elements held" {
		t.Fatalf("Edit = %v, want layer 1's elements over the budget", err)
	}
	if st := p.Status(); len(st) != len(layers) || !strings.HasPrefix(st[1].Err, "layer 1 (linear): ") || st[0].Err != "" {
		t.Errorf("layer statuses: %q, %q", st[0].Err, st[1].Err)
	}
	if ok, err := p.Undo(); !ok || err != nil {
		t.Fatalf("Undo = %v, %v", ok, err)
	}
	if p.Stepper() == nil || p.Err() != nil {
		t.Errorf("after Undo: stepper %v, err %v", p.Stepper(), p.Err())
	}
}
