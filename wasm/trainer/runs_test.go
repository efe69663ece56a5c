package trainer

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/train"
)

// TestRunsAreSingleRuns trains SGD, momentum and Adam side by side, in
// the chunks a page's loop takes, and checks each run's weights and
// losses against a session of the same settings trained alone: the same
// bits. The runs start from the same weights and differ after a step.
func TestRunsAreSingleRuns(t *testing.T) {
	m := defaultModel("xor")
	adam := train.DefaultOptimizer("adam")
	adam.LR, adam.WeightDecay = 0.01, 0.001
	opts := []train.OptimizerConfig{train.DefaultOptimizer("sgd"), train.DefaultOptimizer("momentum"), adam}
	runs, err := NewRuns(m, opts, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	first := runs[0].Params()
	for _, r := range runs[1:] {
		for name, p := range r.Params() {
			for k, v := range p.Data {
				if math.Float64bits(v) != math.Float64bits(first[name].Data[k]) {
					t.Fatalf("%s starts at %s[%d] = %v, run 1 at %v", RunName(r.Spec().Optimizer), name, k, v, first[name].Data[k])
				}
			}
		}
	}
	for _, n := range []int{1, 3, 8, 20, 1} {
		for _, r := range runs {
			if _, err := r.Run(n); err != nil {
				t.Fatal(err)
			}
		}
	}
	for i, o := range opts {
		mi := *m
		mi.Optimizer = o
		alone, err := New(&mi, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := alone.Run(33); err != nil {
			t.Fatal(err)
		}
		got, want := runs[i].Params(), alone.Params()
		for name, p := range want {
			for k, v := range p.Data {
				if math.Float64bits(got[name].Data[k]) != math.Float64bits(v) {
					t.Errorf("run %d (%s): %s[%d] = %v side by side, %v alone", i+1, RunName(o), name, k, got[name].Data[k], v)
				}
			}
		}
		if g, w := runs[i].Last(), alone.Last(); g != w {
			t.Errorf("run %d: last record %+v side by side, %+v alone", i+1, g, w)
		}
	}
	if runs[0].Last().Train.Loss == runs[2].Last().Train.Loss {
		t.Errorf("SGD and Adam reached the same loss %v: the runs did not use their own optimizers", runs[0].Last().Train.Loss)
	}
}

func TestRunNames(t *testing.T) {
	sgdm := train.DefaultOptimizer("sgd")
	sgdm.Momentum = 0.5
	for _, c := range []struct {
		o    train.OptimizerConfig
		want string
	}{
		{train.DefaultOptimizer("sgd"), "SGD, lr 0.03"},
		{train.DefaultOptimizer("momentum"), "momentum 0.9, lr 0.03"},
		{train.DefaultOptimizer("adam"), "Adam, lr 0.001"},
		{sgdm, "SGD, momentum 0.5, lr 0.03"},
	} {
		if got := RunName(c.o); got != c.want {
			t.Errorf("RunName(%+v) = %q, want %q", c.o, got, c.want)
		}
	}
	bad := train.DefaultOptimizer("adam")
	bad.LR = -1
	if _, err := NewRuns(defaultModel("xor"), []train.OptimizerConfig{train.DefaultOptimizer("sgd"), bad}, nil, nil); err == nil || !strings.Contains(err.Error(), "run 2 (Adam, lr -1)") {
		t.Errorf("a bad second run: %v", err)
	}
}
