// Package autograd is TapeLab's eager runtime: a Session that runs programs
// written against op.Ops and records a grow-only Tape (one node per op, node
// id = index), the three reverse passes of TorchLean's tape (BackwardDense,
// BackwardDenseAll, BackwardDenseFrom), step cursors that walk a tape one
// node at a time for the playground, and AccumulateLeaves, which keeps
// leaf gradients across passes as PyTorch's .grad does when zero_grad()
// is not called. A tape runs in float64, or in float32 storage
// (Tape.SetPrecision: every leaf and every op's result rounded to float32,
// the arithmetic inside one op still float64; engine/README.md says where
// that differs from PyTorch's float32 kernels).
package autograd

import (
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Kind tells what a tape node is.
type Kind uint8

// The kinds of tape node.
const (
	OpNode Kind = iota // the result of an op
	Input              // a leaf holding data (x, targets)
	Param              // a leaf holding a trainable parameter or a buffer
	Const              // a leaf holding a constant; never receives a gradient
)

// String names the kind as the playground shows it.
func (k Kind) String() string {
	switch k {
	case Input:
		return "input"
	case Param:
		return "param"
	case Const:
		return "const"
	}
	return "op"
}

// Node is one tape entry: a value with the parents and local VJP (op and
// attrs) that produced it. Leaves have no op and no parents.
type Node struct {
	Kind    Kind
	Name    string // leaves: "x", "0.weight", …; op nodes: empty
	Op      *op.Op // nil for leaves
	Attrs   op.Attrs
	Parents []int // operand node ids, in operand order (repeats allowed)
	// Value is the node's forward value. A leaf's value is the caller's
	// tensor itself (not a copy), so an optimizer updating a parameter in
	// place is seen by the next recording; on a float32 tape (see
	// Tape.SetPrecision) it is the node's own float32 rounding of it.
	Value *tensor.Tensor
	// RequiresGrad is set on leaves by their creator and on op nodes when
	// some differentiable operand requires a gradient.
	RequiresGrad bool
	// Act, on a fused node (Session.ApplyAct, for training passes), is the
	// one-operand elementwise catalogue op applied to Op's result in the
	// same node, with attributes ActAttrs: Pre holds Op's result and Value
	// is Act(Pre). Nil on every other node.
	Act      *op.Op
	ActAttrs op.Attrs
	Pre      *tensor.Tensor

	owned   *tensor.Tensor   // storage of an op node's value, reused across recordings
	contrib []*tensor.Tensor // VJP scratch, one per operand, reused
	shape   tensor.Shape     // shape-rule scratch, reused
	pre     *tensor.Tensor   // storage of a fused node's Pre, reused
	preGrad *tensor.Tensor   // a fused node's VJP scratch: the cotangent of Pre
	src     *tensor.Tensor   // a float32 tape's leaf: the caller's tensor, which Value rounds
}

// maxRank is the rank up to which recording a node's shape allocates nothing.
const maxRank = 8

// Tape is a grow-only list of nodes; node id = index. Reset empties it while
// keeping every buffer, so recording the same program again allocates nothing.
type Tape struct {
	nodes []Node
	n     int
	gen   uint64 // counts Resets, so that a Cursor notices a re-recorded tape
	prec  tensor.Precision

	// scratch for op application and VJPs
	xs     []*tensor.Tensor
	shapes []tensor.Shape
	dx     []*tensor.Tensor
	one    [2][]*tensor.Tensor // a fused node's activation: its operand and its contribution
	actOut tensor.Shape        // a fused node's activation: its shape rule's result
}

// Len reports the number of nodes.
func (t *Tape) Len() int { return t.n }

// Node returns node i. The node belongs to the tape and must not be modified.
func (t *Tape) Node(i int) *Node { return &t.nodes[i] }

// SetPrecision sets the tape's precision (the zero Tape's is
// tensor.Float64) for the leaves and nodes recorded after it and for every
// reverse pass and cursor step over the tape. In tensor.Float32 each leaf
// is rounded to float32 on entry (into storage of the node's own: the
// caller's tensor is not changed), each recorded op's value after its
// Forward (a fused node's Pre and Value), each VJP contribution (a fused
// node's cotangent of Pre too), each seed and each sum of two
// contributions: float32 storage, with float64 arithmetic inside one op.
// In tensor.Float64 the arithmetic is exactly that of a tape without it.
func (t *Tape) SetPrecision(p tensor.Precision) { t.prec = p }

// Precision reports the tape's precision.
func (t *Tape) Precision() tensor.Precision { return t.prec }

// Reset empties the tape, keeping its storage for the next recording.
func (t *Tape) Reset() {
	t.n = 0
	t.gen++
}

// slot returns the next node, reusing a previous recording's storage.
func (t *Tape) slot() *Node {
	if t.n == len(t.nodes) {
		t.nodes = append(t.nodes, Node{})
	}
	nd := &t.nodes[t.n]
	t.n++
	nd.Parents = nd.Parents[:0]
	nd.Op = nil
	nd.Attrs = op.Attrs{}
	nd.Name, nd.src = "", nil
	if nd.Act != nil {
		nd.Act, nd.ActAttrs, nd.Pre = nil, op.Attrs{}, nil
	}
	return nd
}

// Leaf appends a leaf holding v (not copied; on a float32 tape, its
// float32 rounding in the node's own storage) and returns its id.
func (t *Tape) Leaf(v *tensor.Tensor, name string, kind Kind, requiresGrad bool) int {
	nd := t.slot()
	nd.Kind, nd.Name, nd.Value = kind, name, v
	nd.RequiresGrad = requiresGrad && kind != Const
	if t.prec != tensor.Float64 {
		nd.src = v
		t.enter(nd)
	}
	return t.n - 1
}

// enter sets a float32 tape's leaf nd to the float32 rounding of the
// caller's tensor as it is now, in the node's own storage.
func (t *Tape) enter(nd *Node) {
	if nd.owned == nil {
		nd.owned = &tensor.Tensor{}
	}
	nd.owned.CopyFrom(nd.src)
	t.prec.Round(nd.owned)
	nd.Value = nd.owned
}

// Record appends an op node whose value y was computed by the caller (y is
// kept, not copied; on a float32 tape it is rounded in place) and returns
// its id. Parents must be earlier ids.
func (t *Tape) Record(o *op.Op, a op.Attrs, parents []int, y *tensor.Tensor) int {
	nd := t.slot()
	nd.Kind, nd.Op, nd.Attrs, nd.Value = OpNode, o, a, y
	t.prec.Round(y)
	nd.Parents = append(nd.Parents, parents...)
	nd.RequiresGrad = t.requiresGrad(o, nd.Parents)
	return t.n - 1
}

// requiresGrad reports whether some differentiable operand requires a gradient.
func (t *Tape) requiresGrad(o *op.Op, parents []int) bool {
	for i, p := range parents {
		if o.Grads(i) && t.nodes[p].RequiresGrad {
			return true
		}
	}
	return false
}

// operands fills the tape's scratch with node nd's operand values.
func (t *Tape) operands(nd *Node) []*tensor.Tensor {
	t.xs = t.xs[:0]
	for _, p := range nd.Parents {
		t.xs = append(t.xs, t.nodes[p].Value)
	}
	return t.xs
}

// forward computes node nd's value as Cursor.Forward makes it known: an op
// node's from its operands' values (Op's Forward, and on a fused node Act's
// Forward on the result, each rounded to the tape's precision, as
// recording rounds them); a float32 tape's leaf is rounded from the
// caller's tensor again.
func (t *Tape) forward(nd *Node) {
	switch {
	case nd.Op == nil:
		if nd.src != nil {
			t.enter(nd)
		}
	case nd.Act == nil:
		nd.Op.Forward(nd.Value, t.operands(nd), nd.Attrs)
		t.prec.Round(nd.Value)
	default:
		nd.Op.Forward(nd.Pre, t.operands(nd), nd.Attrs)
		t.prec.Round(nd.Pre)
		nd.Act.Forward(nd.Value, t.single(0, nd.Pre), nd.ActAttrs)
		t.prec.Round(nd.Value)
	}
}

// single returns scratch slice i of the tape holding just x.
func (t *Tape) single(i int, x *tensor.Tensor) []*tensor.Tensor {
	if t.one[i] == nil {
		t.one[i] = make([]*tensor.Tensor, 1)
	}
	t.one[i][0] = x
	return t.one[i]
}

// dxScratch returns a reusable slice of n tensor pointers.
func (t *Tape) dxScratch(n int) []*tensor.Tensor {
	if cap(t.dx) < n {
		t.dx = make([]*tensor.Tensor, n)
	}
	return t.dx[:n]
}
