// Package graph provides TapeLab's typed SSA graph (TorchLean's GraphData):
// recording one from an op.Program, evaluating and differentiating it, and
// compiling it to an autograd tape with a reverse pass that visits only what
// an output depends on.
//
// A Graph is a list of values in creation order; value id = index. A value is
// a leaf (an input or parameter, with a name, a shape and a requires-grad
// flag), a constant (its own kind, never differentiated) or an instruction
// {Op, Attrs, Args, Shape} whose Args refer to earlier values by id. A
// Builder records a Graph by running an op.Program against it (it implements
// op.Ops), so the program written for the eager autograd.Session is the one
// that is compiled; value ids equal the tape node ids the Session would give.
//
// The package offers two independent implementations of the semantics, so
// that tests can compare them:
//
//   - Eval and Backprop are the reference: Eval computes every value;
//     Backprop is TorchLean's backpropAllCtx, peeling the last value and
//     folding its VJP contributions into the earlier seeds.
//   - Compile records a tape (autograd.Tape) with every forward value;
//     LowerChecked does the same by replaying the graph on an eager Session,
//     which checks every op's domain; CompileChecked is its own single pass
//     that checks each node's domain before evaluating it, evaluates it once
//     and saves what its VJP needs, failing exactly where LowerChecked fails.
//
// # Dense semantics
//
// Every reverse pass here (Backprop, Compiled.BackwardDenseFrom,
// Compiled.BackwardFrom and autograd.Tape.BackwardDenseFrom) walks value ids
// from the last to the first. An instruction that requires a gradient runs
// its VJP on the total cotangent it holds and adds the contribution for each
// operand into that operand's gradient, in operand order, as existing + new.
// Only operands receive contributions; operands that take no gradient
// (op.Operand.NoGrad) or do not require one receive nothing. Leaves,
// constants and instructions that require no gradient run nothing, and their
// gradient is their seed.
//
// # Compact support
//
// Compiled.BackwardFrom(o, seed) is bit-identical (tensor.Identical) to the
// dense pass seeded with the one-hot pack (seed at o, +0.0 everywhere else),
// but runs only the VJPs that can change a result. It rests on one fact
// about IEEE round-to-nearest sums: a sum that starts at +0.0 never becomes
// -0.0 (x + (-x) = +0 and +0 + -0 = +0). So every slot other than o's never
// holds -0.0, and adding a ±0 contribution to it leaves it bit for bit as it
// was. A node whose slot was never written still holds the pristine +0.0
// cotangent; when its op's ZeroSafe certificate says a zero cotangent yields
// only ±0 for its saved values, running its VJP would only add ±0, so it is
// skipped, unless it feeds o while o's seed holds -0.0 (adding +0 there would
// turn -0 into +0, so o's consumers are then visited). A node that is not
// zero-safe (its VJP may compute 0·∞ = NaN) is visited even on a zero
// cotangent, and the slots it writes count as written, so their producers
// are visited too. If an instruction taking part in the reverse pass has an
// op with no ZeroSafe certificate, BackwardFrom runs the dense pass. In the
// normal case (every certificate holds and the seed has no -0.0) it visits
// exactly o's dependencies: o and the instructions whose values reach o
// through operands that take gradients.
//
// Which instructions the pass visits never depends on gradient values, so
// Compiled.Plan lists them before it runs, each with its Reason (a
// dependency, not zero-safe, fed by such a visit, a consumer of a -0.0
// seed, or the dense fallback), and a Cursor steps them one at a time with
// the one-shot pass's seeding, plan and step code.
//
// # Linked session
//
// FromTape (FromSession) snapshots what an eager autograd.Session recorded
// as a Graph with its leaf tensors, TorchLean's linked session: compiling
// the snapshot gives the session's values, and its dense reverse pass
// equals Backprop and the session's own BackwardDenseFrom bit for bit.
package graph

