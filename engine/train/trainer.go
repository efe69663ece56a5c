package train

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// Trainer trains a model on a dataset with mini-batches. Each step draws the
// next BatchSize examples of a seeded shuffle of the data (reshuffled
// whenever it is used up, so every batch is full), runs a train-mode
// forward and backward pass and applies the optimizer. After the first step
// a step allocates nothing. A Trainer is not safe for concurrent use.
type Trainer struct {
	model *nn.Model
	data  *Dataset
	opt   Optimizer
	pass  *nn.Pass
	eval  *nn.Pass
	seed  uint64
	step  int

	prec   tensor.Precision
	rng    *rand.Rand
	perm   []int
	pos    int
	xb, yb *tensor.Tensor
	grads  []*tensor.Tensor
}

// NewTrainer checks that data suits m (see Dataset.Fits) and returns a
// trainer with the configured optimizer. batchSize is capped at the number
// of examples. seed drives the shuffle and the dropout masks.
func NewTrainer(m *nn.Model, data *Dataset, c OptimizerConfig, batchSize int, seed uint64) (*Trainer, error) {
	if data == nil || data.Len() == 0 {
		return nil, errors.New("no training examples")
	}
	if err := data.Fits(m); err != nil {
		return nil, err
	}
	if batchSize < 1 {
		return nil, fmt.Errorf("batch size %d: must be ≥ 1", batchSize)
	}
	opt, err := NewOptimizer(c)
	if err != nil {
		return nil, err
	}
	b := min(batchSize, data.Len())
	t := &Trainer{
		model: m, data: data, opt: opt, pass: nn.NewFusedPass(m), seed: seed,
		rng:   rand.New(rand.NewPCG(seed, 3)),
		perm:  make([]int, data.Len()),
		xb:    tensor.Zeros(append(tensor.Shape{b}, m.Seq.Input()...)),
		yb:    tensor.Zeros(append(tensor.Shape{b}, m.Loss.Target(m.Seq.Output())...)),
		grads: make([]*tensor.Tensor, len(m.Params)),
	}
	for i := range t.perm {
		t.perm[i] = i
	}
	t.pos = len(t.perm)
	return t, nil
}

// SetPrecision sets the precision training runs in (tensor.Float64 unless
// set). In tensor.Float32 the model's parameters are stored as float32: it
// rounds them now and after every optimizer update; every pass, the
// evaluation's too, runs on a float32 tape (nn.Pass.SetPrecision). The
// optimizer's own state (momentum, Adam's moments) stays float64, where
// PyTorch's float32 optimizers round it too.
func (t *Trainer) SetPrecision(p tensor.Precision) {
	t.prec = p
	t.pass.SetPrecision(p)
	if t.eval != nil {
		t.eval.SetPrecision(p)
	}
	t.roundParams()
}

// Precision reports the precision training runs in.
func (t *Trainer) Precision() tensor.Precision { return t.prec }

// roundParams rounds every parameter and buffer to the trainer's precision.
func (t *Trainer) roundParams() {
	if t.prec == tensor.Float64 {
		return
	}
	for _, q := range t.model.Params {
		t.prec.Round(q)
	}
}

// Model returns the model being trained (its parameters change in place).
func (t *Trainer) Model() *nn.Model { return t.model }

// Steps reports how many steps have run.
func (t *Trainer) Steps() int { return t.step }

// Pass returns the pass of the last step: its tape, outputs and gradients.
// It is a fused pass (nn.NewFusedPass): its tape is not one node per op.
func (t *Trainer) Pass() *nn.Pass { return t.pass }

// Step trains on the next mini-batch and returns its loss (before the
// update). When a layer's output, the loss, a gradient or an updated
// parameter is NaN or infinite it stops with a *NumericError naming the
// step and the first layer where the value appeared. A fault found before
// the update leaves the parameters unchanged (except batch-norm running
// statistics, which the forward pass updates, as in PyTorch).
func (t *Trainer) Step() (float64, error) {
	t.step++
	t.nextBatch()
	p, m := t.pass, t.model
	if err := p.Forward(t.xb, t.yb, nn.Train, mix(t.seed, uint64(t.step))); err != nil {
		return math.NaN(), fmt.Errorf("step %d: %w", t.step, err)
	}
	loss := p.Loss()
	bad := !finite(loss)
	for i := 0; i < m.Seq.Len() && !bad; i++ {
		bad = !allFinite(p.LayerOutput(i).Data)
	}
	if bad {
		return loss, t.forwardFault(loss)
	}
	if err := p.Backward(); err != nil {
		return loss, fmt.Errorf("step %d: %w", t.step, err)
	}
	ok := true
	for i := range t.grads {
		t.grads[i] = nil
		if !m.Seq.Params()[i].Buffer {
			t.grads[i] = p.Grad(i)
			ok = ok && (t.grads[i] == nil || allFinite(t.grads[i].Data))
		}
	}
	if !ok {
		return loss, t.gradFault()
	}
	t.opt.Step(m.Params, t.grads)
	t.roundParams()
	for i, q := range m.Seq.Params() {
		if !allFinite(m.Params[i].Data) {
			return loss, &NumericError{Step: t.step, Layer: q.Layer, Type: m.Seq.Layer(q.Layer).Type(),
				What: q.Name + " after the update", Value: firstBad(m.Params[i])}
		}
	}
	return loss, nil
}

