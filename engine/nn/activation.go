package nn

import (
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// activation is implemented by the elementwise activation layers (relu,
// leaky_relu, tanh, sigmoid, gelu): the catalogue op and attributes their
// Forward applies, which a fused pass (NewFusedPass) also applies to the
// result of the linear layer before them, in the same tape node.
type activation interface {
	Layer
	activation() (*op.Op, op.Attrs)
}

// applyActivation records l's activation of x.
func applyActivation(o op.Ops, l activation, x op.Value) op.Value {
	e, a := l.activation()
	return o.Apply(e, a, x, op.NoValue, op.NoValue)
}

// The catalogue entries the activation layers and a fused linear layer
// apply (read-only).
var (
	linearEntry    = entry("linear")
	reluEntry      = entry("relu")
	leakyReLUEntry = entry("leaky_relu")
	tanhEntry      = entry("tanh")
	sigmoidEntry   = entry("sigmoid")
	geluEntry      = entry("gelu")
)

// entry returns the catalogue's op of that name (nil if there were none,
// which the tests rule out and a session reports as an error).
func entry(name string) *op.Op {
	o, _ := op.Lookup(name)
	return o
}

// elementwise holds what every parameter-free, shape-preserving layer shares.
type elementwise struct{}

// OutShape gives the input shape back.
func (elementwise) OutShape(in tensor.Shape) (tensor.Shape, error) { return in.Clone(), nil }

// Params declares none.
func (elementwise) Params(tensor.Shape) []ParamSpec { return nil }

// fieldless returns the entry of the layer type of l, which has no settings.
func fieldless(name string, l Layer, module string, editor bool) *LayerType {
	return &LayerType{
		Name: name, Fields: []Field{}, Editor: editor,
		New:     func([]float64) Layer { return l },
		Values:  func(x Layer) ([]float64, bool) { return nil, x == l },
		PyTorch: PyTorch{Module: module},
	}
}

// Init has nothing to initialise.
func (elementwise) Init([]*tensor.Tensor, Init, *rand.Rand) {}

// ReLU is PyTorch's nn.ReLU: max(x, 0).
type ReLU struct{ elementwise }

var reluType = fieldless("relu", ReLU{}, "nn.ReLU()", true)

// Type returns "relu".
func (ReLU) Type() string { return "relu" }

// Forward records relu(x).
func (l ReLU) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return applyActivation(o, l, x)
}

func (ReLU) activation() (*op.Op, op.Attrs) { return reluEntry, op.Attrs{} }

// LeakyReLU is PyTorch's nn.LeakyReLU: x where x > 0, NegativeSlope·x
// elsewhere. Use NewLeakyReLU for PyTorch's default slope 0.01.
type LeakyReLU struct {
	elementwise
	NegativeSlope float64
}

// NewLeakyReLU returns a leaky ReLU with PyTorch's default slope 0.01.
func NewLeakyReLU() LeakyReLU { return LeakyReLU{NegativeSlope: 0.01} }

var leakyReLUType = &LayerType{
	Name:   "leaky_relu",
	Fields: []Field{{Name: "negative_slope", Kind: FloatField, Default: 0.01, Range: anyNumber}},
	Editor: true,
	New:    func(v []float64) Layer { return LeakyReLU{NegativeSlope: v[0]} },
	Values: func(x Layer) ([]float64, bool) {
		l, ok := x.(LeakyReLU)
		return []float64{l.NegativeSlope}, ok
	},
	PyTorch: PyTorch{Module: "nn.LeakyReLU(negative_slope={negative_slope})"},
}

// Type returns "leaky_relu".
func (LeakyReLU) Type() string { return "leaky_relu" }

// OutShape checks that the slope is finite and gives the input shape back.
func (l LeakyReLU) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := leakyReLUType.check(l); err != nil {
		return nil, err
	}
	return in.Clone(), nil
}

// Forward records leaky_relu(x).
func (l LeakyReLU) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return applyActivation(o, l, x)
}

// activation gives leaky_relu with its negative slope α.
func (l LeakyReLU) activation() (*op.Op, op.Attrs) {
	return leakyReLUEntry, op.Attrs{Alpha: l.NegativeSlope}
}

