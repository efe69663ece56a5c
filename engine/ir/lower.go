package ir

import (
	"fmt"
	"strconv"

	"tapelab/engine/graph"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Lower turns g into the engine's SSA graph, checking it with CheckShapes
// first. The lowered graph's leaves come first, in the order its entry points
// (graph.Eval, graph.CompileChecked) take their tensors and Feed returns
// them: one Input leaf per graph input ("input0", "input1", ...), then one
// Param leaf per payload parameter in node order (a param node's value; a
// one-parent linear or conv2d node's weight, then bias), named by the
// payload tensor's name or "<node>.value", "<node>.weight", "<node>.bias".
// Const nodes become graph constants; every op kind becomes one instruction
// of its catalogue op with the node's parents as operands, a one-parent
// linear or conv2d node taking its weight and bias leaves as the W and b
// operands.
//
// A graph outside this fragment fails with an error naming the node and the
// reason: a kind that is not input, const, param or a catalogue op (such as
// TorchLean's layernorm or randUniform), a catalogue op the graph cannot run,
// a wrong number of parents, a missing payload, or shapes that do not agree.
func Lower(g *Graph) (*graph.Graph, error) {
	l, _, err := LowerIDs(g)
	return l, err
}

// LowerIDs is Lower that also returns, for each IR node id, the id of the
// graph value holding that node's result.
func LowerIDs(g *Graph) (*graph.Graph, []int, error) {
	return lowerWith(g, lowerOp)
}

// opRule lowers one op node: it records the node's instruction on b, with
// args the lowered parents (and, for one-parent linear and conv2d nodes,
// the weight and bias leaves).
type opRule func(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value

// lowerOp is the lowering rule of every op kind: the catalogue op applied to
// the operands in order.
func lowerOp(b *graph.Builder, o *op.Op, a op.Attrs, args []op.Value) op.Value {
	if o.Variadic || len(args) > 3 {
		return b.ApplyN(o, a, args)
	}
	var x [3]op.Value
	for i := range x {
		x[i] = op.NoValue
	}
	copy(x[:], args)
	return b.Apply(o, a, x[0], x[1], x[2])
}

// checkFragment checks that every op node of g has a forward kernel and a
// VJP, which lowering to a differentiable graph needs.
func checkFragment(g *Graph) error {
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if leaf(n.Kind) {
			continue
		}
		o, _ := op.Lookup(n.Kind)
		if o.VJP == nil || o.Forward == nil {
			return nodeError(n, "outside the lowering fragment: op %s has no forward or VJP", n.Kind)
		}
	}
	return nil
}

// lowerWith lowers g with the op rule given (tests swap in broken rules to
// show that the equivalence property catches them).
func lowerWith(g *Graph, rule opRule) (*graph.Graph, []int, error) {
	if err := CheckShapes(g); err != nil {
		return nil, nil, err
	}
	if err := checkFragment(g); err != nil {
		return nil, nil, err
	}
	b := graph.NewBuilder()
	ids := make([]int, len(g.Nodes))
	owner := map[int]int{} // graph value id -> IR node id, for errors
	record := func(node int, v op.Value) {
		if v != op.NoValue {
			owner[int(v)] = node
		}
	}
	// Leaves first: the inputs in index order, then the parameters.
	inputs := inputShapes(g)
	for k, s := range inputs {
		b.Input("input"+strconv.Itoa(k), s)
	}
	weights := map[int][2]op.Value{}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		e := g.Payload[n.ID]
		switch {
		case n.Kind == KindParam:
			v := b.Param(paramName(n, "value", e.Value), e.Value.Shape)
			record(n.ID, v)
			ids[n.ID] = int(v)
		case paramBearing(n):
			w := b.Param(paramName(n, "weight", e.Weight), e.Weight.Shape)
			bias := b.Param(paramName(n, "bias", e.Bias), e.Bias.Shape)
			record(n.ID, w)
			record(n.ID, bias)
			weights[n.ID] = [2]op.Value{w, bias}
		}
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		var v op.Value
		switch n.Kind {
		case KindInput:
			ids[n.ID] = n.Attrs.Input
			continue
		case KindParam:
			continue
		case KindConst:
			t, err := g.Payload[n.ID].Value.Tensor()
			if err != nil {
				return nil, nil, nodeError(n, "%v", err)
			}
			v = b.Const(t)
		default:
			o, _ := op.Lookup(n.Kind)
			args := make([]op.Value, 0, len(n.Parents)+2)
			for _, p := range n.Parents {
				args = append(args, op.Value(ids[p]))
			}
			if w, ok := weights[n.ID]; ok {
				args = append(args, w[0], w[1])
			}
			v = rule(b, o, n.Attrs.Op(), args)
		}
		if v == op.NoValue {
			return nil, nil, fmt.Errorf("node %d (%s): lowering failed: %w", n.ID, n.Kind, b.Err())
		}
		record(n.ID, v)
		ids[n.ID] = int(v)
	}
	lg, err := b.Graph()
	if err != nil {
		return nil, nil, lowerError(g, err, owner)
	}
	return lg, ids, nil
}

