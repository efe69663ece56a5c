package graph

import (
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Builder records a Graph. It implements op.Ops: a program run against it
// appends one value per call, checking arity, operand ids and shapes as it
// goes (values are not computed, so domains are checked later, by
// CompileChecked). It remembers its first error, an *op.Error naming the value
// id; after it, every call returns op.NoValue and records nothing.
type Builder struct {
	vals []Value
	err  error
	in   []tensor.Shape // scratch for operand shapes
}

var _ op.Ops = (*Builder)(nil)

// NewBuilder returns a builder with no values.
func NewBuilder() *Builder { return &Builder{} }

// Input declares a leaf holding data that needs no gradient.
func (b *Builder) Input(name string, shape tensor.Shape) op.Value {
	return b.Leaf(name, shape, autograd.Input, false)
}

// Param declares a leaf holding a trainable parameter.
func (b *Builder) Param(name string, shape tensor.Shape) op.Value {
	return b.Leaf(name, shape, autograd.Param, true)
}

// Buffer declares a parameter that receives no gradient (running statistics).
func (b *Builder) Buffer(name string, shape tensor.Shape) op.Value {
	return b.Leaf(name, shape, autograd.Param, false)
}

// Leaf declares a leaf of kind autograd.Input or autograd.Param, as
// autograd.Session.Leaf records one; the graph's entry points take its tensor
// in the order of declaration.
func (b *Builder) Leaf(name string, shape tensor.Shape, kind autograd.Kind, requiresGrad bool) op.Value {
	if b.err != nil {
		return op.NoValue
	}
	id := len(b.vals)
	if !isLeaf(kind) {
		b.err = &op.Error{Node: id, Op: kind.String(), Shapes: []tensor.Shape{shape.Clone()}, Msg: fmt.Sprintf("leaf %q: a leaf must be an input or a param", name)}
		return op.NoValue
	}
	if !shape.Valid() {
		b.err = &op.Error{Node: id, Op: kind.String(), Shapes: []tensor.Shape{shape.Clone()}, Msg: fmt.Sprintf("leaf %q: invalid shape: every dimension must be at least 1", name)}
		return op.NoValue
	}
	b.vals = append(b.vals, Value{Kind: kind, Name: name, Shape: shape.Clone(), RequiresGrad: requiresGrad})
	return op.Value(id)
}

// Const records a copy of t as a constant; it never receives a gradient.
func (b *Builder) Const(t *tensor.Tensor) op.Value {
	if b.err != nil {
		return op.NoValue
	}
	id := len(b.vals)
	if t == nil || !t.Shape.Valid() || len(t.Data) != t.Shape.Size() {
		var s []tensor.Shape
		if t != nil {
			s = []tensor.Shape{t.Shape.Clone()}
		}
		b.err = &op.Error{Node: id, Op: "const", Shapes: s, Msg: "constant tensor is missing or its data does not match its shape"}
		return op.NoValue
	}
	c := t.Clone()
	b.vals = append(b.vals, Value{Kind: autograd.Const, Shape: c.Shape.Clone(), Const: c})
	return op.Value(id)
}

// Apply records o applied to up to three operands; like autograd.Session,
// it skips operand slots holding op.NoValue.
func (b *Builder) Apply(o *op.Op, a op.Attrs, x, y, z op.Value) op.Value {
	if b.err != nil {
		return op.NoValue
	}
	var buf [3]int
	args := buf[:0]
	for _, v := range [3]op.Value{x, y, z} {
		if v != op.NoValue {
			args = append(args, int(v))
		}
	}
	return b.apply(o, a, args)
}

// ApplyN records o applied to any number of operands.
func (b *Builder) ApplyN(o *op.Op, a op.Attrs, xs []op.Value) op.Value {
	if b.err != nil {
		return op.NoValue
	}
	args := make([]int, len(xs))
	for i, v := range xs {
		args[i] = int(v)
	}
	return b.apply(o, a, args)
}

func (b *Builder) apply(o *op.Op, a op.Attrs, args []int) op.Value {
	id := len(b.vals)
	if err := checkOp(o); err != nil {
		b.err = op.AtNode(err, id)
		return op.NoValue
	}
	if !o.AcceptsArity(len(args)) {
		want := fmt.Sprint(o.Arity())
		if o.Variadic {
			want = "at least " + want
		}
		b.err = &op.Error{Node: id, Op: o.Name, Msg: fmt.Sprintf("takes %s operands, got %d", want, len(args))}
		return op.NoValue
	}
	b.in = b.in[:0]
	for j, p := range args {
		if p < 0 || p >= id {
			b.err = &op.Error{Node: id, Op: o.Name, Shapes: cloneShapes(b.in), Msg: fmt.Sprintf("operand %d refers to value %d, which does not exist (the graph has %d values)", j, p, id)}
			return op.NoValue
		}
		b.in = append(b.in, b.vals[p].Shape)
	}
	s, err := o.Shape(nil, b.in, a)
	if err != nil {
		b.err = op.AtNode(err, id)
		return op.NoValue
	}
	if a.Shape != nil {
		a.Shape = a.Shape.Clone()
	}
	args = append([]int(nil), args...)
	b.vals = append(b.vals, Value{Kind: autograd.OpNode, Shape: s, Op: o, Attrs: a, Args: args,
		RequiresGrad: requiresGrad(b.vals, o, args)})
	return op.Value(id)
}

// Err reports the first error, or nil.
func (b *Builder) Err() error { return b.err }

// Len reports the number of values recorded so far.
func (b *Builder) Len() int { return len(b.vals) }

// Shape returns the shape of value v, or nil when v is not a value.
func (b *Builder) Shape(v op.Value) tensor.Shape {
	if v < 0 || int(v) >= len(b.vals) {
		return nil
	}
	return b.vals[v].Shape
}

// Graph returns the recorded graph, or the first error. An empty graph is
// an error. The graph shares nothing with the builder, which may go on
// recording.
func (b *Builder) Graph() (*Graph, error) {
	if b.err != nil {
		return nil, b.err
	}
	if len(b.vals) == 0 {
		return nil, &op.Error{Node: -1, Op: "graph", Msg: "empty graph: nothing was recorded"}
	}
	g := &Graph{Values: make([]Value, len(b.vals))}
	for i, v := range b.vals {
		v.Args = append([]int(nil), v.Args...)
		v.Shape = v.Shape.Clone()
		g.Values[i] = v
	}
	return g, nil
}
