package train

import (
	"math"
	"slices"

	"tapelab/engine/tensor"
)

// Optimizer updates parameters in place from their gradients, with
// torch.optim's semantics. State (momentum buffers, Adam's moments) is
// allocated on the first step; later steps allocate nothing.
type Optimizer interface {
	// Step updates params[i] from grads[i]; a nil gradient (a buffer, or a
	// parameter the loss does not reach) leaves params[i] and its state alone.
	// params and grads must keep their order and shapes across steps.
	Step(params, grads []*tensor.Tensor)
	// StepTensor is Step's update of params[i] alone, one of n tensors: Step
	// is StepTensor for i = 0 … n−1 in order, so stepping every tensor in
	// turn leaves the same bits as one Step.
	StepTensor(i, n int, p, g *tensor.Tensor)
	// State returns a copy of the optimizer's state.
	State() OptimizerState
	// SetState makes a copy of st the optimizer's state (a State of an
	// optimizer of the same settings).
	SetState(st OptimizerState)
}

// OptimizerState is what an optimizer keeps per parameter tensor, as
// torch.optim's state does: the steps taken and the buffers named by
// BufferNames, Buffers[b][i] the values of buffer b for tensor i (nil
// before its first step).
type OptimizerState struct {
	Steps   []int
	Buffers [][][]float64
}

// Clone returns a deep copy of st.
func (st OptimizerState) Clone() OptimizerState {
	c := OptimizerState{Steps: slices.Clone(st.Steps), Buffers: make([][][]float64, len(st.Buffers))}
	for b, bufs := range st.Buffers {
		c.Buffers[b] = make([][]float64, len(bufs))
		for i, v := range bufs {
			c.Buffers[b][i] = slices.Clone(v)
		}
	}
	return c
}

// BufferNames names the optimizer's buffers as torch.optim's state_dict
// does: momentum_buffer for momentum, exp_avg and exp_avg_sq for adam,
// none for sgd.
func BufferNames(name string) []string {
	switch name {
	case "momentum":
		return []string{"momentum_buffer"}
	case "adam":
		return []string{"exp_avg", "exp_avg_sq"}
	}
	return nil
}

// NewOptimizer returns the configured optimizer, or the settings error of
// c.Check.
func NewOptimizer(c OptimizerConfig) (Optimizer, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	o := &optim{c: c}
	if c.Name == "adam" {
		o.bufs = make([][][]float64, 2)
	} else if c.Momentum != 0 {
		o.bufs = make([][][]float64, 1)
	}
	return o, nil
}

// optim is torch.optim.SGD (without dampening or Nesterov) or
// torch.optim.Adam (not AMSGrad), with its state per tensor.
type optim struct {
	c     OptimizerConfig
	steps []int
	bufs  [][][]float64 // SGD's momentum buffers, or Adam's m and v
}

func (o *optim) Step(params, grads []*tensor.Tensor) {
	for i, p := range params {
		o.StepTensor(i, len(params), p, grads[i])
	}
}

func (o *optim) State() OptimizerState {
	return OptimizerState{Steps: o.steps, Buffers: o.bufs}.Clone()
}

func (o *optim) SetState(st OptimizerState) {
	c := st.Clone()
	o.steps, o.bufs = c.Steps, c.Buffers
}

func (o *optim) StepTensor(i, n int, p, g *tensor.Tensor) {
	if g == nil {
		return
	}
	if len(o.steps) < n {
		o.steps = append(o.steps, make([]int, n-len(o.steps))...)
		for b := range o.bufs {
			o.bufs[b] = append(o.bufs[b], make([][]float64, n-len(o.bufs[b]))...)
		}
	}
	o.steps[i]++
	if o.c.Name == "adam" {
		o.adam(i, p, g)
	} else {
		o.sgd(i, p, g)
	}
}

// sgd is torch.optim.SGD without dampening or Nesterov: d = g + wd·p; with
// momentum μ, buf = d on the first step and buf = μ·buf + d after, d = buf;
// then p = p − lr·d.
func (o *optim) sgd(i int, p, g *tensor.Tensor) {
	lr, wd, mu := o.c.LR, o.c.WeightDecay, o.c.Momentum
	pd, gd := p.Data, g.Data[:len(p.Data)]
	switch {
	case mu == 0 && wd == 0: // plain SGD, the common case
		for k, v := range gd {
			pd[k] += -lr * v
		}
	case mu == 0:
		for k, v := range gd {
			pd[k] += -lr * (v + wd*pd[k])
		}
	case o.bufs[0][i] == nil: // first momentum step: buf = d
		buf := make([]float64, len(pd))
		o.bufs[0][i] = buf
		for k, v := range gd {
			d := v + wd*pd[k]
			if wd == 0 {
				d = v
			}
			buf[k] = d
			pd[k] += -lr * d
		}
	default:
		buf := o.bufs[0][i][:len(pd)]
		for k, v := range gd {
			d := v + wd*pd[k]
			if wd == 0 {
				d = v
			}
			buf[k] = buf[k]*mu + d
			pd[k] += -lr * buf[k]
		}
	}
}

// adam is torch.optim.Adam (not AMSGrad): d = g + wd·p;
// m = β₁·m + (1−β₁)·d; v = β₂·v + (1−β₂)·d²;
// p = p − (lr/(1−β₁ᵗ))·m / (√v/√(1−β₂ᵗ) + eps).
func (o *optim) adam(i int, p, g *tensor.Tensor) {
	b1, b2, wd, eps := o.c.Betas[0], o.c.Betas[1], o.c.WeightDecay, o.c.Eps
	if o.bufs[0][i] == nil {
		o.bufs[0][i] = make([]float64, len(p.Data))
		o.bufs[1][i] = make([]float64, len(p.Data))
	}
	t := float64(o.steps[i])
	stepSize := o.c.LR / (1 - math.Pow(b1, t))
	bc2 := math.Sqrt(1 - math.Pow(b2, t))
	m, v := o.bufs[0][i], o.bufs[1][i]
	for k, gv := range g.Data {
		d := gv
		if wd != 0 {
			d += wd * p.Data[k]
		}
		m[k] = m[k]*b1 + d*(1-b1)
		v[k] = v[k]*b2 + d*d*(1-b2)
		p.Data[k] += -stepSize * (m[k] / (math.Sqrt(v[k])/bc2 + eps))
	}
}