// nextBatch copies the next batch of the shuffled data into xb and yb.
func (t *Trainer) nextBatch() {
	fx, fy := t.data.X.Shape[1], t.data.Y.Shape[1]
	n := t.xb.Shape[0]
	for b := 0; b < n; b++ {
		if t.pos == len(t.perm) {
			for i := len(t.perm) - 1; i > 0; i-- { // Fisher–Yates
				j := t.rng.IntN(i + 1)
				t.perm[i], t.perm[j] = t.perm[j], t.perm[i]
			}
			t.pos = 0
		}
		e := t.perm[t.pos]
		t.pos++
		copyRow(t.xb.Data[b*fx:(b+1)*fx], t.data.X.Data[e*fx:(e+1)*fx])
		copyRow(t.yb.Data[b*fy:(b+1)*fy], t.data.Y.Data[e*fy:(e+1)*fy])
	}
}

// copyRow copies src into dst (same length); a loop beats copy's call
// for the few values of a playground example.
func copyRow(dst, src []float64) {
	if len(src) > 16 {
		copy(dst, src)
		return
	}
	//lint:ignore S1001 measured: the loop is faster than copy for 1–16 values
	for i, v := range src {
		dst[i] = v
	}
}

// NumericError reports a NaN or infinite value met during training.
type NumericError struct {
	Step  int     // the step, counting from 1 as Steps does
	Layer int     // index of the first layer where the value appeared, -1 for the loss itself
	Type  string  // that layer's type, or the loss's name
	What  string  // "output", "gradient of 2.weight", "0.weight after the update", …
	Value float64 // the NaN or infinite value found
}

// Error returns e.g. "step 12: layer 2 (linear): output is NaN".
func (e *NumericError) Error() string {
	if e.Layer < 0 && e.What == "gradient" {
		return fmt.Sprintf("step %d: gradient of the loss (%s) is %v", e.Step, e.Type, e.Value)
	}
	if e.Layer < 0 {
		return fmt.Sprintf("step %d: loss (%s) is %v although every layer's output is finite", e.Step, e.Type, e.Value)
	}
	return fmt.Sprintf("step %d: layer %d (%s): %s is %v", e.Step, e.Layer, e.Type, e.What, e.Value)
}

// forwardFault names the first layer whose output is not finite.
func (t *Trainer) forwardFault(loss float64) error {
	seq := t.model.Seq
	for i := 0; i < seq.Len(); i++ {
		if out := t.pass.LayerOutput(i); !out.Finite() {
			return &NumericError{Step: t.step, Layer: i, Type: seq.Layer(i).Type(), What: "output", Value: firstBad(out)}
		}
	}
	return &NumericError{Step: t.step, Layer: -1, Type: string(t.model.Loss), Value: loss}
}

// gradFault names the layer whose VJP first produced a non-finite
// gradient: walking from the last layer to the first (the order backward
// runs), the first whose parameter or input gradient is not finite. It is
// called once some parameter's gradient is known not to be finite.
func (t *Trainer) gradFault() error {
	seq, p := t.model.Seq, t.pass
	if g := p.LayerGrad(seq.Len() - 1); g != nil && !g.Finite() {
		return &NumericError{Step: t.step, Layer: -1, Type: string(t.model.Loss), What: "gradient", Value: firstBad(g)}
	}
	for i := seq.Len() - 1; i >= 0; i-- {
		lo, hi := seq.LayerParams(i)
		for k := lo; k < hi; k++ {
			if g := p.Grad(k); g != nil && !g.Finite() {
				return &NumericError{Step: t.step, Layer: i, Type: seq.Layer(i).Type(), What: "gradient of " + seq.Params()[k].Name, Value: firstBad(g)}
			}
		}
		if i > 0 {
			if g := p.LayerGrad(i - 1); g != nil && !g.Finite() {
				return &NumericError{Step: t.step, Layer: i, Type: seq.Layer(i).Type(), What: "gradient with respect to its input", Value: firstBad(g)}
			}
		}
	}
	return nil
}

func firstBad(t *tensor.Tensor) float64 {
	for _, v := range t.Data {
		if !finite(v) {
			return v
		}
	}
	return 0
}

// allFinite reports whether no value is NaN or infinite: v − v is 0 for
// finite v and NaN otherwise, and a sum of zeros is 0. The scan is
// branch-free, with independent sums so that the additions overlap.
func allFinite(d []float64) bool {
	var s0, s1, s2, s3 float64
	for len(d) >= 8 {
		s0 += (d[0] - d[0]) + (d[4] - d[4])
		s1 += (d[1] - d[1]) + (d[5] - d[5])
		s2 += (d[2] - d[2]) + (d[6] - d[6])
		s3 += (d[3] - d[3]) + (d[7] - d[7])
		d = d[8:]
	}
	for _, v := range d {
		s0 += v - v
	}
	return s0+s1+s2+s3 == 0
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }

// mix derives a step's seed (SplitMix64 of seed and step).
func mix(seed, step uint64) uint64 {
	z := seed + step*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
