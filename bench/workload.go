// Package bench defines the speed workloads TapeLab is compared on against
// TensorFlow.js and PyTorch (./build.sh bench), and runs them on the engine.
//
// The data, initial weights and schedule are generated from mulberry32
// streams (seed 1 for data, 42 for weights) exactly as bench/js/workloads.mjs
// and bench/torch_bench.py generate them, so every contender starts from the
// same numbers.
package bench

import "math"

// Workload is one benchmark task: an MLP, or a small CNN (when Image is
// set), trained with plain SGD.
type Workload struct {
	Name  string
	Sizes []int // the dense layers' widths, input (flattened) first
	// Image is a CNN's input, channels, height and width; nil for an MLP,
	// whose input is Sizes[0] wide. A CNN runs Convs in order and then
	// flattens (channel, row, column) into the dense layers of Sizes.
	Image  []int
	Convs  []Conv
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

// Conv is one convolution of a CNN workload: conv2d (stride 1), the
// workload's activation, then max_pool2d with kernel and stride Pool
// when Pool > 1.
type Conv struct {
	Out, Kernel, Padding, Pool int
}

// Workloads returns the three workloads, tiny, big and cnn, in report order.
func Workloads() []Workload {
	return []Workload{
		{Name: "tiny", Sizes: []int{2, 16, 16, 1}, Act: "tanh", Loss: "mse", N: 256, Batch: 32, LR: 0.1, Warmup: 500, WarmupMS: 1000, Runs: 5, Steps: 500},
		{Name: "big", Sizes: []int{784, 128, 10}, Act: "relu", Loss: "cross_entropy", N: 640, Batch: 64, LR: 0.1, Warmup: 5, WarmupMS: 1000, Runs: 5, Steps: 30},
		{Name: "cnn", Sizes: []int{64, 10}, Image: []int{1, 8, 8}, Convs: []Conv{{Out: 8, Kernel: 3, Padding: 1, Pool: 2}, {Out: 16, Kernel: 3}},
			Act: "relu", Loss: "cross_entropy", N: 640, Batch: 32, LR: 0.05, Warmup: 20, WarmupMS: 1000, Runs: 5, Steps: 100},
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
	d := w.InputSize()
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

// Layer holds one linear or convolution layer's weights in PyTorch layout.
type Layer struct {
	W []float64 // Out×In, row-major: for a convolution Out×C×kH×kW
	B []float64 // Out
	// In is a linear layer's input width, a convolution's C·kH·kW.
	In, Out int
}

// Params returns the initial weights, the convolutions' first, uniform in
// ±1/sqrt(In) per layer (PyTorch's default for both kinds).
func (w Workload) Params() []Layer {
	rnd := mulberry32(42)
	var out []Layer
	for _, d := range w.layerDims() {
		in, o := d[0], d[1]
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

// layerDims returns each layer's In and Out as Params lays them out.
func (w Workload) layerDims() [][2]int {
	var dims [][2]int
	if len(w.Image) > 0 {
		c := w.Image[0]
		for _, cv := range w.Convs {
			dims = append(dims, [2]int{c * cv.Kernel * cv.Kernel, cv.Out})
			c = cv.Out
		}
	}
	for l := 1; l < len(w.Sizes); l++ {
		dims = append(dims, [2]int{w.Sizes[l-1], w.Sizes[l]})
	}
	return dims
}

// InputSize returns the number of input values per example.
func (w Workload) InputSize() int {
	if len(w.Image) == 0 {
		return w.Sizes[0]
	}
	return w.Image[0] * w.Image[1] * w.Image[2]
}

// Features returns the number of values a CNN's convolutions leave per
// example, which Sizes[0] must equal; for an MLP it is Sizes[0].
func (w Workload) Features() int {
	if len(w.Image) == 0 {
		return w.Sizes[0]
	}
	c, h, wd := w.Image[0], w.Image[1], w.Image[2]
	for _, cv := range w.Convs {
		c = cv.Out
		h, wd = h+2*cv.Padding-cv.Kernel+1, wd+2*cv.Padding-cv.Kernel+1
		if cv.Pool > 1 {
			h, wd = h/cv.Pool, wd/cv.Pool
		}
	}
	return c * h * wd
}
