// Package tapetest is the float32-storage reference the precision tests
// compare the engine with: a tape's values and gradients recomputed the
// plain way, one node at a time from the catalogue's Forward and VJP, with
// every leaf, value, contribution and sum rounded to the chosen precision
// by its own code (not the engine's rounding), so that a rounding the
// engine forgets or adds shows in the bits.
package tapetest

import (
	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// round returns a copy of x rounded to precision p elementwise (Go's
// float32 conversion rounds to nearest, ties to even).
func round(x *tensor.Tensor, p tensor.Precision) *tensor.Tensor {
	y := x.Clone()
	if p == tensor.Float32 {
		for i, v := range y.Data {
			y.Data[i] = float64(float32(v))
		}
	}
	return y
}

// Values recomputes every node of t in precision p from the values of
// t's leaves (the caller's tensors on a float64 tape; they are not
// changed): each leaf rounded; each op node its op's Forward on its
// operands' recomputed values, rounded; a fused node (autograd.Node.Act)
// its op, rounded, then its activation, rounded. pres holds each fused
// node's recomputed Pre (nil elsewhere).
func Values(t *autograd.Tape, p tensor.Precision) (vals, pres []*tensor.Tensor) {
	vals, pres = make([]*tensor.Tensor, t.Len()), make([]*tensor.Tensor, t.Len())
	for k := range vals {
		nd := t.Node(k)
		if nd.Op == nil {
			vals[k] = round(nd.Value, p)
			continue
		}
		xs := make([]*tensor.Tensor, len(nd.Parents))
		for j, q := range nd.Parents {
			xs[j] = vals[q]
		}
		if nd.Act == nil {
			vals[k] = run(nd.Op, nd.Attrs, xs, nd.Value.Shape, p)
			continue
		}
		pres[k] = run(nd.Op, nd.Attrs, xs, nd.Pre.Shape, p)
		vals[k] = run(nd.Act, nd.ActAttrs, []*tensor.Tensor{pres[k]}, nd.Value.Shape, p)
	}
	return vals, pres
}

// run is o's Forward into a fresh tensor of the given shape, rounded.
func run(o *op.Op, a op.Attrs, xs []*tensor.Tensor, shape tensor.Shape, p tensor.Precision) *tensor.Tensor {
	y := tensor.Zeros(shape)
	o.Forward(y, xs, a)
	return round(y, p)
}

// Grads recomputes autograd.Tape.BackwardDense from node out seeded with
// seed over the values from Values: ids from out down, each node reached
// that requires a gradient runs its VJP on its gradient (a fused node: its
// activation's VJP, rounded, then its op's), each contribution is rounded,
// then stored in an empty slot as is or added to the slot's gradient
// (existing + new) and the sum rounded. Slots never reached are nil.
func Grads(t *autograd.Tape, vals, pres []*tensor.Tensor, out int, seed *tensor.Tensor, p tensor.Precision) []*tensor.Tensor {
	gr := make([]*tensor.Tensor, len(vals))
	gr[out] = round(seed, p)
	for k := out; k >= 0; k-- {
		nd := t.Node(k)
		if gr[k] == nil || nd.Op == nil || !nd.RequiresGrad {
			continue
		}
		xs := make([]*tensor.Tensor, len(nd.Parents))
		dx := make([]*tensor.Tensor, len(nd.Parents))
		for j, q := range nd.Parents {
			xs[j] = vals[q]
			if nd.Op.Grads(j) && t.Node(q).RequiresGrad {
				dx[j] = tensor.Zeros(vals[q].Shape)
			}
		}
		dy, y := gr[k], vals[k]
		if nd.Act != nil {
			d := tensor.Zeros(pres[k].Shape)
			nd.Act.VJP([]*tensor.Tensor{d}, dy, y, []*tensor.Tensor{pres[k]}, nd.ActAttrs)
			dy, y = round(d, p), pres[k]
		}
		nd.Op.VJP(dx, dy, y, xs, nd.Attrs)
		for j, q := range nd.Parents {
			if dx[j] == nil {
				continue
			}
			c := round(dx[j], p)
			if gr[q] == nil {
				gr[q] = c
				continue
			}
			for i := range c.Data {
				c.Data[i] = gr[q].Data[i] + c.Data[i]
			}
			gr[q] = round(c, p)
		}
	}
	return gr
}
