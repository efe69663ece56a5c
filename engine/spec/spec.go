// Package spec is TapeLab's shareable model document: version 1 JSON
// describing a sequential model (input shape, layers, loss, seed, optional
// parameter values) plus the playground's training settings. Links, the
// share service and the command line all carry it.
//
//	{"version": 1, "input": [2],
//	 "layers": [{"type": "linear", "out": 16}, {"type": "tanh"}, {"type": "linear", "out": 1}],
//	 "loss": "mse", "seed": 7,
//	 "params": {"0.weight": [[0.1, -0.2], ...], "0.bias": [0.0, ...]}}
//
// Decode is strict: unknown fields, wrong types, impossible values and
// shapes that do not chain are rejected with the JSON path of the fault.
// Encode is canonical: a model has exactly one encoding, so equal models
// encode to equal bytes, and Decode(Encode(m)) equals m.
package spec

import (
	"fmt"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// Version is the document version this package reads and writes.
const Version = 1

// Model is a decoded model document. Every field holds an effective value:
// Decode fills in the defaults of absent fields, and Encode leaves out the
// fields that hold their defaults.
type Model struct {
	// Input is one example's shape, without the batch dimension.
	Input tensor.Shape
	// Layers are nn layer values (nn.Linear, nn.ReLU, …; not pointers).
	Layers []nn.Layer
	Loss   nn.Loss
	// Seed drives parameter initialisation and dropout.
	Seed uint64
	// Init is the initialisation scheme ("init": "pytorch" (default) or "xavier").
	Init nn.Init
	// Params, when not nil, replaces the seeded initial value of each named
	// parameter; each name must exist in the model, with the exact shape.
	Params map[string]*tensor.Tensor

	// Dataset is the playground's generated dataset; Name "" means none.
	Dataset train.DataConfig
	// Optimizer defaults to train.DefaultOptimizer("sgd").
	Optimizer train.OptimizerConfig
	// BatchSize (default 10) and Steps (default 500) drive training.
	BatchSize int
	Steps     int
}

// Defaults of the training fields.
const (
	DefaultBatchSize = 10
	DefaultSteps     = 500
	MaxSteps         = 1_000_000_000
)

// New returns a model with the given input, loss and layers and every
// other field at its default.
func New(input tensor.Shape, loss nn.Loss, layers ...nn.Layer) *Model {
	return &Model{
		Input:     input,
		Layers:    layers,
		Loss:      loss,
		Optimizer: train.DefaultOptimizer("sgd"),
		BatchSize: DefaultBatchSize,
		Steps:     DefaultSteps,
	}
}

// Seq builds the model's layer sequence. Faults are *Error values with
// the path of the layer at fault.
func (m *Model) Seq() (*nn.Seq, error) {
	seq, err := nn.NewSeq(m.Input, m.Layers...)
	if err == nil {
		return seq, nil
	}
	switch e := err.(type) {
	case *nn.LayerError:
		p := fmt.Sprintf("layers[%d]", e.Layer)
		if e.Field != "" {
			return nil, &Error{Path: join(p, e.Field), Msg: e.Msg}
		}
		return nil, &Error{Path: p, Msg: e.Error()}
	case *nn.ShapeError:
		return nil, &Error{Path: fmt.Sprintf("layers[%d]", e.Layer), Msg: e.Error()}
	}
	return nil, &Error{Path: "input", Msg: err.Error()}
}

// Validate checks everything Decode checks after parsing: the layer
// settings and shape chain, the loss against the output, the given
// parameters' names and shapes, and the training settings (including that
// the dataset suits the model). The error is an *Error.
func (m *Model) Validate() error {
	_, err := m.validate()
	return err
}

func (m *Model) validate() (*nn.Seq, error) {
	if len(m.Layers) == 0 {
		return nil, &Error{Path: "layers", Msg: "must have at least one layer"}
	}
	seq, err := m.Seq()
	if err != nil {
		return nil, err
	}
	if err := m.Loss.Check(seq.Output()); err != nil {
		return nil, &Error{Path: "loss", Msg: err.Error()}
	}
	if m.Init != nn.InitPyTorch && m.Init != nn.InitXavier {
		return nil, &Error{Path: "init", Msg: fmt.Sprintf("unknown scheme %d", int(m.Init))}
	}
	if err := checkParams(seq, m.Params); err != nil {
		return nil, err
	}
	if m.Dataset.Name == "" && m.Dataset != (train.DataConfig{}) {
		return nil, &Error{Path: "dataset.name", Msg: "missing (settings are given without a dataset)"}
	}
	if m.Dataset.Name != "" {
		if err := m.Dataset.Check(); err != nil {
			return nil, fieldErr("dataset", err)
		}
		if err := m.Dataset.Fits(seq.Input(), seq.Output(), m.Loss); err != nil {
			return nil, &Error{Path: "dataset", Msg: err.Error()}
		}
	}
	if err := m.Optimizer.Check(); err != nil {
		return nil, fieldErr("optimizer", err)
	}
	if m.BatchSize < 1 || m.BatchSize > train.MaxBatch {
		return nil, errorf("batch_size", "must be a whole number from 1 to %d", train.MaxBatch)
	}
	if m.Steps < 1 || m.Steps > MaxSteps {
		return nil, errorf("steps", "must be a whole number from 1 to %d", MaxSteps)
	}
	return seq, nil
}

// fieldErr places an *nn.FieldError under path.
func fieldErr(path string, err error) error {
	if fe, ok := err.(*nn.FieldError); ok {
		return &Error{Path: path + "." + fe.Field, Msg: fe.Msg}
	}
	return &Error{Path: path, Msg: err.Error()}
}

// checkParams checks given parameter values against the sequence.
func checkParams(seq *nn.Seq, params map[string]*tensor.Tensor) error {
	for name, v := range params {
		path := "params[" + quote(name) + "]"
		var want *nn.Param
		for i := range seq.Params() {
			if seq.Params()[i].Name == name {
				want = &seq.Params()[i]
				break
			}
		}
		if want == nil {
			return &Error{Path: path, Msg: "no such parameter (the model has " + paramNames(seq) + ")"}
		}
		if v == nil || !v.Shape.Equal(want.Shape) || len(v.Data) != want.Shape.Size() {
			got := "nothing"
			if v != nil {
				got = v.Shape.String()
			}
			return &Error{Path: path, Msg: fmt.Sprintf("shape %v expected, got %s", want.Shape, got)}
		}
		for i, x := range v.Data {
			if !finite(x) {
				return &Error{Path: path, Msg: fmt.Sprintf("value %d is not a finite number", i)}
			}
		}
	}
	return nil
}

func paramNames(seq *nn.Seq) string {
	if len(seq.Params()) == 0 {
		return "no parameters"
	}
	s := ""
	for i, p := range seq.Params() {
		if i > 0 {
			s += ", "
		}
		s += p.Name
	}
	return s
}

// Build validates the model and returns it ready to run: parameters drawn
// from Seed with Init, then replaced by Params where given.
func (m *Model) Build() (*nn.Model, error) {
	seq, err := m.validate()
	if err != nil {
		return nil, err
	}
	nm, err := nn.NewModel(seq, m.Loss, m.Seed, m.Init)
	if err != nil {
		return nil, &Error{Path: "loss", Msg: err.Error()}
	}
	for name, v := range m.Params {
		if err := nm.SetParam(name, v); err != nil {
			return nil, &Error{Path: "params[" + quote(name) + "]", Msg: err.Error()}
		}
	}
	return nm, nil
}
