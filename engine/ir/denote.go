package ir

import (
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Denote is the reference interpreter, TorchLean's denoteAll: it checks g
// with CheckShapes, then evaluates every node in order and returns all node
// values (index = node id; the graph's result is the last). Input nodes with
// Attrs.Input == k read inputs[k], which must have the declared shape; const
// and param nodes read the payload.
//
// Op kinds are evaluated by the reference kernels in reference.go, written
// directly from each op's meaning with their own loops and independent of
// the catalogue's Forward (and of tensor.Gemm), so that the equivalence test
// of Lower compares two implementations. A catalogue op without a reference
// kernel (Reference reports which: only dropout, whose mask is defined by the
// catalogue's generator) falls back to its Forward. Values outside an op's
// domain (its Domain check) fail with the node named.
func Denote(g *Graph, inputs ...*tensor.Tensor) ([]*tensor.Tensor, error) {
	if err := CheckShapes(g); err != nil {
		return nil, err
	}
	vals := make([]*tensor.Tensor, len(g.Nodes))
	for i := range g.Nodes {
		n := &g.Nodes[i]
		v, err := denoteNode(g, n, vals, inputs)
		if err != nil {
			return nil, err
		}
		vals[i] = v
	}
	return vals, nil
}

func denoteNode(g *Graph, n *Node, vals, inputs []*tensor.Tensor) (*tensor.Tensor, error) {
	switch n.Kind {
	case KindInput:
		k := n.Attrs.Input
		if k >= len(inputs) || inputs[k] == nil {
			return nil, nodeError(n, "reads input %d, but %d inputs were given", k, len(inputs))
		}
		x := inputs[k]
		if !x.Shape.Equal(n.OutShape) || len(x.Data) != x.Shape.Size() {
			return nil, nodeError(n, "input %d has shape %v, the node declares %v", k, x.Shape, n.OutShape)
		}
		return x.Clone(), nil
	case KindConst, KindParam:
		t, err := g.Payload[n.ID].Value.Tensor()
		if err != nil {
			return nil, nodeError(n, "%v", err)
		}
		return t.Clone(), nil
	}
	o, _ := op.Lookup(n.Kind)
	x := make([]*tensor.Tensor, 0, 3)
	for _, p := range n.Parents {
		x = append(x, vals[p])
	}
	if paramBearing(n) {
		e := g.Payload[n.ID]
		for _, w := range []*Tensor{e.Weight, e.Bias} {
			t, err := w.Tensor()
			if err != nil {
				return nil, nodeError(n, "%v", err)
			}
			x = append(x, t)
		}
	}
	a := n.Attrs.Op()
	if err := o.Check(x, a); err != nil {
		return nil, op.AtNode(err, n.ID)
	}
	y := tensor.Zeros(n.OutShape)
	if ref := reference(n.Kind); ref != nil {
		ref(y, x, a)
	} else {
		o.Forward(y, x, a)
	}
	return y, nil
}

// Reference reports whether Denote evaluates kind with its own reference
// kernel (true) or falls back to the catalogue op's Forward (false).
func Reference(kind string) bool { return reference(kind) != nil }