// Tanh is PyTorch's nn.Tanh.
type Tanh struct{ elementwise }

var tanhType = fieldless("tanh", Tanh{}, "nn.Tanh()", true)

// Type returns "tanh".
func (Tanh) Type() string { return "tanh" }

// Forward records tanh(x).
func (l Tanh) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return applyActivation(o, l, x)
}

func (Tanh) activation() (*op.Op, op.Attrs) { return tanhEntry, op.Attrs{} }

// Sigmoid is PyTorch's nn.Sigmoid: 1/(1+e^−x).
type Sigmoid struct{ elementwise }

var sigmoidType = fieldless("sigmoid", Sigmoid{}, "nn.Sigmoid()", true)

// Type returns "sigmoid".
func (Sigmoid) Type() string { return "sigmoid" }

// Forward records sigmoid(x).
func (l Sigmoid) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return applyActivation(o, l, x)
}

func (Sigmoid) activation() (*op.Op, op.Attrs) { return sigmoidEntry, op.Attrs{} }

// GELU is PyTorch's nn.GELU in its default, exact form x·Φ(x) (erf).
type GELU struct{ elementwise }

var geluType = fieldless("gelu", GELU{}, "nn.GELU()", true)

// Type returns "gelu".
func (GELU) Type() string { return "gelu" }

// Forward records gelu(x).
func (l GELU) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return applyActivation(o, l, x)
}

func (GELU) activation() (*op.Op, op.Attrs) { return geluEntry, op.Attrs{} }

// Softmax is PyTorch's nn.Softmax(dim=-1): a softmax over the last axis.
type Softmax struct{ elementwise }

var softmaxType = fieldless("softmax", Softmax{}, "nn.Softmax(dim=-1)", true)

// Type returns "softmax".
func (Softmax) Type() string { return "softmax" }

// Forward records softmax(x) over the last axis.
func (Softmax) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return op.Softmax(o, x)
}

// Dropout is PyTorch's nn.Dropout: in train mode each element is zeroed
// with probability P and the others are scaled by 1/(1−P); in eval mode it
// is the identity. The mask is drawn from the pass's seed, so a pass is
// reproducible. Use NewDropout for PyTorch's default P = 0.5.
type Dropout struct {
	elementwise
	P float64
}

// NewDropout returns a dropout layer with PyTorch's default p = 0.5.
func NewDropout() Dropout { return Dropout{P: 0.5} }

var dropoutType = &LayerType{
	Name:   "dropout",
	Fields: []Field{{Name: "p", Kind: FloatField, Default: 0.5, Range: Range{Lo: 0, Hi: 1, HiOpen: true}}},
	Editor: true,
	New:    func(v []float64) Layer { return Dropout{P: v[0]} },
	Values: func(l Layer) ([]float64, bool) {
		d, ok := l.(Dropout)
		return []float64{d.P}, ok
	},
	PyTorch: PyTorch{Module: "nn.Dropout(p={p})"},
}

// Type returns "dropout".
func (Dropout) Type() string { return "dropout" }

// OutShape checks 0 ≤ P < 1 and gives the input shape back.
func (d Dropout) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := dropoutType.check(d); err != nil {
		return nil, err
	}
	return in.Clone(), nil
}

// Forward records dropout(x) in train mode and returns x in eval mode.
func (d Dropout) Forward(o op.Ops, x op.Value, _ []op.Value, mode Mode, seed uint64) op.Value {
	if mode == Eval {
		return x
	}
	return op.Dropout(o, x, d.P, seed)
}

// Flatten is PyTorch's nn.Flatten(): every example becomes 1-D.
type Flatten struct{ elementwise }

// flattenType is in the editor for image examples only: 1-D examples are
// flat already.
var flattenType = func() *LayerType {
	t := fieldless("flatten", Flatten{}, "nn.Flatten()", false)
	t.Images = true
	return t
}()

// Type returns "flatten".
func (Flatten) Type() string { return "flatten" }

// OutShape gives [product of in].
func (Flatten) OutShape(in tensor.Shape) (tensor.Shape, error) {
	return tensor.Shape{in.Size()}, nil
}

// Forward records the reshape of x [batch, in...] to [batch, size].
func (Flatten) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return op.Flatten(o, x)
}
