package bench

import (
	"fmt"
	"sort"
	"time"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Result is one contender's measurement of one workload, printed as a JSON line.
type Result struct {
	Contender string    `json:"contender"`
	Workload  string    `json:"workload"`
	StepsPerS float64   `json:"steps_per_s"`
	Runs      []float64 `json:"runs"`
	LossFirst float64   `json:"loss_first"`
	// Loss10 is the loss the 10th step returns (warm-up runs at least
	// CheckStep steps): every contender takes the same first steps on the
	// same batches, so it checks the gradients where LossFirst checks the
	// forward pass.
	Loss10   float64 `json:"loss_10"`
	LossLast float64 `json:"loss_last"`
}

// CheckStep is the step whose loss every contender reports as Loss10.
const CheckStep = 10

// Trainer runs SGD steps of a workload on the engine's eager session,
// reusing one session and one gradient set so that steps allocate nothing.
// Each hidden layer and each convolution is one node fused with its
// activation (autograd.Session.ApplyAct), as in the training passes of
// package train.
type Trainer struct {
	w      Workload
	s      *autograd.Session
	g      autograd.Grads
	xs, ys []*tensor.Tensor
	params []*tensor.Tensor // W0, b0, W1, b1, ..., the convolutions' first
	ids    []op.Value       // their tape ids in the current step
	it     int
	linear *op.Op // the catalogue's linear
	conv   *op.Op // and conv2d
	act    *op.Op // and the workload's activation (tanh or relu)
}

// NewTrainer prepares the workload's batches and initial weights.
func NewTrainer(w Workload) *Trainer {
	x, y := w.Data()
	d := w.InputSize()
	xshape := tensor.Shape{w.Batch, d}
	if len(w.Image) > 0 {
		xshape = tensor.Shape{w.Batch, w.Image[0], w.Image[1], w.Image[2]}
	}
	t := &Trainer{w: w, s: autograd.NewSession()}
	t.linear, _ = op.Lookup("linear")
	t.conv, _ = op.Lookup("conv2d")
	t.act, _ = op.Lookup(w.Act)
	for b := 0; b < w.N/w.Batch; b++ {
		xb, _ := tensor.New(xshape, x[b*w.Batch*d:(b+1)*w.Batch*d])
		yshape := tensor.Shape{w.Batch}
		if w.Loss == "mse" {
			yshape = tensor.Shape{w.Batch, 1}
		}
		yb, _ := tensor.New(yshape, y[b*w.Batch:(b+1)*w.Batch])
		t.xs, t.ys = append(t.xs, xb), append(t.ys, yb)
	}
	c := 0
	if len(w.Image) > 0 {
		c = w.Image[0]
	}
	for i, l := range w.Params() {
		wshape := tensor.Shape{l.Out, l.In}
		if i < len(w.Convs) {
			k := w.Convs[i].Kernel
			wshape = tensor.Shape{l.Out, c, k, k}
			c = l.Out
		}
		W, _ := tensor.New(wshape, l.W)
		B, _ := tensor.New(tensor.Shape{l.Out}, l.B)
		t.params = append(t.params, W, B)
	}
	return t
}

// Step runs one forward, backward and SGD update and returns the loss.
func (t *Trainer) Step() (float64, error) {
	k := t.it % len(t.xs)
	t.it++
	s := t.s
	s.Reset()
	h := s.Input(t.xs[k], "x")
	target := s.Input(t.ys[k], "y")
	nl := len(t.params) / 2
	ids := t.ids[:0]
	for l, cv := range t.w.Convs {
		W := s.Param(t.params[2*l], "W")
		b := s.Param(t.params[2*l+1], "b")
		ids = append(ids, W, b)
		h = s.ApplyAct(t.conv, op.Attrs{Stride: 1, Padding: cv.Padding}, h, W, b, t.act, op.Attrs{})
		if cv.Pool > 1 {
			h = op.MaxPool2D(s, h, cv.Pool, cv.Pool)
		}
	}
	if len(t.w.Convs) > 0 {
		h = op.Flatten(s, h)
	}
	for l := len(t.w.Convs); l < nl; l++ {
		W := s.Param(t.params[2*l], "W")
		b := s.Param(t.params[2*l+1], "b")
		ids = append(ids, W, b)
		if l < nl-1 { // a hidden layer: linear and its activation, one fused node
			h = s.ApplyAct(t.linear, op.Attrs{}, h, W, b, t.act, op.Attrs{})
		} else {
			h = op.Linear(s, h, W, b)
		}
	}
	var loss op.Value
	if t.w.Loss == "mse" {
		loss = op.MSELoss(s, h, target)
	} else {
		loss = op.CrossEntropy(s, h, target)
	}
	t.ids = ids
	if err := s.Backward(loss, &t.g); err != nil {
		return 0, err
	}
	lr := t.w.LR
	for i, id := range ids {
		p := t.params[i].Data
		g := t.g.Of(int(id)).Data[:len(p)] // as long as p: no bounds checks in the loop
		for j := range p {
			p[j] -= lr * g[j]
		}
	}
	return s.Tape().Node(int(loss)).Value.Data[0], nil
}

// Stepper is a contender's model of a workload: each Step runs one
// forward, backward and SGD update on the next batch and returns the loss.
type Stepper interface {
	Step() (float64, error)
}

// Measure runs the workload's warm-up and timed runs on TapeLab's engine,
// reported as contender name.
func Measure(name string, w Workload) (Result, error) {
	return MeasureStepper(name, w, NewTrainer(w))
}

// MeasureStepper runs the workload's warm-up and timed runs on t, reported
// as contender name: how every Go contender is timed.
func MeasureStepper(name string, w Workload, t Stepper) (Result, error) {
	r := Result{Contender: name, Workload: w.Name}
	first, err := t.Step()
	if err != nil {
		return r, err
	}
	r.LossFirst = first
	warm := time.Now().Add(time.Duration(w.WarmupMS) * time.Millisecond)
	for i := 1; i < max(w.Warmup, CheckStep) || time.Now().Before(warm); i++ {
		loss, err := t.Step()
		if err != nil {
			return r, err
		}
		if i+1 == CheckStep {
			r.Loss10 = loss
		}
	}
	var last float64
	for run := 0; run < w.Runs; run++ {
		start := time.Now()
		for i := 0; i < w.Steps; i++ {
			if last, err = t.Step(); err != nil {
				return r, err
			}
		}
		r.Runs = append(r.Runs, float64(w.Steps)/time.Since(start).Seconds())
	}
	r.LossLast = last
	if !(last < first) {
		return r, fmt.Errorf("%s %s: loss did not fall (%v -> %v)", name, w.Name, first, last)
	}
	r.StepsPerS = median(r.Runs)
	return r, nil
}

// median returns the middle value of xs (the mean of the two middle ones
// for an even count); xs is not modified.
func median(xs []float64) float64 {
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	m := len(s) / 2
	if len(s)%2 == 0 {
		return (s[m-1] + s[m]) / 2
	}
	return s[m]
}
