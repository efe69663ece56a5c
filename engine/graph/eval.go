package graph

import (
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Eval is the reference forward semantics (TorchLean's eval): it checks g and
// the inputs (one per leaf, in the order of Graph.Inputs) and returns every
// value, leaves and constants included. Leaves and constants are returned as
// given (not copied); each instruction's value is freshly allocated. Domains
// are not checked: an op outside its domain gives what its kernel gives (NaN,
// ±Inf); CompileChecked is the checked path.
func Eval(g *Graph, inputs []*tensor.Tensor) ([]*tensor.Tensor, error) {
	if err := checkInputs(g, inputs); err != nil {
		return nil, err
	}
	vals := make([]*tensor.Tensor, len(g.Values))
	next := 0
	for k := range g.Values {
		v := &g.Values[k]
		switch v.Kind {
		case autograd.Input, autograd.Param:
			vals[k] = inputs[next]
			next++
		case autograd.Const:
			vals[k] = v.Const
		default:
			xs := make([]*tensor.Tensor, len(v.Args))
			for j, p := range v.Args {
				xs[j] = vals[p]
			}
			y := tensor.Zeros(v.Shape)
			v.Op.Forward(y, xs, v.Attrs)
			vals[k] = y
		}
	}
	return vals, nil
}

// Backprop is the reference reverse semantics, TorchLean's backpropAllCtx
// with the operand-only dense rule of the package doc, written without the
// tape. seeds holds one cotangent per value (a seed pack); Backprop returns
// every value's final gradient. It peels the graph from its last value: that
// value's seed is now final; if it is an instruction requiring a gradient,
// its VJP runs on it over the evaluated context, and each contribution is
// added into the seed of its operand in operand order (seed + contribution);
// then the prefix is processed the same way. Leaves, constants and values
// requiring no gradient keep their seeds and pass nothing on.
func Backprop(g *Graph, inputs, seeds []*tensor.Tensor) ([]*tensor.Tensor, error) {
	ctx, err := Eval(g, inputs)
	if err != nil {
		return nil, err
	}
	if err := checkSeeds(g, seeds); err != nil {
		return nil, err
	}
	// pending holds the seeds of the prefix still to be peeled.
	pending := make([]*tensor.Tensor, len(seeds))
	for i, s := range seeds {
		pending[i] = s.Clone()
	}
	final := make([]*tensor.Tensor, len(seeds))
	for n := len(pending); n > 0; n-- {
		last := n - 1
		seedOut := pending[last]
		pending = pending[:last]
		final[last] = seedOut
		v := &g.Values[last]
		if v.Kind != autograd.OpNode || !v.RequiresGrad {
			continue
		}
		xs := make([]*tensor.Tensor, len(v.Args))
		dx := make([]*tensor.Tensor, len(v.Args))
		for j, p := range v.Args {
			xs[j] = ctx[p]
			if v.Op.Grads(j) && g.Values[p].RequiresGrad {
				dx[j] = tensor.Zeros(g.Values[p].Shape)
			}
		}
		v.Op.VJP(dx, seedOut, ctx[last], xs, v.Attrs)
		for j, p := range v.Args {
			if dx[j] != nil {
				pending[p] = plus(pending[p], dx[j])
			}
		}
	}
	return final, nil
}

// plus returns a fresh a + b (elementwise, a on the left).
func plus(a, b *tensor.Tensor) *tensor.Tensor {
	s := tensor.Zeros(a.Shape)
	for i := range s.Data {
		s.Data[i] = a.Data[i] + b.Data[i]
	}
	return s
}

// checkInputs checks g and that inputs holds one tensor of the right shape
// per leaf.
func checkInputs(g *Graph, inputs []*tensor.Tensor) error {
	if err := g.Check(); err != nil {
		return err
	}
	leaves := g.Inputs()
	if len(inputs) != len(leaves) {
		return &op.Error{Node: -1, Op: "inputs", Msg: fmt.Sprintf("the graph has %d inputs, got %d tensors", len(leaves), len(inputs))}
	}
	for i, id := range leaves {
		v := &g.Values[id]
		t := inputs[i]
		if t == nil {
			return &op.Error{Node: id, Op: v.Kind.String(), Shapes: []tensor.Shape{v.Shape}, Msg: fmt.Sprintf("input %d (%q) is missing", i, v.Name)}
		}
		if !t.Shape.Equal(v.Shape) || len(t.Data) != v.Shape.Size() {
			return &op.Error{Node: id, Op: v.Kind.String(), Shapes: []tensor.Shape{v.Shape, t.Shape}, Msg: fmt.Sprintf("input %d (%q) needs shape %v, got a tensor of shape %v with %d values", i, v.Name, v.Shape, t.Shape, len(t.Data))}
		}
	}
	return nil
}

// checkSeeds checks that seeds holds one tensor of the right shape per value.
func checkSeeds(g *Graph, seeds []*tensor.Tensor) error {
	if len(seeds) != len(g.Values) {
		return &op.Error{Node: -1, Op: "seeds", Msg: fmt.Sprintf("a seed pack needs one seed per value: the graph has %d values, got %d seeds", len(g.Values), len(seeds))}
	}
	for k, s := range seeds {
		if err := checkSeed(k, kindName(&g.Values[k]), g.Values[k].Shape, s); err != nil {
			return err
		}
	}
	return nil
}

// checkSeed checks that seed s fits value k of the given shape.
func checkSeed(k int, name string, shape tensor.Shape, s *tensor.Tensor) error {
	if s == nil {
		return &op.Error{Node: k, Op: name, Shapes: []tensor.Shape{shape}, Msg: "seed is missing"}
	}
	if !s.Shape.Equal(shape) || len(s.Data) != shape.Size() {
		return &op.Error{Node: k, Op: name, Shapes: []tensor.Shape{shape, s.Shape}, Msg: fmt.Sprintf("seed has shape %v (%d values), the value has shape %v", s.Shape, len(s.Data), shape)}
	}
	return nil
}
