package nn

import (
	"fmt"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Model is a sequence with its loss and its parameter values.
type Model struct {
	Seq  *Seq
	Loss Loss
	// Params holds one tensor per Seq.Params() entry, in that order.
	// Optimizers and buffer updates change them in place.
	Params []*tensor.Tensor
}

// NewModel checks that loss applies to seq's output and returns a model
// whose parameters are initialised from seed with the given scheme.
func NewModel(seq *Seq, loss Loss, seed uint64, scheme Init) (*Model, error) {
	if err := loss.Check(seq.Output()); err != nil {
		return nil, err
	}
	return &Model{Seq: seq, Loss: loss, Params: seq.Init(seed, scheme)}, nil
}

// Index returns the position of the named parameter in Params, or -1.
func (m *Model) Index(name string) int {
	for i, p := range m.Seq.Params() {
		if p.Name == name {
			return i
		}
	}
	return -1
}

// SetParam replaces the value of the named parameter with a copy of v,
// which must have exactly the declared shape.
func (m *Model) SetParam(name string, v *tensor.Tensor) error {
	i := m.Index(name)
	if i < 0 {
		return fmt.Errorf("no parameter %q in this model", name)
	}
	want := m.Seq.Params()[i].Shape
	if !v.Shape.Equal(want) || len(v.Data) != want.Size() {
		return fmt.Errorf("parameter %q: shape %v expected, got %v", name, want, v.Shape)
	}
	m.Params[i].CopyFrom(v)
	return nil
}

// Clone returns a model sharing the (immutable) sequence with copies of
// the parameters.
func (m *Model) Clone() *Model {
	c := &Model{Seq: m.Seq, Loss: m.Loss, Params: make([]*tensor.Tensor, len(m.Params))}
	for i, p := range m.Params {
		c.Params[i] = p.Clone()
	}
	return c
}

// CheckBatch checks a batch before a pass: x must be [n, input...] and
// y [n, target...] (see Loss.Target) with n ≥ 1, and cross_entropy class
// indices must be whole numbers in [0, classes). Errors name the example.
func (m *Model) CheckBatch(x, y *tensor.Tensor) error {
	in := m.Seq.Input()
	if len(x.Shape) != len(in)+1 || !x.Shape[1:].Equal(in) || x.Shape[0] < 1 {
		return fmt.Errorf("inputs have shape %v, want [batch %s] for examples of shape %v", x.Shape, dims(in), in)
	}
	n := x.Shape[0]
	tgt := m.Loss.Target(m.Seq.Output())
	if len(y.Shape) != len(tgt)+1 || !y.Shape[1:].Equal(tgt) || y.Shape[0] != n {
		return fmt.Errorf("targets have shape %v, want [%d%s] for %d examples and %s", y.Shape, n, dimsAfter(tgt), n, m.Loss)
	}
	if m.Loss == CrossEntropy {
		c := m.Seq.Output()[0]
		for i, v := range y.Data {
			if !(v >= 0 && v < float64(c)) || v != float64(int(v)) {
				return fmt.Errorf("example %d: class index %v is out of range (want a whole number from 0 to %d)", i, v, c-1)
			}
		}
	}
	return nil
}

// LossProgram returns the model's training objective as an op.Program over
// inputs [x, y, params...]: the loss of the forward pass in the given mode.
// Given the wrong number of inputs it returns op.NoValue.
func (m *Model) LossProgram(mode Mode, seed uint64) op.Program {
	return func(o op.Ops, in []op.Value) op.Value {
		if len(in) != 2+len(m.Params) {
			return op.NoValue
		}
		out := m.Seq.Forward(o, in[0], in[2:], mode, seed, nil)
		return m.Loss.Apply(o, out, in[1])
	}
}

func dims(s tensor.Shape) string {
	str := s.String()
	return str[1 : len(str)-1]
}

func dimsAfter(s tensor.Shape) string {
	if len(s) == 0 {
		return ""
	}
	return " " + dims(s)
}
