package nn

import (
	"fmt"
	"math/rand/v2"
	"strconv"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// MaxElements bounds the number of elements of any example shape and any
// parameter a sequence may declare, so that a hostile model document cannot
// make the engine allocate without limit.
const MaxElements = 1 << 24

// Param describes one parameter of a sequence.
type Param struct {
	// Name is the nn.Sequential state_dict key, "<layer index>.<name>",
	// e.g. "0.weight" or "3.running_var".
	Name   string
	Layer  int          // index of the layer that declares it
	Shape  tensor.Shape // its shape, fixed when the Seq is built
	Buffer bool         // no gradient, not updated by optimizers
}

// Seq is a sequence of layers whose shapes chain, checked when it is built.
// A Seq is immutable and safe to share.
type Seq struct {
	layers []Layer
	shapes []tensor.Shape // shapes[i] is layer i's input; shapes[len(layers)] the output
	params []Param
	first  []int // layer i owns params[first[i]:first[i+1]]
	seeds  []uint64
}

// ShapeError reports a layer that cannot take the shape given by the layer
// before it (or by the model input).
type ShapeError struct {
	Layer   int    // index of the rejecting layer
	Type    string // its type
	Expects string // what it accepts, e.g. "expects [features]"
	// Prev is the index of the layer before, or -1 for the model input.
	Prev     int
	PrevType string       // its type ("" for the model input)
	Got      tensor.Shape // the shape Prev gives
}

// Error names both layers and both shapes, e.g.
// "layer 2 (linear, expects [features]) cannot follow layer 1 (conv2d, gives [8 5 5])".
func (e *ShapeError) Error() string {
	if e.Prev < 0 {
		return fmt.Sprintf("layer %d (%s, %s) cannot take the model input %v", e.Layer, e.Type, e.Expects, e.Got)
	}
	return fmt.Sprintf("layer %d (%s, %s) cannot follow layer %d (%s, gives %v)", e.Layer, e.Type, e.Expects, e.Prev, e.PrevType, e.Got)
}

// LayerError reports a layer with an invalid setting (Field names it) or
// with tensors beyond MaxElements.
type LayerError struct {
	Layer int    // index of the layer at fault
	Type  string // its type
	Field string // the setting at fault, or "" when the fault is not one setting
	Msg   string // what is wrong
}

// Error returns e.g. "layer 2 (linear): out: must be ≥ 1".
func (e *LayerError) Error() string {
	s := "layer " + strconv.Itoa(e.Layer) + " (" + e.Type + "): "
	if e.Field != "" {
		s += e.Field + ": "
	}
	return s + e.Msg
}

// NewSeq checks that the layers chain from the input example shape and
// returns the sequence. The first failure is returned as a *ShapeError (two
// layers that do not fit together) or a *LayerError (a bad setting, a
// missing layer or a tensor that is too large).
func NewSeq(input tensor.Shape, layers ...Layer) (*Seq, error) {
	if len(input) == 0 || !input.Valid() {
		return nil, fmt.Errorf("model input %v: needs at least one dimension, each ≥ 1", input)
	}
	if !within(input) {
		return nil, fmt.Errorf("model input %v: more than %d elements", input, MaxElements)
	}
	s := &Seq{
		layers: append([]Layer(nil), layers...),
		shapes: []tensor.Shape{input.Clone()},
		first:  []int{0},
	}
	for i, l := range s.layers {
		if l == nil {
			return nil, &LayerError{Layer: i, Type: "<nil>", Msg: "missing layer"}
		}
		in := s.shapes[i]
		out, err := l.OutShape(in)
		if err != nil {
			if fe, ok := err.(*FieldError); ok {
				return nil, &LayerError{Layer: i, Type: l.Type(), Field: fe.Field, Msg: fe.Msg}
			}
			e := &ShapeError{Layer: i, Type: l.Type(), Expects: err.Error(), Prev: i - 1, Got: in.Clone()}
			if i > 0 {
				e.PrevType = s.layers[i-1].Type()
			}
			return nil, e
		}
		if !out.Valid() || !within(out) {
			return nil, &LayerError{Layer: i, Type: l.Type(), Msg: fmt.Sprintf("output %v is empty or has more than %d elements", out, MaxElements)}
		}
		for _, p := range l.Params(in) {
			if !p.Shape.Valid() || !within(p.Shape) {
				return nil, &LayerError{Layer: i, Type: l.Type(), Msg: fmt.Sprintf("%s %v has more than %d elements", p.Name, p.Shape, MaxElements)}
			}
			s.params = append(s.params, Param{Name: strconv.Itoa(i) + "." + p.Name, Layer: i, Shape: p.Shape.Clone(), Buffer: p.Buffer})
		}
		s.shapes = append(s.shapes, out)
		s.first = append(s.first, len(s.params))
		s.seeds = append(s.seeds, mix(uint64(i)+1))
	}
	return s, nil
}

// within reports whether s has at most MaxElements elements, without overflow.
func within(s tensor.Shape) bool {
	n := 1
	for _, d := range s {
		if d < 0 || d > MaxElements {
			return false
		}
		n *= d
		if n > MaxElements {
			return false
		}
	}
	return true
}

// Len reports the number of layers.
func (s *Seq) Len() int { return len(s.layers) }

// Layer returns layer i.
func (s *Seq) Layer(i int) Layer { return s.layers[i] }

// Input returns the shape of one input example. Do not modify it.
func (s *Seq) Input() tensor.Shape { return s.shapes[0] }

// Output returns the shape of one output example. Do not modify it.
func (s *Seq) Output() tensor.Shape { return s.shapes[len(s.layers)] }

// InShape returns the example shape layer i takes; InShape(Len()) is the
// output shape. Do not modify it.
func (s *Seq) InShape(i int) tensor.Shape { return s.shapes[i] }

// Params lists every parameter, layer by layer in state_dict order. The
// slice is shared; do not modify it.
func (s *Seq) Params() []Param { return s.params }

// LayerParams returns the range [lo, hi) of Params that layer i owns.
func (s *Seq) LayerParams(i int) (lo, hi int) { return s.first[i], s.first[i+1] }

// Init returns freshly allocated parameters, one per Params entry, drawn
// by each layer from its own PCG stream (seed, layer index), so that a
// layer's initial values depend only on the seed, its index and its shapes.
func (s *Seq) Init(seed uint64, scheme Init) []*tensor.Tensor {
	ps := make([]*tensor.Tensor, len(s.params))
	for i, p := range s.params {
		ps[i] = tensor.Zeros(p.Shape)
	}
	for i, l := range s.layers {
		lo, hi := s.LayerParams(i)
		if lo == hi {
			continue
		}
		l.Init(ps[lo:hi], scheme, rand.New(rand.NewPCG(seed, uint64(i))))
	}
	return ps
}

// Forward records the sequence applied to the batch x [batch, input...]
// with parameter values params (one per Params entry). seed is the pass's
// randomness (dropout masks); each layer gets its own stream of it. When
// outs is not nil it must have Len() entries and receives each layer's
// output value. Errors are those of o (see op.Ops).
func (s *Seq) Forward(o op.Ops, x op.Value, params []op.Value, mode Mode, seed uint64, outs []op.Value) op.Value {
	for i, l := range s.layers {
		x = l.Forward(o, x, params[s.first[i]:s.first[i+1]], mode, seed^s.seeds[i])
		if outs != nil {
			outs[i] = x
		}
	}
	return x
}

// Program returns the sequence as an op.Program over inputs
// [x, params...], for any backend (eager session or graph builder). Given
// the wrong number of inputs it returns op.NoValue.
func (s *Seq) Program(mode Mode, seed uint64) op.Program {
	return func(o op.Ops, in []op.Value) op.Value {
		if len(in) != 1+len(s.params) {
			return op.NoValue
		}
		return s.Forward(o, in[0], in[1:], mode, seed, nil)
	}
}

// mix is SplitMix64's finaliser: it spreads a small integer over 64 bits.
func mix(z uint64) uint64 {
	z += 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
