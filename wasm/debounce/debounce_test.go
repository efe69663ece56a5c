package debounce

import (
	"testing"
	"time"
)

// The cases wait for what must happen and bound what must not, so that a
// slow machine makes them slower, not wrong.

func TestDebouncerRunsOncePerBurst(t *testing.T) {
	tests := []struct {
		name   string
		bursts []int // changes per burst, each burst run before the next starts
	}{
		{"no change, no run", nil},
		{"one change", []int{1}},
		{"a burst runs once", []int{50}},
		{"two bursts run twice", []int{10, 3}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs := make(chan struct{}, 100)
			d := New(20*time.Millisecond, time.Hour, func() { runs <- struct{}{} })
			for i, n := range tt.bursts {
				for range n { // no yield in between: one burst
					d.Changed()
				}
				select {
				case <-runs:
				case <-time.After(10 * time.Second):
					t.Fatalf("burst %d never ran", i+1)
				}
			}
			time.Sleep(200 * time.Millisecond) // ten quiet periods
			if extra := len(runs); extra > 0 {
				t.Errorf("%d runs more than the %d bursts", extra, len(tt.bursts))
			}
		})
	}
}

func TestDebouncerMaxWait(t *testing.T) {
	tests := []struct {
		name    string
		maxWait time.Duration
		pause   time.Duration // after the first change, before the others
		runs    bool          // whether it runs while the changes go on
	}{
		{"changes never quiet, no max wait: no run", time.Hour, 0, false},
		{"changes never quiet, max wait: runs during them", 50 * time.Millisecond, 0, true},
		// The second change comes after maxWait: a loaded machine, or a
		// goroutine scheduled late, makes any burst look like this.
		{"second change after max wait: runs", 50 * time.Millisecond, 120 * time.Millisecond, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			runs := make(chan struct{}, 100)
			d := New(time.Hour, tt.maxWait, func() { runs <- struct{}{} })
			deadline := time.Now().Add(10 * time.Second)
			if !tt.runs {
				deadline = time.Now().Add(300 * time.Millisecond)
			}
			d.Changed()
			time.Sleep(tt.pause)
			for len(runs) == 0 && time.Now().Before(deadline) {
				d.Changed()
				time.Sleep(5 * time.Millisecond)
			}
			if ran := len(runs) > 0; ran != tt.runs {
				t.Errorf("ran during the changes: %v, want %v", ran, tt.runs)
			}
		})
	}
}
