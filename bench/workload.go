// Package bench defines the speed workloads TapeLab is compared on against
// TensorFlow.js and PyTorch (./build.sh bench), and runs them on the engine.
//
// The data, initial weights and schedule are generated from mulberry32
// streams (seed 1 for data, 42 for weights) exactly as bench/js/workloads.mjs
// and bench/torch_bench.py generate them, so every contender starts from the
// same numbers.
package bench

import "math"

// Workload is one benchmark task: an MLP trained with plain SGD.
type Workload struct {
	Name   string
	Sizes  []int  // layer widths, input first
	Act    string // hidden activation: "tanh" or "relu"
	Loss   string // "mse" or "cross_entropy"
	N      int    // examples
	Batch  int
	LR     float64
	Warmup int // steps before timing, at least
	// WarmupMS is how long the warm-up runs at least (ms): long enough for
	// a JIT (V8's tier-up of the wasm, TF.js's JavaScript) to have
	// compiled the step's hot code, which takes some hundred ms on this
	// machine, before the first timed run.
	WarmupMS int
	Runs     int // timed runs; the median is reported
	Steps    int // steps per timed run
}

// Workloads returns the two workloads, tiny and big, in report order.
func Workloads() []Workload {
	return []Workload{
		{Name: "tiny", Sizes: []int{2, 16, 16, 1}, Act: "tanh", Loss: "mse", N: 256, Batch: 32, LR: 0.1, Warmup: 500, WarmupMS: 1000, Runs: 5, Steps: 500},
		{Name: "big", Sizes: []int{784, 128, 10}, Act: "relu", Loss: "cross_entropy", N: 640, Batch: 64, LR: 0.1, Warmup: 5, WarmupMS: 1000, Runs: 5, Steps: 30},
	}
}

// mulberry32 returns the generator the JavaScript and Python contenders use.
func mulberry32(seed uint32) func() float64 {
	a := seed
	return func() float64 {
		a += 0x6d2b79f5
		t := (a ^ a>>15) * (1 | a)
		t = (t + (t^t>>7)*(61|t)) ^ t
		return float64(t^t>>14) / 4294967296
	}
}

// Data returns the inputs (N×in, row-major) and targets (N values for mse,
// N class indices for cross_entropy).
func (w Workload) Data() (x, y []float64) {
	rnd := mulberry32(1)
	d := w.Sizes[0]
	x = make([]float64, w.N*d)
	for i := range x {
		x[i] = 2*rnd() - 1
	}
	y = make([]float64, w.N)
	for i := range y {
		if w.Loss == "mse" {
			y[i] = math.Sin(3*x[i*d]) * x[i*d+1]
		} else {
			y[i] = math.Min(9, math.Floor(rnd()*10))
		}
	}
	return x, y
}

// Layer holds one linear layer's weights in PyTorch layout.
type Layer struct {
	W       []float64 // Out×In, row-major
	B       []float64 // Out
	In, Out int
}

// Params returns the initial weights, uniform in ±1/sqrt(in) per layer.
func (w Workload) Params() []Layer {
	rnd := mulberry32(42)
	var out []Layer
	for l := 1; l < len(w.Sizes); l++ {
		in, o := w.Sizes[l-1], w.Sizes[l]
		k := 1 / math.Sqrt(float64(in))
		L := Layer{W: make([]float64, o*in), B: make([]float64, o), In: in, Out: o}
		for i := range L.W {
			L.W[i] = (2*rnd() - 1) * k
		}
		for i := range L.B {
			L.B[i] = (2*rnd() - 1) * k
		}
		out = append(out, L)
	}
	return out
}
