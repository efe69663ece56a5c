package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

// Adj is one VJP to record as ops (PyTorch's create_graph=True): the op's
// application whose VJP is wanted and the backend to record on. Every value
// is a value of Ops. RecordVJP records, one node per op, the same
// contributions the op's numeric VJP computes, so that the recorded
// backward pass can itself be differentiated.
type Adj struct {
	// Ops is the backend the VJP is recorded on.
	Ops Ops
	// Attrs are the attributes of the application.
	Attrs Attrs
	// DY is the cotangent of the output, Y the output.
	DY, Y Value
	// X holds the operands, In their shapes and Out the output's shape.
	X   []Value
	In  []tensor.Shape
	Out tensor.Shape
	// Want[i] reports whether operand i's contribution is wanted.
	Want []bool
}

// adjoint records an op's VJP on j.Ops; it returns one value per operand,
// NoValue where the contribution is not wanted or is zero.
type adjoint func(j *Adj) []Value

// NotRecordable is the error RecordVJP returns for an op whose VJP is not
// (yet) written as ops: grad cannot differentiate through it.
type NotRecordable struct{ Op string }

func (e *NotRecordable) Error() string {
	return fmt.Sprintf("%s: its VJP is not written as ops, so grad cannot differentiate through it", e.Op)
}

// Recordable reports whether RecordVJP can record o's VJP.
func (o *Op) Recordable() bool { return adjoints[o.Name] != nil }

// RecordVJP records o's VJP for the application j as ops on j.Ops and
// returns each operand's contribution: NoValue where it is not wanted, the
// operand receives no gradient (NoGrad) or the contribution is zero. An op
// whose VJP is not written as ops is a *NotRecordable error. Each recorded
// VJP equals the op's numeric VJP up to rounding (engine/op's
// TestRecordedVJPEqualsVJP holds them within 1e-12 relative).
func (o *Op) RecordVJP(j *Adj) ([]Value, error) {
	f := adjoints[o.Name]
	if f == nil {
		return nil, &NotRecordable{Op: o.Name}
	}
	want := make([]bool, len(j.X))
	for i := range want {
		want[i] = i < len(j.Want) && j.Want[i] && o.Grads(i)
	}
	k := *j
	k.Want = want
	out := f(&k)
	for i := range out {
		if !want[i] {
			out[i] = NoValue
		}
	}
	return out, nil
}

// none returns n NoValues: an application with no contribution yet.
func none(n int) []Value {
	v := make([]Value, n)
	for i := range v {
		v[i] = NoValue
	}
	return v
}

// full records a constant of shape s filled with v.
func (j *Adj) full(s tensor.Shape, v float64) Value {
	t := tensor.Zeros(s)
	t.Fill(v)
	return j.Ops.Const(t)
}

// apply records p on the operands with attributes a. It is not inlined:
// with the tensor package's noinline helpers, inlining it at its 130 call
// sites only lengthened the playground's wasm (engine/tensor's doc).
//
//go:noinline
func (j *Adj) apply(p *Op, a Attrs, xs ...Value) Value { return Call(j.Ops, p, a, xs...) }

func (j *Adj) mul(a, b Value) Value { return j.apply(mulOp, Attrs{}, a, b) }

func (j *Adj) scale(x Value, c float64) Value { return j.apply(scaleOp, Attrs{Alpha: c}, x) }

func (j *Adj) reshape(x Value, s tensor.Shape) Value {
	return j.apply(reshapeOp, Attrs{Shape: s.Clone()}, x)
}

func (j *Adj) broadcast(x Value, s tensor.Shape) Value {
	return j.apply(broadcastToOp, Attrs{Shape: s.Clone()}, x)
}

// spread broadcasts a scalar g to shape s (g itself when s is a scalar).
func (j *Adj) spread(g Value, s tensor.Shape) Value {
	if len(s) == 0 {
		return g
	}
	return j.broadcast(g, s)
}

// rowsBack broadcasts r, a value of shape s without its axis k, back
// along axis k to s (keepdim, then broadcast).
func (j *Adj) rowsBack(r Value, s tensor.Shape, k int) Value {
	keep := s.Clone()
	keep[k] = 1
	return j.broadcast(j.reshape(r, keep), s)
}

// sumTo sums g of shape from over the axes broadcast_to repeated to make
// it from shape to, and reshapes the result to to.
func (j *Adj) sumTo(g Value, from, to tensor.Shape) Value {
	off := len(from) - len(to)
	cur := from.Clone()
	for k := len(from) - 1; k >= 0; k-- {
		if k < off || to[k-off] == 1 && from[k] != 1 {
			g = j.apply(reduceSumOp, Attrs{Axis: k}, g)
			cur = append(cur[:k:k], cur[k+1:]...)
		}
	}
	if !cur.Equal(to) {
		g = j.reshape(g, to)
	}
	return g
}
