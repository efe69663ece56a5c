package ir

import (
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/tensor"
)

// FromGraph exports a recorded program (a graph.Graph, e.g. a model recorded
// by graph.Builder) as an IR graph whose payload holds the parameters.
// params gives the value of every Param leaf by name (a model's state_dict);
// Input leaves need no value.
//
// Input leaves become input nodes reading inputs 0, 1, ... in leaf order;
// trainable Param leaves become param nodes and buffers (Param leaves that
// require no gradient, such as batch-norm running statistics) become named
// const nodes; constants become const nodes; every instruction becomes a
// node of its op's kind. A linear or conv2d instruction whose weight and
// bias are trainable Param leaves read by nothing else takes TorchLean's
// form: one parent, with the weight and bias in its payload entry.
//
// Node ids differ from graph value ids when leaves are folded into linear or
// conv2d nodes. The error names the leaf at fault (missing, duplicate name,
// wrong shape).
func FromGraph(g *graph.Graph, params map[string]*tensor.Tensor) (*Graph, error) {
	if err := g.Check(); err != nil {
		return nil, fmt.Errorf("ir: %w", err)
	}
	if err := checkParams(g, params); err != nil {
		return nil, err
	}
	folded := foldedLeaves(g)
	out := &Graph{Payload: Payload{}}
	ids := make([]int, g.Len()) // graph value id -> IR node id
	inputs := 0
	add := func(n Node, e *Entry) int {
		n.ID = len(out.Nodes)
		if n.Parents == nil {
			n.Parents = []int{}
		}
		out.Nodes = append(out.Nodes, n)
		if e != nil {
			out.Payload[n.ID] = e
		}
		return n.ID
	}
	for k := range g.Values {
		v := &g.Values[k]
		switch {
		case folded[k]:
			continue
		case v.Kind == autograd.Input:
			ids[k] = add(Node{Kind: KindInput, OutShape: v.Shape.Clone(), Attrs: Attrs{Input: inputs}}, nil)
			inputs++
		case v.Kind == autograd.Param:
			kind := KindParam
			if !v.RequiresGrad {
				kind = KindConst
			}
			ids[k] = add(Node{Kind: kind, OutShape: v.Shape.Clone()}, &Entry{Value: NewTensor(v.Name, params[v.Name])})
		case v.Kind == autograd.Const:
			ids[k] = add(Node{Kind: KindConst, OutShape: v.Shape.Clone()}, &Entry{Value: NewTensor("", v.Const)})
		default:
			n := Node{Kind: v.Op.Name, OutShape: v.Shape.Clone(), Attrs: FromOp(v.Attrs)}
			var e *Entry
			if len(v.Args) == 3 && folded[v.Args[1]] {
				w, b := &g.Values[v.Args[1]], &g.Values[v.Args[2]]
				e = &Entry{Weight: NewTensor(w.Name, params[w.Name]), Bias: NewTensor(b.Name, params[b.Name])}
				n.Parents = []int{ids[v.Args[0]]}
			} else {
				for _, p := range v.Args {
					n.Parents = append(n.Parents, ids[p])
				}
			}
			ids[k] = add(n, e)
		}
	}
	if err := CheckShapes(out); err != nil {
		return nil, fmt.Errorf("ir: exported graph does not check: %w", err)
	}
	return out, nil
}

// checkParams checks that params holds a value of the declared shape for
// every Param leaf of g, and that no two Param leaves share a name.
func checkParams(g *graph.Graph, params map[string]*tensor.Tensor) error {
	seen := map[string]bool{}
	for k := range g.Values {
		v := &g.Values[k]
		if v.Kind != autograd.Param {
			continue
		}
		if seen[v.Name] {
			return fmt.Errorf("ir: value %d: two parameters are named %q", k, v.Name)
		}
		seen[v.Name] = true
		t := params[v.Name]
		if t == nil {
			return fmt.Errorf("ir: value %d: no value given for parameter %q", k, v.Name)
		}
		if !t.Shape.Equal(v.Shape) || len(t.Data) != t.Shape.Size() {
			return fmt.Errorf("ir: value %d: parameter %q has shape %v, the graph declares %v", k, v.Name, t.Shape, v.Shape)
		}
	}
	return nil
}

// foldedLeaves marks, by value id, the weight and bias leaves that move into
// the payload of the linear or conv2d instruction reading them: both must be
// distinct trainable parameters that nothing else reads.
func foldedLeaves(g *graph.Graph) []bool {
	uses := make([]int, g.Len())
	for k := range g.Values {
		for _, p := range g.Values[k].Args {
			uses[p]++
		}
	}
	foldable := func(p int) bool {
		v := &g.Values[p]
		return v.Kind == autograd.Param && v.RequiresGrad && uses[p] == 1
	}
	folded := make([]bool, g.Len())
	for k := range g.Values {
		v := &g.Values[k]
		if v.Kind == autograd.OpNode && (v.Op.Name == "linear" || v.Op.Name == "conv2d") &&
			v.Args[1] != v.Args[2] && foldable(v.Args[1]) && foldable(v.Args[2]) {
			folded[v.Args[1]], folded[v.Args[2]] = true, true
		}
	}
	return folded
}
