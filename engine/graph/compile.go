package graph

import (
	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Compile is TorchLean's compile: it checks g and the inputs, evaluates
// every value once and records it on a fresh tape, one node per value with
// the same id (leaves and constants as tape leaves, instructions with their
// operands as parents). It returns the tape and every value; the tape's
// nodes hold those very tensors. Domains are not checked (see
// CompileChecked). A compiled tape is bound to these inputs; compile again
// for new ones.
func Compile(g *Graph, inputs []*tensor.Tensor) (*autograd.Tape, []*tensor.Tensor, error) {
	return CompileAt(g, inputs, tensor.Float64)
}

// CompileAt is Compile in precision p (see autograd.Tape.SetPrecision): in
// tensor.Float32 the leaves and constants are float32 roundings of the
// inputs (the inputs are not changed) and each value is rounded after its
// op, and the tape's passes round as the eager tape's do.
func CompileAt(g *Graph, inputs []*tensor.Tensor, p tensor.Precision) (*autograd.Tape, []*tensor.Tensor, error) {
	if err := checkInputs(g, inputs); err != nil {
		return nil, nil, err
	}
	t := &autograd.Tape{}
	t.SetPrecision(p)
	vals := make([]*tensor.Tensor, len(g.Values))
	xs := make([]*tensor.Tensor, 0, 3)
	next := 0
	for k := range g.Values {
		v := &g.Values[k]
		switch v.Kind {
		case autograd.Input, autograd.Param:
			vals[k] = t.Node(t.Leaf(inputs[next], v.Name, v.Kind, v.RequiresGrad)).Value
			next++
		case autograd.Const:
			vals[k] = t.Node(t.Leaf(v.Const, v.Name, autograd.Const, false)).Value
		default:
			xs = xs[:0]
			for _, p := range v.Args {
				xs = append(xs, vals[p])
			}
			y := tensor.Zeros(v.Shape)
			v.Op.Forward(y, xs, v.Attrs)
			vals[k] = y
			t.Record(v.Op, v.Attrs, v.Args, y)
		}
	}
	return t, vals, nil
}

// LowerChecked is checked lowering by replay: it checks g and the inputs,
// then runs g on a fresh eager autograd.Session, which checks every op's
// domain before evaluating it and stops at the first failure. It returns the
// session's tape, whose node ids equal g's value ids, or the first error,
// an *op.Error naming the value id. CompileChecked fails exactly when and
// as this does.
func LowerChecked(g *Graph, inputs []*tensor.Tensor) (*autograd.Tape, error) {
	return LowerCheckedAt(g, inputs, tensor.Float64)
}

// LowerCheckedAt is LowerChecked on a session in precision p
// (autograd.Session.SetPrecision).
func LowerCheckedAt(g *Graph, inputs []*tensor.Tensor, p tensor.Precision) (*autograd.Tape, error) {
	if err := checkInputs(g, inputs); err != nil {
		return nil, err
	}
	s := autograd.NewSession()
	s.SetPrecision(p)
	args := make([]op.Value, 0, 3)
	next := 0
	for k := range g.Values {
		v := &g.Values[k]
		switch v.Kind {
		case autograd.Input, autograd.Param:
			s.Leaf(inputs[next], v.Name, v.Kind, v.RequiresGrad)
			next++
		case autograd.Const:
			s.Const(v.Const)
		default:
			args = args[:0]
			for _, p := range v.Args {
				args = append(args, op.Value(p))
			}
			s.ApplyN(v.Op, v.Attrs, args)
		}
		if err := s.Err(); err != nil {
			return nil, err
		}
	}
	return s.Tape(), nil
}
