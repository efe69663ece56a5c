package nn

import (
	"errors"
	"fmt"
	"math"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Pass runs a model eagerly on one reusable autograd.Session and one
// autograd.Grads: a forward pass with its loss, then backward. Once a pass
// has run with a given batch shape, running it again allocates nothing.
// A Pass is not safe for concurrent use.
type Pass struct {
	m      *Model
	s      *autograd.Session
	g      autograd.Grads
	params []op.Value
	outs   []op.Value
	pre    []bool // layer i's output is node outs[i]'s Pre (a fused linear layer)
	fuse   bool
	x      op.Value
	loss   op.Value
	back   bool
	prec   tensor.Precision
}

// NewPass returns a pass over m. The pass reads m.Params at each Forward,
// so updates to them in place are seen.
func NewPass(m *Model) *Pass {
	return &Pass{
		m:      m,
		s:      autograd.NewSession(),
		params: make([]op.Value, len(m.Params)),
		outs:   make([]op.Value, m.Seq.Len()),
		pre:    make([]bool, m.Seq.Len()),
		loss:   op.NoValue,
	}
}

// NewFusedPass returns a pass over m for training: as NewPass, except that
// a linear layer with a bias followed by an elementwise activation (relu,
// leaky_relu, tanh, sigmoid, gelu) is recorded as one fused tape node
// (autograd.Session.ApplyAct). Losses, layer outputs and gradients are bit
// for bit NewPass's; the tape has fewer nodes, so it is not one node per
// op and is not the one to step through or snapshot (Session).
func NewFusedPass(m *Model) *Pass {
	p := NewPass(m)
	p.fuse = true
	return p
}

// SetPrecision sets the precision of the pass (tensor.Float64 unless set):
// in tensor.Float32 every pass records on a float32 tape
// (autograd.Tape.SetPrecision: the batch, targets and parameters rounded
// to float32 as they enter, the model's tensors unchanged; each op's
// result, contribution and gradient sum rounded), and in train mode the
// batch-norm running statistics are rounded to float32 after their update.
func (p *Pass) SetPrecision(prec tensor.Precision) {
	p.prec = prec
	p.s.SetPrecision(prec)
}

// Forward records the model on the batch x [n, input...] and, when y is
// not nil, the loss against targets y (see Model.CheckBatch). In train
// mode it then updates buffers (batch-norm running statistics) from the
// batch, as PyTorch's forward does. seed drives dropout masks. Errors name
// the layer at fault.
func (p *Pass) Forward(x, y *tensor.Tensor, mode Mode, seed uint64) error {
	p.s.Reset()
	p.back = false
	p.loss = op.NoValue
	if y != nil {
		if err := p.m.CheckBatch(x, y); err != nil {
			return err
		}
	} else if in := p.m.Seq.Input(); len(x.Shape) != len(in)+1 || !x.Shape[1:].Equal(in) || x.Shape[0] < 1 {
		return fmt.Errorf("inputs have shape %v, want [batch %s] for examples of shape %v", x.Shape, dims(in), in)
	}
	s, seq := p.s, p.m.Seq
	p.x = s.Input(x, "x")
	for i, q := range seq.Params() {
		if q.Buffer {
			p.params[i] = s.Buffer(p.m.Params[i], q.Name)
		} else {
			p.params[i] = s.Param(p.m.Params[i], q.Name)
		}
	}
	for i := range p.outs {
		p.outs[i], p.pre[i] = op.NoValue, false
	}
	var out op.Value
	if p.fuse {
		out = p.forwardFused(mode, seed)
	} else {
		out = seq.Forward(s, p.x, p.params, mode, seed, p.outs)
	}
	if err := s.Err(); err != nil {
		return p.layerErr(err)
	}
	if y != nil {
		p.loss = p.m.Loss.Apply(s, out, s.Input(y, "y"))
		if err := s.Err(); err != nil {
			return fmt.Errorf("loss (%s): %w", p.m.Loss, err)
		}
	}
	if mode == Train {
		return p.updateBuffers()
	}
	return nil
}

// forwardFused records the sequence as Seq.Forward does, except that a
// linear layer with a bias followed by an activation layer is one fused
// node: the linear layer's output is the node's Pre, the activation's its
// value.
func (p *Pass) forwardFused(mode Mode, seed uint64) op.Value {
	seq, s, x := p.m.Seq, p.s, p.x
	for i := 0; i < seq.Len(); i++ {
		ps := p.params[seq.first[i]:seq.first[i+1]]
		if l, ok := seq.layers[i].(Linear); ok && l.Bias && i+1 < seq.Len() {
			if a, ok := seq.layers[i+1].(activation); ok {
				e, attrs := a.activation()
				x = s.ApplyAct(linearEntry, op.Attrs{}, x, ps[0], ps[1], e, attrs)
				if x == op.NoValue {
					return x
				}
				p.outs[i], p.pre[i], p.outs[i+1] = x, true, x
				i++
				continue
			}
		}
		x = seq.layers[i].Forward(s, x, ps, mode, seed^seq.seeds[i])
		p.outs[i] = x
	}
	return x
}

// layerErr names the first layer that recorded no output.
func (p *Pass) layerErr(err error) error {
	for i, v := range p.outs {
		if v == op.NoValue {
			return fmt.Errorf("layer %d (%s): %w", i, p.m.Seq.Layer(i).Type(), err)
		}
	}
	return err
}

func (p *Pass) updateBuffers() error {
	seq := p.m.Seq
	for i := 0; i < seq.Len(); i++ {
		u, ok := seq.Layer(i).(BufferUpdater)
		if !ok {
			continue
		}
		lo, hi := seq.LayerParams(i)
		if err := u.UpdateBuffers(p.m.Params[lo:hi], p.LayerInput(i)); err != nil {
			return fmt.Errorf("layer %d (%s): %w", i, seq.Layer(i).Type(), err)
		}
		if p.prec != tensor.Float64 {
			for k := lo; k < hi; k++ {
				if seq.Params()[k].Buffer {
					p.prec.Round(p.m.Params[k])
				}
			}
		}
	}
	return nil
}

// Backward runs the reverse pass from the loss of the last Forward, which
// must have been given targets.
func (p *Pass) Backward() error {
	if p.loss == op.NoValue {
		return errors.New("backward needs a forward pass with targets first")
	}
	if err := p.s.Backward(p.loss, &p.g); err != nil {
		return err
	}
	p.back = true
	return nil
}

// Loss returns the loss of the last Forward, or NaN when it had no targets.
func (p *Pass) Loss() float64 {
	if p.loss == op.NoValue {
		return math.NaN()
	}
	return p.value(p.loss).Data[0]
}

// Output returns the model's output batch [n, output...] of the last
// Forward. It belongs to the pass and is overwritten by the next Forward.
func (p *Pass) Output() *tensor.Tensor { return p.LayerOutput(len(p.outs) - 1) }

// LayerInput returns the batch that layer i received in the last Forward.
func (p *Pass) LayerInput(i int) *tensor.Tensor {
	if i == 0 {
		return p.value(p.x)
	}
	return p.LayerOutput(i - 1)
}

// LayerOutput returns the batch that layer i produced in the last Forward.
func (p *Pass) LayerOutput(i int) *tensor.Tensor {
	if p.pre[i] {
		return p.s.Tape().Node(int(p.outs[i])).Pre
	}
	return p.value(p.outs[i])
}

// Grad returns the gradient of the loss with respect to parameter i (in
// Model.Params order) after Backward, or nil for buffers, before Backward
// and for parameters the loss does not depend on.
func (p *Pass) Grad(i int) *tensor.Tensor {
	if !p.back {
		return nil
	}
	return p.g.Of(int(p.params[i]))
}

// LayerGrad returns the gradient of the loss with respect to layer i's
// output after Backward, or nil when there is none.
func (p *Pass) LayerGrad(i int) *tensor.Tensor {
	if !p.back {
		return nil
	}
	if p.pre[i] {
		return p.s.Tape().PreGrad(int(p.outs[i]), &p.g)
	}
	return p.g.Of(int(p.outs[i]))
}

// Session returns the session holding the last pass's tape (for stepping
// through it node by node, when the pass is not fused).
func (p *Pass) Session() *autograd.Session { return p.s }

func (p *Pass) value(v op.Value) *tensor.Tensor {
	if v == op.NoValue || int(v) >= p.s.Tape().Len() {
		return nil
	}
	return p.s.Tape().Node(int(v)).Value
}
