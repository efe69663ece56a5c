package bench

import "testing"

func benchmarkStep(b *testing.B, w Workload) {
	t := NewTrainer(w)
	for i := 0; i < 20; i++ { // warm up the session's buffers
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := t.Step(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

func BenchmarkTinyStep(b *testing.B) { benchmarkStep(b, Workloads()[0]) }
func BenchmarkBigStep(b *testing.B)  { benchmarkStep(b, Workloads()[1]) }
func BenchmarkCNNStep(b *testing.B)  { benchmarkStep(b, Workloads()[2]) }

func TestTrainerLearns(t *testing.T) {
	for _, w := range Workloads() {
		w.Warmup, w.WarmupMS, w.Runs, w.Steps = 2, 0, 1, 20
		r, err := Measure("test", w)
		if err != nil {
			t.Fatalf("%s: %v", w.Name, err)
		}
		if !(r.LossLast < r.LossFirst) || r.StepsPerS <= 0 {
			t.Errorf("%s: %+v", w.Name, r)
		}
	}
}

// TestStepsAllocateNothing holds every workload's training step, the
// cnn's convolutions and pooling included, to no allocation once the
// session's buffers have grown.
func TestStepsAllocateNothing(t *testing.T) {
	for _, w := range Workloads() {
		tr := NewTrainer(w)
		for range 3 {
			if _, err := tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
		var err error
		if n := testing.AllocsPerRun(10, func() {
			if _, e := tr.Step(); e != nil {
				err = e
			}
		}); n != 0 || err != nil {
			t.Errorf("%s: %v allocations per step (err %v), want 0", w.Name, n, err)
		}
	}
}