// lowerError restates a builder error at the IR node that caused it.
func lowerError(g *Graph, err error, owner map[int]int) error {
	if e, ok := err.(*op.Error); ok && e.Node >= 0 {
		if id, ok := owner[e.Node]; ok {
			c := *e
			c.Node = id
			return fmt.Errorf("lowering: %w", &c)
		}
	}
	return fmt.Errorf("lowering: %w", err)
}

// paramName is the graph leaf name of a payload tensor.
func paramName(n *Node, role string, t *Tensor) string {
	if t.Name != "" {
		return t.Name
	}
	return strconv.Itoa(n.ID) + "." + role
}

// inputShapes returns the declared shape of each graph input, by index.
// g must have passed CheckShapes.
func inputShapes(g *Graph) []tensor.Shape {
	var s []tensor.Shape
	for i := range g.Nodes {
		n := &g.Nodes[i]
		if n.Kind != KindInput {
			continue
		}
		for len(s) <= n.Attrs.Input {
			s = append(s, nil)
		}
		if s[n.Attrs.Input] == nil {
			s[n.Attrs.Input] = n.OutShape
		}
	}
	return s
}

// Feed returns the tensors the lowered graph's leaves take, in order: the
// inputs (inputs[k] for graph input k, checked against the declared shape),
// then the payload parameters as Lower orders them (sharing the payload's
// data). The error names the input or node at fault.
func Feed(g *Graph, inputs ...*tensor.Tensor) ([]*tensor.Tensor, error) {
	if err := CheckShapes(g); err != nil {
		return nil, err
	}
	shapes := inputShapes(g)
	if len(inputs) != len(shapes) {
		return nil, fmt.Errorf("ir: the graph reads %d inputs, %d were given", len(shapes), len(inputs))
	}
	out := make([]*tensor.Tensor, 0, len(inputs))
	for k, x := range inputs {
		if x == nil || !x.Shape.Equal(shapes[k]) || len(x.Data) != x.Shape.Size() {
			got := "nil"
			if x != nil {
				got = x.Shape.String()
			}
			return nil, fmt.Errorf("ir: input %d has shape %s, the graph declares %v", k, got, shapes[k])
		}
		out = append(out, x)
	}
	for i := range g.Nodes {
		n := &g.Nodes[i]
		e := g.Payload[n.ID]
		var ts []*Tensor
		switch {
		case n.Kind == KindParam:
			ts = []*Tensor{e.Value}
		case paramBearing(n):
			ts = []*Tensor{e.Weight, e.Bias}
		}
		for _, t := range ts {
			v, err := t.Tensor()
			if err != nil {
				return nil, nodeError(n, "%v", err)
			}
			out = append(out, v)
		}
	}
	return out, nil
}
