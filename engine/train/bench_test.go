package train_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"tapelab/bench"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// workloadTrainer builds the workload's model through the spec path (a
// model document decoded by spec.Decode, built by Model.Build, with the
// workload's initial weights as params) and a Trainer over its data with
// plain SGD at the workload's learning rate. A CNN's convolutions come
// first, each a conv2d layer, its activation and, if it pools, a
// max_pool2d layer, then a flatten layer.
func workloadTrainer(tb testing.TB, w bench.Workload) *train.Trainer {
	var layers []string
	var shapes []tensor.Shape // each parameterised layer's weight shape
	var at []int              // and its index among the layers
	input := fmt.Sprint(w.Sizes[0])
	if len(w.Image) > 0 {
		input = fmt.Sprintf("%d,%d,%d", w.Image[0], w.Image[1], w.Image[2])
		c := w.Image[0]
		for _, cv := range w.Convs {
			at, shapes = append(at, len(layers)), append(shapes, tensor.Shape{cv.Out, c, cv.Kernel, cv.Kernel})
			layers = append(layers, fmt.Sprintf(`{"type":"conv2d","out_channels":%d,"kernel_size":%d,"padding":%d}`, cv.Out, cv.Kernel, cv.Padding),
				fmt.Sprintf(`{"type":%q}`, w.Act))
			if cv.Pool > 1 {
				layers = append(layers, fmt.Sprintf(`{"type":"max_pool2d","kernel_size":%d}`, cv.Pool))
			}
			c = cv.Out
		}
		layers = append(layers, `{"type":"flatten"}`)
	}
	for l := 1; l < len(w.Sizes); l++ {
		if l > 1 {
			layers = append(layers, fmt.Sprintf(`{"type":%q}`, w.Act))
		}
		at, shapes = append(at, len(layers)), append(shapes, tensor.Shape{w.Sizes[l], w.Sizes[l-1]})
		layers = append(layers, fmt.Sprintf(`{"type":"linear","out":%d}`, w.Sizes[l]))
	}
	doc := fmt.Sprintf(`{"version":1,"input":[%s],"layers":[%s],"loss":%q,"seed":1,"batch_size":%d,"optimizer":{"lr":%v}}`,
		input, strings.Join(layers, ","), w.Loss, w.Batch, w.LR)
	sm, err := spec.Decode([]byte(doc))
	if err != nil {
		tb.Fatal(err)
	}
	m, err := sm.Build()
	if err != nil {
		tb.Fatal(err)
	}
	for l, p := range w.Params() {
		w, _ := tensor.New(shapes[l], p.W)
		b, _ := tensor.New(tensor.Shape{p.Out}, p.B)
		if err := m.SetParam(fmt.Sprintf("%d.weight", at[l]), w); err != nil {
			tb.Fatal(err)
		}
		if err := m.SetParam(fmt.Sprintf("%d.bias", at[l]), b); err != nil {
			tb.Fatal(err)
		}
	}
	x, y := w.Data()
	d := &train.Dataset{X: &tensor.Tensor{Shape: tensor.Shape{w.N, w.InputSize()}, Data: x}, Y: &tensor.Tensor{Shape: tensor.Shape{w.N, 1}, Data: y}}
	t, err := train.NewTrainer(m, d, sm.Optimizer, sm.BatchSize, sm.Seed)
	if err != nil {
		tb.Fatal(err)
	}
	return t
}

// BenchmarkTrainStep runs one training step (batch, forward, loss,
// backward, NaN/Inf checks, SGD update) of the workloads of package
// bench, through the hand-built engine program of package bench ("engine")
// and through spec → nn → train ("spec"), side by side, and the spec path
// in float32 storage ("spec-float32").
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
		b.Run(w.Name+"/spec-float32", func(b *testing.B) {
			t := workloadTrainer(b, w)
			t.SetPrecision(tensor.Float32)
			step(b, t.Step)
		})
	}
}

// BenchmarkTrainStepRatio alternates blocks of steps of the two paths so
// that both see the same machine load, and reports each path's time per
// step and the ratio spec/engine (the target is at most 1.10).
func BenchmarkTrainStepRatio(b *testing.B) {
	for _, w := range bench.Workloads() {
		b.Run(w.Name, func(b *testing.B) {
			e, s := bench.NewTrainer(w), workloadTrainer(b, w)
			block := max(1, 640/(w.Sizes[0]*w.Sizes[1])) // about a millisecond
			var te, ts time.Duration
			for range 3 { // warm-up
				e.Step()
				s.Step()
			}
			for b.Loop() {
				t0 := time.Now()
				for range block {
					if _, err := e.Step(); err != nil {
						b.Fatal(err)
					}
				}
				t1 := time.Now()
				for range block {
					if _, err := s.Step(); err != nil {
						b.Fatal(err)
					}
				}
				te, ts = te+t1.Sub(t0), ts+time.Since(t1)
			}
			n := float64(b.N * block)
			b.ReportMetric(float64(te.Nanoseconds())/n, "engine-ns/step")
			b.ReportMetric(float64(ts.Nanoseconds())/n, "spec-ns/step")
			b.ReportMetric(float64(ts)/float64(te), "spec/engine")
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
		if n := stepAllocs(t, workloadTrainer(t, w)); n != 0 {
			t.Errorf("%s: %v allocations per step", w.Name, n)
		}
	}
	// Adam, momentum, dropout and batch norm: still nothing after warm-up,
	// in float64 and in float32.
	for _, prec := range []tensor.Precision{tensor.Float64, tensor.Float32} {
		for _, opt := range []string{"adam", "momentum"} {
			tr, _, _ := fromSpec(t, `{"version":1,"input":[2],"layers":[{"type":"linear","out":8},{"type":"batch_norm"},{"type":"gelu"},{"type":"dropout","p":0.2},{"type":"linear","out":3}],
			"loss":"cross_entropy","seed":3,"dataset":{"name":"spiral"},"optimizer":{"name":"`+opt+`"}}`)
			tr.SetPrecision(prec)
			if n := stepAllocs(t, tr); n != 0 {
				t.Errorf("%v, %s with batch norm and dropout: %v allocations per step", prec, opt, n)
			}
		}
	}
	for _, w := range bench.Workloads() {
		tr := workloadTrainer(t, w)
		tr.SetPrecision(tensor.Float32)
		if n := stepAllocs(t, tr); n != 0 {
			t.Errorf("%s in float32: %v allocations per step", w.Name, n)
		}
	}
}

// stepAllocs warms tr up with three steps and returns the average number of
// allocations of a further step.
func stepAllocs(t *testing.T, tr *train.Trainer) float64 {
	t.Helper()
	for range 3 {
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	}
	return testing.AllocsPerRun(20, func() {
		if _, err := tr.Step(); err != nil {
			t.Fatal(err)
		}
	})
}
