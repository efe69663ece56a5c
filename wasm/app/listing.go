package app

import (
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/ir"
	"tapelab/engine/tensor"
)

// IRLine is one node of the step's IR as the compiled view lists it, with
// the tape node it is (-1 when it has none).
type IRLine struct {
	Text string
	Node int
}

// IRListing exports the compiled step to the IR (ir.FromGraph, parameters in
// the payload) and lists it one node per line. Each IR node is matched to the
// graph value, and so the tape node, it came from: the export keeps the
// graph's order and only drops parameters it folds into a linear node's
// payload. It returns nil in eager mode.
func IRListing(r *Recording, params map[string]*tensor.Tensor) ([]IRLine, error) {
	if r.Graph == nil {
		return nil, nil
	}
	g, err := ir.FromGraph(r.Graph, params)
	if err != nil {
		return nil, err
	}
	lines := make([]IRLine, len(g.Nodes))
	v := 0
	for k, n := range g.Nodes {
		for v < r.Graph.Len() && !sameNode(&r.Graph.Values[v], n) {
			v++
		}
		node := -1
		if v < r.Graph.Len() {
			node = v
			v++
		}
		lines[k] = IRLine{Text: irText(g, k), Node: node}
	}
	return lines, nil
}

// irText shows IR node k of g as the listing writes it: "n5 = linear n2
// n3 n4 : [3, 1]  {names of its payload tensors}".
func irText(g *ir.Graph, k int) string {
	n := g.Nodes[k]
	var b strings.Builder
	b.WriteString("n" + strconv.Itoa(k) + " = " + n.Kind)
	for _, p := range n.Parents {
		b.WriteString(" n" + strconv.Itoa(p))
	}
	b.WriteString(" : " + n.OutShape.String())
	if e := g.Payload[k]; e != nil {
		var names []string
		for _, t := range []*ir.Tensor{e.Value, e.Weight, e.Bias} {
			if t != nil && t.Name != "" {
				names = append(names, t.Name)
			}
		}
		if len(names) > 0 {
			b.WriteString("  {" + strings.Join(names, ", ") + "}")
		}
	}
	return b.String()
}

// OpenedIRListing lists an opened IR document one node per line, each with
// the tape node holding its result (Pipeline.IDs); nil for a recording that
// is not an opened IR document.
func OpenedIRListing(r *Recording) []IRLine {
	if r.IR == nil || r.IR.IR == nil {
		return nil
	}
	g := r.IR.IR
	lines := make([]IRLine, len(g.Nodes))
	for k := range g.Nodes {
		node := -1
		if k < len(r.IR.IDs) {
			node = r.IR.IDs[k]
		}
		lines[k] = IRLine{Text: irText(g, k), Node: node}
	}
	return lines
}

// sameNode reports whether IR node n can be the export of graph value gv.
func sameNode(gv *graph.Value, n ir.Node) bool {
	if !gv.Shape.Equal(n.OutShape) {
		return false
	}
	switch gv.Kind {
	case autograd.Input:
		return n.Kind == ir.KindInput
	case autograd.Param:
		return n.Kind == ir.KindParam || n.Kind == ir.KindConst
	case autograd.Const:
		return n.Kind == ir.KindConst
	}
	return gv.Op != nil && gv.Op.Name == n.Kind
}
