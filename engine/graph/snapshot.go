package graph

import (
	"errors"
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// FromTape snapshots what an eager session recorded (TorchLean's linked
// session, SessionIRState): one graph value per tape node, with the same id,
// and the leaf tensors in the order the graph's entry points take them
// (Graph.Inputs). Input and Param leaves become leaves with their name, shape
// and requires-grad flag; Const leaves become constants; op nodes become
// instructions {Op, Attrs, Args = Parents, Shape of the value}. The snapshot
// shares nothing with the tape: the leaf tensors and constants are copies
// (an optimizer updating a parameter in place does not change it), so it
// can be compiled and differentiated while the session records again.
//
// The snapshot is checked (Graph.Check) before it is returned; an error
// names the node at fault. A tape with a fused training node
// (autograd.Session.ApplyAct) is refused. Compiling the snapshot with its leaves gives the
// tape's values, and its dense reverse pass equals graph backpropagation
// (Backprop) and the session's own BackwardDenseFrom, bit for bit.
func FromTape(t *autograd.Tape) (*Graph, []*tensor.Tensor, error) {
	if t == nil || t.Len() == 0 {
		return nil, nil, &op.Error{Node: -1, Op: "graph", Msg: "empty tape: nothing was recorded"}
	}
	g := &Graph{Values: make([]Value, t.Len())}
	var leaves []*tensor.Tensor
	for k := range g.Values {
		nd := t.Node(k)
		if nd.Value == nil {
			return nil, nil, &op.Error{Node: k, Op: nd.Kind.String(), Msg: "tape node has no value"}
		}
		v := Value{Kind: nd.Kind, Name: nd.Name, Shape: nd.Value.Shape.Clone(), RequiresGrad: nd.RequiresGrad}
		switch nd.Kind {
		case autograd.Input, autograd.Param:
			leaves = append(leaves, nd.Value.Clone())
		case autograd.Const:
			v.Const = nd.Value.Clone()
		case autograd.OpNode:
			if nd.Act != nil {
				return nil, nil, &op.Error{Node: k, Op: nd.Op.Name + "+" + nd.Act.Name, Msg: "a fused training node (autograd's ApplyAct) has no single instruction: record the step one node per op to snapshot it"}
			}
			v.Op, v.Attrs, v.Args = nd.Op, nd.Attrs, append([]int(nil), nd.Parents...)
			if v.Attrs.Shape != nil {
				v.Attrs.Shape = v.Attrs.Shape.Clone()
			}
		}
		g.Values[k] = v
	}
	if err := g.Check(); err != nil {
		return nil, nil, fmt.Errorf("graph: the tape does not snapshot as a well-formed graph: %w", err)
	}
	return g, leaves, nil
}

// FromSession is FromTape on the session's tape; it fails with the
// session's error when its recording failed.
func FromSession(s *autograd.Session) (*Graph, []*tensor.Tensor, error) {
	if s == nil {
		return nil, nil, errors.New("graph: no session")
	}
	if err := s.Err(); err != nil {
		return nil, nil, fmt.Errorf("graph: the session's recording failed: %w", err)
	}
	return FromTape(s.Tape())
}
