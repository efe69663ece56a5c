package autograd

import (
	"fmt"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Session runs programs eagerly: each op is checked (arity, operand ids,
// shapes, domain), evaluated at once and recorded as one tape node. It
// implements op.Ops and remembers its first error; after an error every call
// returns op.NoValue and records nothing.
type Session struct {
	tape Tape
	err  error
	args [3]int
}

// NewSession returns a session with an empty tape.
func NewSession() *Session { return &Session{} }

// Tape returns the session's tape.
func (s *Session) Tape() *Tape { return &s.tape }

// Err reports the first error, or nil.
func (s *Session) Err() error { return s.err }

// Reset empties the tape and forgets the error, keeping all buffers so that
// recording the same program again allocates nothing.
func (s *Session) Reset() {
	s.tape.Reset()
	s.err = nil
}

// Input records a leaf holding data that needs no gradient (v is not copied).
func (s *Session) Input(v *tensor.Tensor, name string) op.Value {
	return s.leaf(v, name, Input, false)
}

// Param records a leaf holding a trainable parameter (v is not copied, so
// updates to v in place are seen by later recordings).
func (s *Session) Param(v *tensor.Tensor, name string) op.Value {
	return s.leaf(v, name, Param, true)
}

// Buffer records a parameter that receives no gradient (batch-norm running
// statistics), as TorchLean models buffers.
func (s *Session) Buffer(v *tensor.Tensor, name string) op.Value {
	return s.leaf(v, name, Param, false)
}

// Leaf records a leaf of any kind; requiresGrad is ignored for Const.
func (s *Session) Leaf(v *tensor.Tensor, name string, kind Kind, requiresGrad bool) op.Value {
	return s.leaf(v, name, kind, requiresGrad)
}

// Const records a constant; it never receives a gradient.
func (s *Session) Const(v *tensor.Tensor) op.Value { return s.leaf(v, "", Const, false) }

func (s *Session) leaf(v *tensor.Tensor, name string, kind Kind, requiresGrad bool) op.Value {
	if s.err != nil {
		return op.NoValue
	}
	if v == nil || len(v.Data) != v.Shape.Size() || !v.Shape.Valid() {
		s.err = fmt.Errorf("node %d (%s %q): leaf tensor is missing or its data does not match its shape", s.tape.Len(), kind, name)
		return op.NoValue
	}
	return op.Value(s.tape.Leaf(v, name, kind, requiresGrad))
}

// Apply evaluates o on up to three operands (unused slots are op.NoValue)
// and records the result.
func (s *Session) Apply(o *op.Op, a op.Attrs, x, y, z op.Value) op.Value {
	if s.err != nil {
		return op.NoValue
	}
	args := s.args[:0]
	for _, v := range [3]op.Value{x, y, z} {
		if v != op.NoValue {
			args = append(args, int(v))
		}
	}
	return s.apply(o, a, args)
}

// ApplyN evaluates a variadic op on any number of operands and records it.
func (s *Session) ApplyN(o *op.Op, a op.Attrs, xs []op.Value) op.Value {
	if s.err != nil {
		return op.NoValue
	}
	args := make([]int, len(xs))
	for i, v := range xs {
		args[i] = int(v)
	}
	return s.apply(o, a, args)
}

func (s *Session) apply(o *op.Op, a op.Attrs, args []int) op.Value {
	t := &s.tape
	id := t.Len()
	if err := t.checkOperands(o, args); err != nil {
		s.err = op.AtNode(err, id)
		return op.NoValue
	}
	nd := t.slot()
	nd.Kind, nd.Op, nd.Attrs = OpNode, o, a
	nd.Parents = append(nd.Parents, args...)
	t.shapes = t.shapes[:0]
	for _, p := range args {
		t.shapes = append(t.shapes, t.nodes[p].Value.Shape)
	}
	if nd.owned == nil {
		nd.owned = &tensor.Tensor{}
	}
	if cap(nd.shape) < maxRank {
		// Shape rules append to dst[:0], and some (losses) grow a scratch
		// copy before returning a shorter shape: room for any common rank
		// keeps re-recording allocation-free.
		nd.shape = make(tensor.Shape, 0, maxRank)
	}
	shape, err := o.Shape(nd.shape[:0], t.shapes, a)
	if err == nil {
		err = o.Check(t.operands(nd), a)
	}
	if err != nil {
		t.n--
		s.err = op.AtNode(err, id)
		return op.NoValue
	}
	nd.owned.Reshape(shape)
	nd.Value = nd.owned
	o.Forward(nd.Value, t.xs, a)
	nd.RequiresGrad = t.requiresGrad(o, nd.Parents)
	return op.Value(id)
}

// checkOperands checks the arity and that every operand is an earlier node.
func (t *Tape) checkOperands(o *op.Op, args []int) error {
	if o == nil {
		return &op.Error{Node: -1, Op: "<nil>", Msg: "no op given"}
	}
	if !o.AcceptsArity(len(args)) {
		return &op.Error{Node: -1, Op: o.Name, Msg: fmt.Sprintf("takes %d operands, got %d", o.Arity(), len(args))}
	}
	for i, p := range args {
		if p < 0 || p >= t.Len() {
			return &op.Error{Node: -1, Op: o.Name, Msg: fmt.Sprintf("operand %d refers to node %d, which does not exist (tape has %d nodes)", i, p, t.Len())}
		}
	}
	return nil
}

// Backward runs the reverse pass from a scalar output seeded with 1
// (TorchLean's backwardScalar) into g, which is reused across calls.
func (s *Session) Backward(out op.Value, g *Grads) error {
	if s.err != nil {
		return s.err
	}
	g.unit.Reshape(tensor.Shape{})
	g.unit.Data[0] = 1
	return s.tape.BackwardDense(int(out), &g.unit, g)
}