import (
	"fmt"
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Graph is a typed SSA graph: Values in creation order, value id = index.
// Its fields are exported so that other front ends (the IR's lowering) can
// build one directly; every entry point checks a Graph (see Check) before
// using it.
type Graph struct {
	Values []Value
}

// Value is one SSA value. Kind says which of the other fields are used:
//
//   - autograd.Input, autograd.Param: Name, Shape, RequiresGrad (a buffer is
//     a Param that requires no gradient);
//   - autograd.Const: Const (its shape equals Shape), RequiresGrad false;
//   - autograd.OpNode: an instruction Op, Attrs, Args with output Shape;
//     RequiresGrad is true exactly when some operand that takes a gradient
//     requires one (the tape's rule).
type Value struct {
	Kind         autograd.Kind
	Name         string
	Shape        tensor.Shape
	RequiresGrad bool
	Const        *tensor.Tensor
	Op           *op.Op
	Attrs        op.Attrs
	Args         []int
}

// Len reports the number of values.
func (g *Graph) Len() int {
	if g == nil {
		return 0
	}
	return len(g.Values)
}

// Inputs returns the ids of the leaves (Input and Param values) in id order;
// Eval, Compile and the other entry points take one tensor per leaf in this
// order.
func (g *Graph) Inputs() []int {
	var ids []int
	for i := range g.Values {
		if isLeaf(g.Values[i].Kind) {
			ids = append(ids, i)
		}
	}
	return ids
}

func isLeaf(k autograd.Kind) bool { return k == autograd.Input || k == autograd.Param }

// Check reports the first reason the graph is not well formed and well
// typed: no values; a shape with a dimension below 1; a constant whose tensor
// is missing or does not match its shape; an instruction with no op, the
// wrong number of operands, an operand that is not an earlier value, a shape
// that differs from the op's shape rule, or a requires-grad flag that does
// not follow the tape's rule. The error is an *op.Error naming the value id,
// the op and the operand shapes.
func (g *Graph) Check() error {
	if g.Len() == 0 {
		return &op.Error{Node: -1, Op: "graph", Msg: "empty graph: it has no values"}
	}
	var in []tensor.Shape
	var out tensor.Shape
	for k := range g.Values {
		v := &g.Values[k]
		if !v.Shape.Valid() {
			return &op.Error{Node: k, Op: kindName(v), Shapes: []tensor.Shape{v.Shape}, Msg: "invalid shape: every dimension must be at least 1"}
		}
		switch v.Kind {
		case autograd.Input, autograd.Param:
		case autograd.Const:
			if c := v.Const; c == nil || !c.Shape.Equal(v.Shape) || len(c.Data) != v.Shape.Size() {
				return &op.Error{Node: k, Op: "const", Shapes: []tensor.Shape{v.Shape}, Msg: "constant tensor is missing or does not have the value's shape"}
			}
			if v.RequiresGrad {
				return &op.Error{Node: k, Op: "const", Shapes: []tensor.Shape{v.Shape}, Msg: "a constant cannot require a gradient"}
			}
		case autograd.OpNode:
			if err := checkOp(v.Op); err != nil {
				return op.AtNode(err, k)
			}
			in = in[:0]
			for j, p := range v.Args {
				if p < 0 || p >= k {
					return &op.Error{Node: k, Op: v.Op.Name, Msg: fmt.Sprintf("operand %d refers to value %d, which is not an earlier value (ids 0…%d)", j, p, k-1)}
				}
				in = append(in, g.Values[p].Shape)
			}
			s, err := v.Op.Shape(out, in, v.Attrs)
			if err != nil {
				return op.AtNode(err, k)
			}
			out = s
			if !s.Equal(v.Shape) {
				return &op.Error{Node: k, Op: v.Op.Name, Shapes: cloneShapes(in), Msg: fmt.Sprintf("recorded shape %v differs from the shape rule's %v", v.Shape, s)}
			}
			if want := requiresGrad(g.Values, v.Op, v.Args); v.RequiresGrad != want {
				return &op.Error{Node: k, Op: v.Op.Name, Shapes: cloneShapes(in), Msg: fmt.Sprintf("requires-grad is %v but its operands make it %v", v.RequiresGrad, want)}
			}
		default:
			return &op.Error{Node: k, Op: "value", Msg: fmt.Sprintf("unknown value kind %d", int(v.Kind))}
		}
	}
	return nil
}

// checkOp reports an op the graph cannot run.
func checkOp(o *op.Op) error {
	if o == nil {
		return &op.Error{Node: -1, Op: "<nil>", Msg: "instruction has no op"}
	}
	if o.Infer == nil || o.Forward == nil || o.VJP == nil || len(o.Operands) == 0 {
		return &op.Error{Node: -1, Op: o.Name, Msg: "op is incomplete: it needs operands, a shape rule, a forward and a VJP"}
	}
	return nil
}

// requiresGrad is the tape's rule: an instruction requires a gradient when
// some operand that takes a gradient requires one.
func requiresGrad(vals []Value, o *op.Op, args []int) bool {
	for j, p := range args {
		if o.Grads(j) && vals[p].RequiresGrad {
			return true
		}
	}
	return false
}

func kindName(v *Value) string {
	if v.Kind == autograd.OpNode && v.Op != nil {
		return v.Op.Name
	}
	return v.Kind.String()
}

func cloneShapes(in []tensor.Shape) []tensor.Shape {
	s := make([]tensor.Shape, len(in))
	for i, t := range in {
		s[i] = t.Clone()
	}
	return s
}

// String lists the graph one value per line, as the playground's compiled
// view shows it:
//
//	%0 = input "x" : [4 3]
//	%1 = param "w" : [3 1] grad
//	%2 = const : [] = 0.5
//	%3 = matmul %0 %1 : [4 1] grad
//
// Instructions show the attributes that are not zero in braces, e.g.
// scale{alpha=2}; "grad" marks values that require a gradient.
func (g *Graph) String() string {
	var b strings.Builder
	for k := range g.Values {
		v := &g.Values[k]
		fmt.Fprintf(&b, "%%%d = ", k)
		switch v.Kind {
		case autograd.Input, autograd.Param:
			fmt.Fprintf(&b, "%s %q", v.Kind, v.Name)
		case autograd.Const:
			b.WriteString("const")
		case autograd.OpNode:
			b.WriteString(kindName(v))
			b.WriteString(v.Attrs.String())
			for _, p := range v.Args {
				b.WriteString(" %")
				b.WriteString(strconv.Itoa(p))
			}
		default:
			fmt.Fprintf(&b, "kind(%d)", int(v.Kind))
		}
		b.WriteString(" : ")
		b.WriteString(v.Shape.String())
		if v.Kind == autograd.Const && v.Const != nil && len(v.Const.Data) <= 4 {
			b.WriteString(" = ")
			b.WriteString(strings.Trim(fmt.Sprint(v.Const.Data), "[]"))
		}
		if v.RequiresGrad {
			b.WriteString(" grad")
		}
		b.WriteByte('\n')
	}
	return b.String()
}
