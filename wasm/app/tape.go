// Package app is the playground's state, with no DOM: the model being
// edited (with undo and redo), the tape of one training step, the cursor
// stepping through it, the modes (eager or compiled, dense or single-output
// backward, train or eval), the gradient check, and everything the views
// show, as plain data. Program mode's state (ProgramPlayground: a program's
// text, recorded into the same Recording and Stepper, and forward mode) is
// here too. The views in package main only draw it.
package app

import (
	"strconv"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// NodeInfo is what the views show about one tape node that does not change
// while stepping.
type NodeInfo struct {
	ID    int
	Kind  autograd.Kind
	Label string // "x", "0.weight", or the op's name
	Op    *op.Op // nil for leaves
	Attrs op.Attrs
	Shape tensor.Shape
	// Parents lists the operand node ids in operand order; Operands their
	// names in the op's formula ("A", "W", …).
	Parents  []int
	Operands []string
	Children []int
	// RequiresGrad is the tape's flag; Role says what the node is for in the
	// training step ("loss", "prediction", "target", …) or is empty.
	RequiresGrad bool
	Role         string
	// From says, for a node of a program that a grad(y, x) recorded,
	// which grad and which op's VJP rule made it; the zero Origin for
	// every other node.
	From program.Origin
}

// Note says what a node is for beyond its title: its role, or, for a
// node a grad recorded, "from ∂y/∂x"; "" for neither.
func (n NodeInfo) Note() string {
	if n.Role == "" && n.From.Grad > 0 {
		return "from " + n.From.Of
	}
	return n.Role
}

// Tag is the word drawn at the right of n's box: its Note, or "param" for
// a parameter without one.
func (n NodeInfo) Tag() string {
	if t := n.Note(); t != "" || n.Kind != autograd.Param {
		return t
	}
	return "param"
}

// Title is the node's one-line name, e.g. "#5 linear" or "#2 0.weight".
func (n NodeInfo) Title() string { return "#" + strconv.Itoa(n.ID) + " " + n.Label }

// Describe lists the nodes of t with their children.
func Describe(t *autograd.Tape) []NodeInfo {
	ns := make([]NodeInfo, t.Len())
	for i := range ns {
		nd := t.Node(i)
		n := NodeInfo{ID: i, Kind: nd.Kind, Label: nd.Name, Op: nd.Op, Attrs: nd.Attrs,
			Shape: nd.Value.Shape.Clone(), Parents: append([]int(nil), nd.Parents...), RequiresGrad: nd.RequiresGrad}
		if nd.Op != nil {
			n.Label = nd.Op.Name
			n.Operands = make([]string, len(nd.Parents))
			for k := range nd.Parents {
				n.Operands[k] = operandName(nd.Op, k)
			}
		}
		ns[i] = n
	}
	for i := range ns {
		for _, p := range ns[i].Parents {
			if len(ns[p].Children) == 0 || ns[p].Children[len(ns[p].Children)-1] != i {
				ns[p].Children = append(ns[p].Children, i)
			}
		}
	}
	return ns
}

// operandName is the name of operand k of o in its formula.
func operandName(o *op.Op, k int) string {
	if o.Variadic || k >= len(o.Operands) {
		return o.Operands[0].Name + strconv.Itoa(k+1)
	}
	return o.Operands[k].Name
}
