// Package nn provides TapeLab's model layers, shape-checked sequences of them
// (Seq), losses, and Model, which binds a sequence, a loss and the parameter
// tensors together.
//
// Layers follow TorchLean's LayerDef: each declares its output shape for an
// input example shape, its parameter shapes, their seeded initialisation,
// which parameters are buffers (requires-grad off), an optional buffer update
// and a forward program written against op.Ops, so one model runs on the
// eager autograd.Session and on the graph builder alike. Names and layouts
// follow PyTorch: layer types are PyTorch's names ("linear", "conv2d", …) and
// parameters are named like an nn.Sequential state_dict ("0.weight").
//
// The layer registry (LayerTypes, LookupType) describes every layer type
// once: its name, its settings with their kinds, defaults and ranges, its
// constructor and its PyTorch module. The model spec, the PyTorch export,
// the playground's editor and nntest read it and keep no list of their own.
//
// Shapes in this package are example shapes without the batch dimension;
// values flowing through a forward program carry a leading batch dimension.
package nn

import (
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Mode selects training or evaluation behaviour (dropout, batch norm).
type Mode uint8

// The modes, as in PyTorch's module.train() and module.eval().
const (
	Train Mode = iota
	Eval
)

// String returns "train" or "eval".
func (m Mode) String() string {
	if m == Eval {
		return "eval"
	}
	return "train"
}

// Init selects the initialisation scheme of weights.
type Init uint8

// The initialisation schemes.
const (
	// InitPyTorch is PyTorch's default: linear and conv2d weights and biases
	// uniform in ±1/sqrt(fan_in).
	InitPyTorch Init = iota
	// InitXavier draws weights uniform in ±sqrt(6/(fan_in+fan_out))
	// (Xavier/Glorot) and sets biases to zero, as TorchLean's linear does.
	InitXavier
)

// String returns "pytorch" or "xavier", the names the model spec uses.
func (i Init) String() string {
	if i == InitXavier {
		return "xavier"
	}
	return "pytorch"
}

// ParamSpec declares one parameter of a layer.
type ParamSpec struct {
	// Name is the state_dict suffix: "weight", "bias", "running_mean", "running_var".
	Name  string
	Shape tensor.Shape
	// Buffer marks a parameter that receives no gradient and is not touched
	// by optimizers (batch-norm running statistics).
	Buffer bool
}

// Layer is one layer of a sequential model. Implementations are plain
// values holding the layer's settings; they are not modified by any method.
type Layer interface {
	// Type returns the PyTorch-style type name, e.g. "linear" or "conv2d".
	Type() string
	// OutShape returns the shape of one output example for one input example of
	// shape in. A setting outside its registry range is reported as a
	// *FieldError (LayerType.Check); any other
	// error says, in a few words, which input the layer expects
	// (e.g. "expects [features]").
	OutShape(in tensor.Shape) (tensor.Shape, error)
	// Params lists the parameters for an input shape that OutShape accepted, in
	// state_dict order.
	Params(in tensor.Shape) []ParamSpec
	// Init writes seeded initial values into p, one tensor per Params entry,
	// already shaped as declared.
	Init(p []*tensor.Tensor, scheme Init, rng *rand.Rand)
	// Forward records the layer applied to a batch x of shape [batch, in...]
	// with the layer's parameter values p (in Params order). seed is this
	// layer's randomness for this pass (dropout's mask).
	Forward(o op.Ops, x op.Value, p []op.Value, mode Mode, seed uint64) op.Value
}

// BufferUpdater is implemented by layers with buffers that a train-mode
// forward pass updates (batch_norm's running statistics).
type BufferUpdater interface {
	// UpdateBuffers updates the buffers in p (the layer's parameters, in
	// Params order) from x, the layer's input batch of a train-mode pass.
	UpdateBuffers(p []*tensor.Tensor, x *tensor.Tensor) error
}

// FieldError reports a layer setting that is out of range.
type FieldError struct {
	Field string // the setting's name as the model spec writes it, e.g. "out"
	Msg   string // e.g. "must be ≥ 1"
}

// Error returns "field: message".
func (e *FieldError) Error() string { return e.Field + ": " + e.Msg }
