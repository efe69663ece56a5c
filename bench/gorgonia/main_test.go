package main

import (
	"math"
	"testing"

	"tapelab/bench"
)

// TestSameStartAsTapeLab checks that gorgonia's program trains the same
// model on the same data: the first loss of each workload equals TapeLab's
// to float64 rounding, and the next steps follow it.
func TestSameStartAsTapeLab(t *testing.T) {
	for _, w := range bench.Workloads() {
		g, err := newTrainer(w)
		if err != nil {
			t.Fatal(err)
		}
		tl := bench.NewTrainer(w)
		for step := range 5 {
			want, err := tl.Step()
			if err != nil {
				t.Fatal(err)
			}
			got, err := g.Step()
			if err != nil {
				t.Fatal(err)
			}
			if math.Abs(got-want) > 1e-12*math.Abs(want) {
				t.Errorf("%s step %d: gorgonia's loss %v, TapeLab's %v", w.Name, step, got, want)
			}
		}
	}
}
