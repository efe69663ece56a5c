// Package ir is TapeLab's op-tagged intermediate representation: a model or
// any program as plain data, in the spirit of TorchLean's NN.IR.Graph and its
// torchlean.ir.v1 JSON. A Graph is a list of nodes, each naming its kind, its
// parents (earlier nodes, by id) and its declared output shape; weights live
// only in the Payload, keyed by node id.
//
// Check validates the structure (ids equal indices, arity per kind, parents
// before children, payload where a kind needs one), CheckShapes runs one
// inference function per kind and requires inferred = declared, Denote is a
// reference interpreter written directly from the ops' meanings, and Lower
// turns a graph into the engine's SSA graph. Lower's fragment is stated
// exactly: every graph CheckShapes accepts lowers, and Lower refuses
// nothing else (see Lower for the argument). On every graph Lower accepts,
// evaluating the lowered graph equals Denote bit for bit.
package ir

import (
	"fmt"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Format is the value of the "format" field of every IR JSON document.
const Format = "tapelab.ir.v1"

// The kinds that are not catalogue ops. Every other kind is the name of an
// op in engine/op, with the op's operands as parents in order.
const (
	// KindInput is a graph input: no parents; Attrs.Input says which input
	// (0 for x, 1 for a loss target, ...).
	KindInput = "input"
	// KindConst is a constant leaf whose value is the payload's Const tensor.
	KindConst = "const"
	// KindParam is a trainable parameter leaf (a model weight, named like a
	// PyTorch state_dict entry) whose value is the payload's Const tensor.
	KindParam = "param"
)

// Graph is an op-tagged DAG in SSA order: node i may only read nodes before
// it. The graph's result is its last node.
type Graph struct {
	Nodes   []Node  // in SSA order, node i at index i
	Payload Payload // the weights of const, param, linear and conv2d nodes
}

// Node is one operation of a Graph.
type Node struct {
	// ID must equal the node's index in Graph.Nodes.
	ID int
	// Parents are the ids of the operands, in operand order (repeats allowed).
	Parents []int
	// Kind is KindInput, KindConst, KindParam or a catalogue op name.
	Kind string
	// OutShape is the declared shape of the node's value.
	OutShape tensor.Shape
	// Attrs holds the non-tensor arguments; fields a kind does not read are zero.
	Attrs Attrs
}

// Attrs are a node's non-tensor arguments: the op.Attrs a catalogue op
// reads (fields the kind does not read stay zero) and, for input nodes, the
// index of the graph input the node reads (0 for x, 1 for a loss target, ...).
type Attrs struct {
	Input int
	op.Attrs
}

// Op returns the op.Attrs of a node, sharing nothing with a.
func (a Attrs) Op() op.Attrs {
	o := a.Attrs
	if o.Shape != nil {
		o.Shape = o.Shape.Clone()
	}
	return o
}

// FromOp returns the IR attrs carrying the op attrs a (copied).
func FromOp(a op.Attrs) Attrs {
	return Attrs{Attrs: Attrs{Attrs: a}.Op()}
}

// Payload holds the weights of a graph, keyed by node id. Only const and
// param nodes, and linear or conv2d nodes with one parent, have an entry.
type Payload map[int]*Entry

// Entry is the payload of one node.
type Entry struct {
	// Value is the value of a const or param node.
	Value *Tensor
	// Weight and Bias are the parameters of a param-bearing linear or
	// conv2d node, in PyTorch layout (linear: [out in]; conv2d:
	// [out in kH kW]). Bias is [out].
	Weight, Bias *Tensor
}

// Tensor is a payload tensor: its values and, for a model parameter, its
// PyTorch state_dict name ("0.weight").
type Tensor struct {
	Name  string
	Shape tensor.Shape
	Data  []float64
}

// NewTensor returns a payload tensor holding a copy of t, named name.
func NewTensor(name string, t *tensor.Tensor) *Tensor {
	return &Tensor{Name: name, Shape: t.Shape.Clone(), Data: append([]float64(nil), t.Data...)}
}

// Tensor returns the payload tensor as an engine tensor sharing its data,
// or an error naming the mismatch when Data does not fit Shape.
func (t *Tensor) Tensor() (*tensor.Tensor, error) {
	return tensor.New(t.Shape, t.Data)
}

// nodeError is the error of a check or evaluation at one node.
func nodeError(n *Node, format string, args ...any) error {
	return fmt.Errorf("node %d (%s): %s", n.ID, n.Kind, fmt.Sprintf(format, args...))
}
