package train

import (
	"math"

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
}

// NewOptimizer returns the configured optimizer, or the settings error of
// c.Check.
func NewOptimizer(c OptimizerConfig) (Optimizer, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	if c.Name == "adam" {
		return &adam{c: c}, nil
	}
	return &sgd{c: c}, nil
}

// sgd is torch.optim.SGD without dampening or Nesterov: d = g + wd·p; with
// momentum μ, buf = d on the first step and buf = μ·buf + d after, d = buf;
// then p = p − lr·d.
type sgd struct {
	c   OptimizerConfig
	buf [][]float64
}

func (o *sgd) Step(params, grads []*tensor.Tensor) {
	if o.c.Momentum != 0 && o.buf == nil {
		o.buf = make([][]float64, len(params))
	}
	lr, wd, mu := o.c.LR, o.c.WeightDecay, o.c.Momentum
	for i, p := range params {
		g := grads[i]
		if g == nil {
			continue
		}
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
		case o.buf[i] == nil: // first momentum step: buf = d
			buf := make([]float64, len(pd))
			o.buf[i] = buf
			for k, v := range gd {
				d := v + wd*pd[k]
				if wd == 0 {
					d = v
				}
				buf[k] = d
				pd[k] += -lr * d
			}
		default:
			buf := o.buf[i][:len(pd)]
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
}

// adam is torch.optim.Adam (not AMSGrad): d = g + wd·p;
// m = β₁·m + (1−β₁)·d; v = β₂·v + (1−β₂)·d²;
// p = p − (lr/(1−β₁ᵗ))·m / (√v/√(1−β₂ᵗ) + eps).
type adam struct {
	c    OptimizerConfig
	m, v [][]float64
	t    []int
}

func (o *adam) Step(params, grads []*tensor.Tensor) {
	if o.m == nil {
		o.m = make([][]float64, len(params))
		o.v = make([][]float64, len(params))
		o.t = make([]int, len(params))
	}
	b1, b2, wd, eps := o.c.Betas[0], o.c.Betas[1], o.c.WeightDecay, o.c.Eps
	for i, p := range params {
		g := grads[i]
		if g == nil {
			continue
		}
		if o.m[i] == nil {
			o.m[i] = make([]float64, len(p.Data))
			o.v[i] = make([]float64, len(p.Data))
		}
		o.t[i]++
		t := float64(o.t[i])
		stepSize := o.c.LR / (1 - math.Pow(b1, t))
		bc2 := math.Sqrt(1 - math.Pow(b2, t))
		m, v := o.m[i], o.v[i]
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
}
