package train_test

import (
	"fmt"
	"strings"
	"testing"

	"tapelab/bench"
	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// workloadTrainer builds the workload's model through the spec path (a
// model document decoded by spec.Decode, built by Model.Build, with the
// workload's initial weights as params) and a Trainer over its data with
// plain SGD at the workload's learning rate.
func workloadTrainer(tb testing.TB, w bench.Workload) *train.Trainer {
	var layers []string
	for l := 1; l < len(w.Sizes); l++ {
		if l > 1 {
			layers = append(layers, fmt.Sprintf(`{"type":%q}`, w.Act))
		}
		layers = append(layers, fmt.Sprintf(`{"type":"linear","out":%d}`, w.Sizes[l]))
	}
	doc := fmt.Sprintf(`{"version":1,"input":[%d],"layers":[%s],"loss":%q,"seed":1,"batch_size":%d,"optimizer":{"lr":%v}}`,
		w.Sizes[0], strings.Join(layers, ","), w.Loss, w.Batch, w.LR)
	sm, err := spec.Decode([]byte(doc))
	if err != nil {
		tb.Fatal(err)
	}
	m, err := sm.Build()
	if err != nil {
		tb.Fatal(err)
	}
	for l, p := range w.Params() {
		w, _ := tensor.New(tensor.Shape{p.Out, p.In}, p.W)
		b, _ := tensor.New(tensor.Shape{p.Out}, p.B)
		if err := m.SetParam(fmt.Sprintf("%d.weight", 2*l), w); err != nil {
			tb.Fatal(err)
		}
		if err := m.SetParam(fmt.Sprintf("%d.bias", 2*l), b); err != nil {
			tb.Fatal(err)
		}
	}
	x, y := w.Data()
	d := &train.Dataset{X: &tensor.Tensor{Shape: tensor.Shape{w.N, w.Sizes[0]}, Data: x}, Y: &tensor.Tensor{Shape: tensor.Shape{w.N, 1}, Data: y}}
	t, err := train.NewTrainer(m, d, sm.Optimizer, sm.BatchSize, sm.Seed)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// BenchmarkTrainStep runs one training step (batch, forward, loss,
// backward, NaN/Inf checks, SGD update) of the two workloads of the engine
// issue, through the hand-built engine program of package bench ("engine")
// and through spec → nn → train ("spec"), side by side.
func BenchmarkTrainStep(b *testing.B) {
	for _, w := range bench.Workloads() {
		b.Run(w.Name+"/engine", func(b *testing.B) {
			t := bench.NewTrainer(w)
			step(b, t.Step)
		})
		b.Run(w.Name+"/spec", func(b *testing.B) {
			t := workloadTrainer(b, w)
			step(b, t.Step)
		})
	}
}

func step(b *testing.B, f func() (float64, error)) {
	for range 20 { // warm up the session's buffers
		if _, err := f(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := f(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "steps/s")
}

// TestStepAllocatesNothing: after warm-up a training step allocates nothing.
func TestStepAllocatesNothing(t *testing.T) {
	for _, w := range bench.Workloads() {
		tr := workloadTrainer(t, w)
		for range 3 {
			if _, err := tr.Step(); err != nil {
				t.Fatal(err)
			}
		}
		if n := testing.AllocsPerRun(20, func() {
			if _, err := tr.Step(); err != nil {
				t.Fatal(err)
			}
		}); n != 0 {
			t.Errorf("%s: %v allocations per step", w.Name, n)
		}
	}
	_ = nn.Train
}
