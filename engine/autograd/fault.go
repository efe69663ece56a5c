package autograd

import (
	"strconv"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Fault says where one step of a tape first produced a NaN or infinite
// element, and why, from the values the step read.
type Fault struct {
	// Node is the node whose step produced it: its forward value, or
	// (Backward) its VJP's contribution to its operand Operand.
	Node     int
	Backward bool
	Operand  int
	// Index is the element's flat index; Elem its multi-index, e.g.
	// "[0 1]" ("" in a scalar).
	Index int
	Elem  string
	Value float64
	// Why says why, e.g. "log(0) = −∞" or "input already NaN (from node 3)".
	Why string
	// From is the node the non-finite value came from when it only passed
	// through this step (an operand's value, or the value the gradient
	// flowed through), else -1: the step made it.
	From int
}

// ForwardFault reports the first non-finite element of node i's value and
// why, in format f; false when the value is finite. An elementwise op
// (op.Op.Why) explains the element from its operands' values there; any
// other op names its operands' first non-finite elements, or their
// largest values when none is (the result overflowed).
func (t *Tape) ForwardFault(i int, f op.Float) (Fault, bool) {
	nd := t.Node(i)
	e := op.FirstNonFinite(nd.Value)
	if e < 0 {
		return Fault{}, false
	}
	ft := Fault{Node: i, Index: e, Elem: elem(nd.Value.Shape, e), Value: nd.Value.Data[e], From: -1}
	if nd.Op == nil {
		ft.Why = "the leaf holds it"
		return ft, true
	}
	names := t.operandNames(i)
	if t.elementwise(i) {
		x := make([]float64, len(nd.Parents))
		for k, p := range nd.Parents {
			x[k] = t.Node(p).Value.Data[e]
		}
		ft.Why = nd.Op.Why(x, ft.Value, nd.Attrs, f)
		for k, v := range x {
			if !finite(v) {
				ft.From = nd.Parents[k]
				came := names[k] + ft.Elem + " = " + op.Num(v) + " came from node " + strconv.Itoa(ft.From)
				if ft.Why == "" {
					ft.Why = "input already " + op.Num(v) + ": " + came
				} else {
					ft.Why += " (" + came + ")"
				}
				break
			}
		}
		return ft, true
	}
	ft.Why, ft.From = t.spread(i, names, nil)
	if ft.From >= 0 {
		ft.Why = "input already NaN or ∞: " + ft.Why
	} else {
		ft.Why = f.Name + " overflowed: no operand is NaN or ∞; the largest are " + ft.Why
	}
	return ft, true
}

// BackwardFault reports the first non-finite element of the contributions
// cs that node k's VJP made from its cotangent dy, and why, in format f;
// false when they are all finite. The gradient was already non-finite
// (dY), or flowed through an infinite value (the node's value or an
// operand's), or the chain rule overflowed on finite numbers.
func (t *Tape) BackwardFault(k int, dy *tensor.Tensor, cs []Contribution, f op.Float) (Fault, bool) {
	nd := t.Node(k)
	for _, c := range cs {
		e := op.FirstNonFinite(c.Value)
		if e < 0 {
			continue
		}
		ft := Fault{Node: k, Backward: true, Operand: c.Operand, Index: e, Elem: elem(c.Value.Shape, e), Value: c.Value.Data[e], From: -1}
		names := t.operandNames(k)
		d := "d" + names[c.Operand] + ft.Elem + " = " + op.Num(ft.Value)
		if nd.Op == nil {
			ft.Why = d
			return ft, true
		}
		if t.elementwise(k) {
			g := dy.Data[e]
			if !finite(g) {
				ft.Why = d + ": dY" + ft.Elem + " is already " + op.Num(g)
				return ft, true
			}
			vals := "dY = " + op.Num(g)
			for j, p := range nd.Parents {
				v := t.Node(p).Value.Data[e]
				vals += ", " + names[j] + " = " + op.Num(v)
				if !finite(v) && ft.From < 0 {
					ft.From = p
				}
			}
			y := nd.Value.Data[e]
			vals += ", Y = " + op.Num(y)
			ft.Why = d + " by " + nd.Op.Rule + " at " + vals
			if !finite(y) && ft.From < 0 {
				ft.From = k
			}
			if ft.From >= 0 {
				ft.Why += ": the gradient flows through an infinite value at node " + strconv.Itoa(ft.From)
			}
			return ft, true
		}
		if j := op.FirstNonFinite(dy); j >= 0 {
			ft.Why = d + ": dY" + elem(dy.Shape, j) + " is already " + op.Num(dy.Data[j])
			return ft, true
		}
		why, from := t.spread(k, names, nd.Value)
		if from >= 0 {
			ft.Why, ft.From = d+": the gradient flows through an infinite value at node "+strconv.Itoa(from)+" ("+why+")", from
			return ft, true
		}
		ft.Why = d + " by " + nd.Op.Rule + ": " + f.Name + " overflowed; no value is NaN or ∞, the largest are " + why
		return ft, true
	}
	return Fault{}, false
}

// elementwise reports whether node k's op explains an element from its
// operands' elements at the same index (op.Op.Why, every shape equal).
func (t *Tape) elementwise(k int) bool {
	nd := t.Node(k)
	if nd.Op == nil || nd.Op.Why == nil || nd.Act != nil {
		return false
	}
	for _, p := range nd.Parents {
		if !t.Node(p).Value.Shape.Equal(nd.Value.Shape) {
			return false
		}
	}
	return true
}

// operandNames names node k's operands as its op does (A, B; X1, X2 … of
// a variadic op).
func (t *Tape) operandNames(k int) []string {
	nd := t.Node(k)
	out := make([]string, len(nd.Parents))
	for j := range out {
		switch {
		case nd.Op == nil:
			out[j] = "X"
		case j < len(nd.Op.Operands) && !nd.Op.Variadic:
			out[j] = nd.Op.Operands[j].Name
		default:
			out[j] = nd.Op.Operands[0].Name + strconv.Itoa(j+1)
		}
	}
	return out
}

// spread names the first non-finite element among node k's operands (and
// y, the node's own value, when not nil) with the node it came from; when
// all are finite it lists each one's largest element instead, with from
// -1.
func (t *Tape) spread(k int, names []string, y *tensor.Tensor) (why string, from int) {
	nd := t.Node(k)
	vals := make([]*tensor.Tensor, 0, len(nd.Parents)+1)
	nodes := make([]int, 0, cap(vals))
	for _, p := range nd.Parents {
		vals, nodes = append(vals, t.Node(p).Value), append(nodes, p)
	}
	if y != nil {
		vals, nodes, names = append(vals, y), append(nodes, k), append(names, "Y")
	}
	for j, v := range vals {
		if e := op.FirstNonFinite(v); e >= 0 {
			return names[j] + elem(v.Shape, e) + " = " + op.Num(v.Data[e]) + " (from node " + strconv.Itoa(nodes[j]) + ")", nodes[j]
		}
	}
	for j, v := range vals {
		if j > 0 {
			why += ", "
		}
		m := 0
		for e, x := range v.Data {
			if abs(x) > abs(v.Data[m]) {
				m = e
			}
		}
		if len(v.Data) > 0 {
			why += names[j] + elem(v.Shape, m) + " = " + op.Num(v.Data[m])
		}
	}
	return why, -1
}

// elem is the multi-index of flat position i in shape s, "" in a scalar.
func elem(s tensor.Shape, i int) string {
	if len(s) == 0 {
		return ""
	}
	return op.Index(s, i)
}

func finite(v float64) bool { return v-v == 0 }

func abs(v float64) float64 {
	if v < 0 {
		return -v
	}
	return v
}
