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

// SetPrecision sets the precision of the session's tape (tensor.Float64
// unless set; see Tape.SetPrecision) for what it records next and every
// pass over it. Set it before recording; Reset keeps it.
func (s *Session) SetPrecision(p tensor.Precision) { s.tape.prec = p }

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

// ApplyAct records act(o(x, y, z)) as one fused node (see Node.Act): o's
// result is kept as the node's Pre and act, a one-operand elementwise op
// with attributes actAttrs, is applied to it. Values and gradients are
// bit for bit those of Apply(o) followed by Apply(act) (both ops' own
// Forward and VJP run, in that order), with one node, one gradient slot
// and one shape check fewer. It is for training passes: a fused tape is
// not one node per op, so the playground never steps one and
// graph.FromTape refuses it. Errors name the fused node and the op at
// fault.
func (s *Session) ApplyAct(o *op.Op, a op.Attrs, x, y, z op.Value, act *op.Op, actAttrs op.Attrs) op.Value {
	if s.err != nil {
		return op.NoValue
	}
	if act == nil || act.Variadic || act.Arity() != 1 {
		s.err = fmt.Errorf("node %d: ApplyAct needs a one-operand activation", s.tape.Len())
		return op.NoValue
	}
	args := s.args[:0]
	for _, v := range [3]op.Value{x, y, z} {
		if v != op.NoValue {
			args = append(args, int(v))
		}
	}
	return s.applyAct(o, a, args, act, actAttrs)
}

func (s *Session) apply(o *op.Op, a op.Attrs, args []int) op.Value {
	return s.applyAct(o, a, args, nil, op.Attrs{})
}

// applyAct records o on args, fused with act unless act is nil.
func (s *Session) applyAct(o *op.Op, a op.Attrs, args []int, act *op.Op, actAttrs op.Attrs) op.Value {
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
	nd.RequiresGrad = t.requiresGrad(o, nd.Parents)
	if act != nil {
		if err := s.fuse(nd, shape, act, actAttrs); err != nil {
			t.n--
			s.err = op.AtNode(err, id)
			return op.NoValue
		}
		return op.Value(id)
	}
	nd.owned.Reshape(shape)
	nd.Value = nd.owned
	o.Forward(nd.Value, t.xs, a)
	t.prec.Round(nd.Value)
	return op.Value(id)
}

// fuse evaluates the fused node nd: its op into Pre (of the given shape),
// then act on Pre into Value, with act's shape rule and domain checked on
// Pre as a node of its own would have them checked.
func (s *Session) fuse(nd *Node, shape tensor.Shape, act *op.Op, a op.Attrs) error {
	t := &s.tape
	if nd.pre == nil {
		nd.pre = &tensor.Tensor{}
	}
	nd.pre.Reshape(shape)
	nd.Pre = nd.pre
	nd.Op.Forward(nd.Pre, t.xs, nd.Attrs)
	t.prec.Round(nd.Pre)
	t.shapes = append(t.shapes[:0], shape)
	if cap(t.actOut) < maxRank {
		t.actOut = make(tensor.Shape, 0, maxRank)
	}
	out, err := act.Shape(t.actOut[:0], t.shapes, a)
	if err == nil && !out.Equal(shape) {
		err = &op.Error{Node: -1, Op: act.Name, Msg: "is not elementwise: it changes shape " + shape.String() + " to " + out.String()}
	}
	if err == nil {
		err = act.Check(t.single(0, nd.Pre), a)
	}
	if err != nil {
		return err
	}
	nd.Act, nd.ActAttrs = act, a
	nd.owned.Reshape(shape)
	nd.Value = nd.owned
	act.Forward(nd.Value, t.single(0, nd.Pre), a)
	t.prec.Round(nd.Value)
	nd.RequiresGrad = nd.RequiresGrad && act.Grads(0)
	return nil
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
