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
	// Why says why, e.g. "log(0) = −∞" or "input already −∞: A[1] = −∞
	// came from node 3"; a backward reason starts with the contribution,
	// "dX[1] = +∞".
	Why string
	// From is the node the non-finite value came from when it only passed
	// through this step (an operand's value, or the value the gradient
	// flowed through), else -1: the step made it, or (backward) it came
	// with the cotangent dY.
	From int
}

// String says the fault in one line: "Y[1] = −∞: log(0) = −∞", or a
// backward fault's Why.
func (f Fault) String() string {
	if f.Backward {
		return f.Why
	}
	return "Y" + f.Elem + " = " + op.Num(f.Value) + ": " + f.Why
}

// ForwardFault reports the first non-finite element of node i's value and
// why, in format f; false when the value is finite. An elementwise op
// (op.Op.Why) explains the element from its operands' values there; any
// other op names its operands' first non-finite element, or their
// largest elements when none is (the result overflowed).
func (t *Tape) ForwardFault(i int, f op.Float) (Fault, bool) {
	return t.fault(i, -1, t.Node(i).Value, nil, f)
}

// BackwardFault reports the first non-finite element of the contributions
// cs that node k's VJP made from its cotangent dy, and why, in format f;
// false when they are all finite. The cotangent was already non-finite,
// or the gradient flowed through an infinite value (an operand's or the
// node's own), or the chain rule overflowed on finite numbers.
func (t *Tape) BackwardFault(k int, dy *tensor.Tensor, cs []Contribution, f op.Float) (Fault, bool) {
	for _, c := range cs {
		if ft, ok := t.fault(k, c.Operand, c.Value, dy, f); ok {
			return ft, true
		}
	}
	return Fault{}, false
}

// fault explains the first non-finite element of v: node k's value
// (operand < 0) or its VJP's contribution to operand, from dy.
func (t *Tape) fault(k, operand int, v, dy *tensor.Tensor, f op.Float) (Fault, bool) {
	e := op.FirstNonFinite(v)
	if e < 0 {
		return Fault{}, false
	}
	nd := t.Node(k)
	ft := Fault{Node: k, Backward: operand >= 0, Operand: max(operand, 0), Index: e, Elem: elem(v.Shape, e), Value: v.Data[e], From: -1}
	if nd.Op == nil {
		ft.Why = "the leaf holds it"
		return ft, true
	}
	// The values the step read, the cotangent first, and their nodes.
	var vals []*tensor.Tensor
	var names []string
	var nodes []int
	if ft.Backward {
		vals, names, nodes = append(vals, dy), append(names, "dY"), append(nodes, -1)
	}
	for j, p := range nd.Parents {
		vals, names, nodes = append(vals, t.Node(p).Value), append(names, t.operandName(k, j)), append(nodes, p)
	}
	if ft.Backward {
		vals, names, nodes = append(vals, nd.Value), append(names, "Y"), append(nodes, k)
	}
	ew := t.elementwise(k)
	// The first non-finite value read (at e when elementwise).
	bad, at := -1, -1
	for j, x := range vals {
		at = e
		if !ew {
			at = op.FirstNonFinite(x)
		} else if finite(x.Data[e]) {
			at = -1
		}
		if at >= 0 {
			bad = j
			break
		}
	}
	read, whence := "", ""
	if bad >= 0 {
		ft.From = nodes[bad]
		read = names[bad] + elem(vals[bad].Shape, at) + " = " + op.Num(vals[bad].Data[at])
		whence = strconv.Itoa(ft.From)
	}
	switch {
	case !ft.Backward && ew:
		x := make([]float64, len(nd.Parents))
		for j := range x {
			x[j] = vals[j].Data[e]
		}
		if len(x) > 1 || bad < 0 {
			ft.Why = nd.Op.Why(x, ft.Value, nd.Attrs, f)
		}
		switch {
		case bad < 0:
		case ft.Why == "":
			ft.Why = "input already " + op.Num(vals[bad].Data[e]) + ": " + read + " came from node " + whence
		default:
			ft.Why += " (" + read + " came from node " + whence + ")"
		}
	case !ft.Backward && bad >= 0:
		ft.Why = "input already NaN or ∞: " + read + " (from node " + whence + ")"
	case !ft.Backward:
		ft.Why = f.Name + " overflowed: no operand is NaN or ∞; the largest are " + list(vals, names, -1)
	default:
		d := "d" + t.operandName(k, operand) + ft.Elem + " = " + op.Num(ft.Value)
		switch {
		case bad == 0:
			ft.Why = d + ": the gradient arrived as " + read
		case ew:
			ft.Why = d + " by " + nd.Op.Rule + " at " + list(vals, names, e)
		case bad > 0:
			ft.Why = d + " (" + read + ")"
		default:
			ft.Why = d + " by " + nd.Op.Rule + ": " + f.Name + " overflowed; no value is NaN or ∞, the largest are " + list(vals, names, -1)
		}
		if bad > 0 {
			ft.Why += ": the gradient flows through an infinite value at node " + whence
		}
	}
	return ft, true
}

// list says each of vals at element e ("dY = 1, X = 0"), or, for e < 0,
// each one's largest element with its index ("A[0 1] = 1e+200").
func list(vals []*tensor.Tensor, names []string, e int) string {
	s := ""
	for j, v := range vals {
		if j > 0 {
			s += ", "
		}
		m, at := e, ""
		if e < 0 {
			m = 0
			for i, x := range v.Data {
				if abs(x) > abs(v.Data[m]) {
					m = i
				}
			}
			at = elem(v.Shape, m)
		}
		s += names[j] + at + " = " + op.Num(v.Data[m])
	}
	return s
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

// operandName names node k's operand j as its op does (A, B; X1, X2 … of
// a variadic op).
func (t *Tape) operandName(k, j int) string {
	o := t.Node(k).Op
	if j < len(o.Operands) && !o.Variadic {
		return o.Operands[j].Name
	}
	return o.Operands[0].Name + strconv.Itoa(j+1)
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
