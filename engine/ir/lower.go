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
// The fragment Lower accepts is exactly the graphs that pass CheckShapes:
// Lower fails only with CheckShapes' error (a kind that is not input, const,
// param or a catalogue op, such as TorchLean's layernorm or randUniform; a
// wrong number of parents; a missing payload; shapes that do not agree),
// and every graph CheckShapes accepts lowers. The argument, step by step
// (TestEveryWellShapedGraphLowers checks it on random and broken graphs):
//
//   - Leaves. Check makes the input indices 0 … K−1 each read at least once
//     and every declared or payload shape valid (dimensions ≥ 1, at most
//     MaxElements), and CheckShapes makes every node reading input k declare
//     the same shape; so each Input and Param leaf records, and each const
//     payload tensor holds as many values as its shape (Check), so each
//     constant records.
//   - Instructions. Check admits only input, const, param and catalogue
//     kinds, and every catalogue op has operands, a shape rule, a forward
//     and a VJP (the op package's promise, checked by
//     TestCatalogueOpsAreComplete), which is all graph.Builder asks of an
//     op. Check's arity rule is the op's own (a one-parent linear or conv2d
//     node gains its weight and bias, its full three operands), and parents
//     are earlier nodes, so the operands are earlier values.
//   - Shapes. By induction over the nodes, every lowered value has its
//     node's declared shape: leaves by the above, instructions because
//     CheckShapes ran the very shape rule Builder runs on the same operand
//     shapes and attributes (a one-parent linear or conv2d node with its
//     payload weight and bias shapes) and required its result to equal the
//     declared shape.
//
// So Builder accepts every value, and the lowered graph passes graph's
// Check (values are not computed here; domains are CompileChecked's).
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

// lowerWith lowers g with the op rule given (tests swap in broken rules to
// show that the equivalence property catches them).
func lowerWith(g *Graph, rule opRule) (*graph.Graph, []int, error) {
	if err := CheckShapes(g); err != nil {
		return nil, nil, err
	}
	return lowerChecked(g, rule)
}

// lowerChecked lowers g, which has passed CheckShapes.
func lowerChecked(g *Graph, rule opRule) (*graph.Graph, []int, error) {
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
	return feedChecked(g, inputs)
}

// feedChecked is Feed on a graph that has passed CheckShapes.
func feedChecked(g *Graph, inputs []*tensor.Tensor) ([]*tensor.Tensor, error) {
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
