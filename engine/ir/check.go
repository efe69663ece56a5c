package ir

import (
	"errors"
	"fmt"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// paramBearing reports whether n is a linear or conv2d node in its
// TorchLean form: one parent, weights in the payload.
func paramBearing(n *Node) bool {
	return (n.Kind == "linear" || n.Kind == "conv2d") && len(n.Parents) == 1
}

// leaf reports whether kind takes no parents.
func leaf(kind string) bool {
	return kind == KindInput || kind == KindConst || kind == KindParam
}

// Check validates g's structure, stopping at the first fault, which the
// error names by node id and kind (or by payload key): every node's id equals
// its index; its kind is input, const, param or a catalogue op; it has as
// many parents as its kind takes (linear and conv2d take either one parent,
// with their weights in the payload, or their full operand list); every
// parent comes before the node; every declared shape has dimensions ≥ 1;
// const and param nodes, and one-parent linear and conv2d nodes, have the
// payload they need and no other node has any.
func Check(g *Graph) error {
	if g == nil || len(g.Nodes) == 0 {
		return errors.New("ir: graph has no nodes")
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.ID != i {
			return fmt.Errorf("node at index %d has id %d: ids must equal indices", i, n.ID)
		}
		if err := checkArity(n); err != nil {
			return err
		}
		for k, p := range n.Parents {
			if p < 0 || p >= i {
				return nodeError(n, "parent %d is node %d, but parents must be earlier nodes (0..%d)", k, p, i-1)
			}
		}
		if err := checkShape(n.OutShape); err != nil {
			return nodeError(n, "out_shape %v: %v", n.OutShape, err)
		}
		if n.Kind == KindInput && n.Attrs.Input < 0 {
			return nodeError(n, "input index %d is negative", n.Attrs.Input)
		}
		if err := checkEntry(n, g.Payload[n.ID]); err != nil {
			return err
		}
	}
	if err := checkInputIndices(g); err != nil {
		return err
	}
	for id, e := range g.Payload {
		if id < 0 || id >= len(g.Nodes) {
			return fmt.Errorf("payload %d: there is no node %d (the graph has %d nodes)", id, id, len(g.Nodes))
		}
		if e == nil {
			return fmt.Errorf("payload %d: entry is empty", id)
		}
	}
	return nil
}

// checkInputIndices checks that the input nodes read inputs 0..K-1, each
// at least once.
func checkInputIndices(g *Graph) error {
	read := map[int]*Node{}
	for i := range g.Nodes {
		if n := &g.Nodes[i]; n.Kind == KindInput && read[n.Attrs.Input] == nil {
			read[n.Attrs.Input] = n
		}
	}
	for k := 1; k < len(g.Nodes); k++ {
		if n := read[k]; n != nil && read[k-1] == nil {
			return nodeError(n, "reads input %d, but no node reads input %d (inputs are numbered 0, 1, ...)", k, k-1)
		}
	}
	for i := range g.Nodes {
		if n := &g.Nodes[i]; n.Kind == KindInput && n.Attrs.Input >= len(g.Nodes) {
			return nodeError(n, "reads input %d, but a graph of %d nodes has fewer inputs", n.Attrs.Input, len(g.Nodes))
		}
	}
	return nil
}

// checkArity checks that n's kind exists and takes len(n.Parents) parents.
func checkArity(n *Node) error {
	got := len(n.Parents)
	if leaf(n.Kind) {
		if got != 0 {
			return nodeError(n, "takes no parents, has %d", got)
		}
		return nil
	}
	o, ok := op.Lookup(n.Kind)
	if !ok {
		return nodeError(n, "unknown kind %q (want input, const, param or a catalogue op)", n.Kind)
	}
	if (n.Kind == "linear" || n.Kind == "conv2d") && got == 1 {
		return nil
	}
	if !o.AcceptsArity(got) {
		want := fmt.Sprint(o.Arity())
		if o.Variadic {
			want = "at least " + want
		}
		if n.Kind == "linear" || n.Kind == "conv2d" {
			want = "1 (weights in the payload) or " + want
		}
		noun := "parents"
		if want == "1" {
			noun = "parent"
		}
		return nodeError(n, "takes %s %s, has %d", want, noun, got)
	}
	return nil
}

// checkEntry checks that n has exactly the payload its kind needs.
func checkEntry(n *Node, e *Entry) error {
	switch {
	case n.Kind == KindConst || n.Kind == KindParam:
		if e == nil || e.Value == nil {
			return nodeError(n, "payload has no value")
		}
		if e.Weight != nil || e.Bias != nil {
			return nodeError(n, "payload may only hold a value, not weight or bias")
		}
		return checkTensor(n, "value", e.Value)
	case paramBearing(n):
		if e == nil || e.Weight == nil {
			return nodeError(n, "payload has no weight")
		}
		if e.Value != nil {
			return nodeError(n, "payload may only hold weight and bias, not a value")
		}
		if err := checkTensor(n, "weight", e.Weight); err != nil {
			return err
		}
		if e.Bias == nil {
			return nodeError(n, "payload has no bias")
		}
		return checkTensor(n, "bias", e.Bias)
	case e != nil:
		return nodeError(n, "takes no payload, but the payload has an entry for it")
	}
	return nil
}

// checkTensor checks that a payload tensor's data fits its shape.
func checkTensor(n *Node, role string, t *Tensor) error {
	if err := checkShape(t.Shape); err != nil {
		return nodeError(n, "payload %s shape %v: %v", role, t.Shape, err)
	}
	if len(t.Data) != t.Shape.Size() {
		return nodeError(n, "payload %s has shape %v (%d values) but holds %d values", role, t.Shape, t.Shape.Size(), len(t.Data))
	}
	return nil
}

// CheckShapes runs Check, then infers every node's output shape from its
// parents' declared shapes (and its payload) with the one inference function
// of its kind, and requires the inferred shape to equal the declared one.
// Catalogue ops infer with the op's own shape rule. The error names the node.
func CheckShapes(g *Graph) error {
	if err := Check(g); err != nil {
		return err
	}
	return inferShapes(g)
}

// inferShapes is CheckShapes on a graph that has passed Check.
func inferShapes(g *Graph) error {
	for i := range g.Nodes {
		n := &g.Nodes[i]
		s, err := Infer(g, n)
		if err != nil {
			return err
		}
		if !s.Equal(n.OutShape) {
			return nodeError(n, "declared out_shape %v, but its inputs give %v", n.OutShape, s)
		}
	}
	return nil
}

// Infer returns the output shape of node n of g computed from its parents'
// declared shapes, its attrs and its payload: the shape rule of its kind.
// Input nodes keep their declared shape; const and param nodes have their
// payload value's shape; every op kind uses the catalogue op's Infer (a
// param-bearing linear or conv2d node passes its payload weight and bias
// shapes as the W and b operands). n must have passed Check.
func Infer(g *Graph, n *Node) (tensor.Shape, error) {
	switch n.Kind {
	case KindInput:
		for j := range g.Nodes[:n.ID] {
			if m := &g.Nodes[j]; m.Kind == KindInput && m.Attrs.Input == n.Attrs.Input {
				if !m.OutShape.Equal(n.OutShape) {
					return nil, nodeError(n, "reads input %d with shape %v, but node %d reads it with shape %v", n.Attrs.Input, n.OutShape, m.ID, m.OutShape)
				}
				break
			}
		}
		return n.OutShape.Clone(), nil
	case KindConst, KindParam:
		return g.Payload[n.ID].Value.Shape.Clone(), nil
	}
	o, _ := op.Lookup(n.Kind)
	in := make([]tensor.Shape, 0, len(n.Parents)+2)
	for _, p := range n.Parents {
		in = append(in, g.Nodes[p].OutShape)
	}
	if paramBearing(n) {
		e := g.Payload[n.ID]
		in = append(in, e.Weight.Shape, e.Bias.Shape)
	}
	s, err := o.Shape(nil, in, n.Attrs.Op())
	if err != nil {
		return nil, op.AtNode(err, n.ID)
	}
	return s, nil
}

// MaxElements bounds the number of elements of any shape in a graph, so that
// a hostile document cannot make Denote or Lower allocate without limit.
const MaxElements = 1 << 26

// checkShape checks that every dimension is at least 1 and that the shape
// holds at most MaxElements elements (without overflowing on the way).
func checkShape(s tensor.Shape) error {
	n := 1
	for _, d := range s {
		if d < 1 {
			return fmt.Errorf("dimension %d is below 1", d)
		}
		if d > MaxElements || n*d > MaxElements {
			return fmt.Errorf("more than %d elements", MaxElements)
		}
		n *= d
	}
	return nil
}
