package graph

import (
	"errors"
	"fmt"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Compiled is the result of CompileChecked, TorchLean's Compiled{inputs,
// saved VJPs, context}: every value of the graph evaluated once for one set
// of inputs, with what each instruction's VJP needs (its op, attributes,
// operands and output) saved, so that reverse passes run without the graph.
// A Compiled reuses its gradient buffers from one pass to the next and is
// not safe for concurrent use.
type Compiled struct {
	nodes []saved
	vals  []*tensor.Tensor // the context: every value
	prec  tensor.Precision
	// uncertified is set when some instruction of the reverse pass has an
	// op with no ZeroSafe certificate; BackwardFrom then runs densely.
	uncertified bool

	// buffers reused across passes
	grads []*tensor.Tensor
	// passes counts the passes started on the buffers, so that a Cursor
	// notices when another pass took them over
	passes uint64
	visits []Visit // BackwardFrom's plan
	mark   []uint8 // plan: per value, pristine, dependency or fed
	by     []int   // plan: per fed value, the visit that fed it first
	// written marks the slots the last pass wrote (all of them when
	// allWritten), so that the next pass clears only those
	written     []bool
	writtenList []int
	allWritten  bool
	xs          []*tensor.Tensor
	dx          []*tensor.Tensor
}

// saved is one value's saved state.
type saved struct {
	kind         autograd.Kind
	name         string
	op           *op.Op
	attrs        op.Attrs
	args         []int
	requiresGrad bool
	// wants[j] says whether operand j receives a contribution.
	wants []bool
	// zeroSafe caches the op's ZeroSafe certificate on the saved values.
	zeroSafe bool
	// contrib holds one VJP output buffer per wanted operand.
	contrib []*tensor.Tensor
}

// CompileChecked is TorchLean's compileChecked: in one pass over g it checks
// each instruction's domain (op.Op.Check) on its operand values before
// evaluating it, evaluates it once and saves what its VJP needs. It fails
// exactly where LowerChecked fails, with the same *op.Error naming the
// value id, the op and the operand shapes.
func CompileChecked(g *Graph, inputs []*tensor.Tensor) (*Compiled, error) {
	return CompileCheckedAt(g, inputs, tensor.Float64)
}

// CompileCheckedAt is CompileChecked in precision p (see
// autograd.Tape.SetPrecision): in tensor.Float32 the leaves and constants
// are float32 roundings of the inputs (which are not changed), each value
// is rounded after its op, domains are checked on the rounded operands,
// and every reverse pass and cursor over c rounds each contribution, seed
// and sum, so that c stays bit-identical to an eager float32 tape. It fails
// exactly where LowerCheckedAt fails.
func CompileCheckedAt(g *Graph, inputs []*tensor.Tensor, p tensor.Precision) (*Compiled, error) {
	if err := checkInputs(g, inputs); err != nil {
		return nil, err
	}
	c := &Compiled{nodes: make([]saved, len(g.Values)), vals: make([]*tensor.Tensor, len(g.Values)), prec: p}
	next := 0
	for k := range g.Values {
		v := &g.Values[k]
		s := &c.nodes[k]
		s.kind, s.name, s.requiresGrad = v.Kind, v.Name, v.RequiresGrad
		switch v.Kind {
		case autograd.Input, autograd.Param:
			c.vals[k] = c.enter(inputs[next])
			next++
		case autograd.Const:
			c.vals[k] = c.enter(v.Const)
		default:
			xs := make([]*tensor.Tensor, len(v.Args))
			for j, p := range v.Args {
				xs[j] = c.vals[p]
			}
			if err := v.Op.Check(xs, v.Attrs); err != nil {
				return nil, op.AtNode(err, k)
			}
			y := tensor.Zeros(v.Shape)
			v.Op.Forward(y, xs, v.Attrs)
			p.Round(y)
			c.vals[k] = y
			s.op, s.attrs, s.args = v.Op, v.Attrs, append([]int(nil), v.Args...)
			if !s.requiresGrad {
				continue
			}
			s.wants = make([]bool, len(v.Args))
			s.contrib = make([]*tensor.Tensor, len(v.Args))
			for j, p := range v.Args {
				if v.Op.Grads(j) && g.Values[p].RequiresGrad {
					s.wants[j] = true
					s.contrib[j] = tensor.Zeros(g.Values[p].Shape)
				}
			}
			if v.Op.ZeroSafe == nil {
				c.uncertified = true
			} else {
				s.zeroSafe = v.Op.ZeroSafe(y, xs, v.Attrs)
			}
		}
	}
	return c, nil
}

// enter returns a leaf's value in c's precision: x itself in float64, a
// rounded copy in float32.
func (c *Compiled) enter(x *tensor.Tensor) *tensor.Tensor {
	if c.prec == tensor.Float64 {
		return x
	}
	y := x.Clone()
	c.prec.Round(y)
	return y
}

// Precision reports the precision c was compiled in.
func (c *Compiled) Precision() tensor.Precision {
	if c == nil {
		return tensor.Float64
	}
	return c.prec
}

// Len reports the number of values.
func (c *Compiled) Len() int {
	if c == nil {
		return 0
	}
	return len(c.vals)
}

// Values returns every value of the graph for the compiled inputs (the
// context). The slice and tensors belong to c and must not be modified.
func (c *Compiled) Values() []*tensor.Tensor {
	if c == nil {
		return nil
	}
	return c.vals
}

// Certified reports whether every instruction of the reverse pass has a
// ZeroSafe certificate, so that BackwardFrom can skip nodes; when it is
// false BackwardFrom runs the dense pass.
func (c *Compiled) Certified() bool { return c != nil && !c.uncertified }

// Tape materialises c as an autograd.Tape (TorchLean's toTape): one node per
// value with the same id, holding c's value tensors (shared, not copied),
// in c's precision. Each call returns a new tape.
func (c *Compiled) Tape() *autograd.Tape {
	t := &autograd.Tape{}
	if c == nil {
		return t
	}
	for k := range c.nodes {
		s := &c.nodes[k]
		if s.kind == autograd.OpNode {
			t.Record(s.op, s.attrs, s.args, c.vals[k])
		} else {
			t.Leaf(c.vals[k], s.name, s.kind, s.requiresGrad)
		}
	}
	t.SetPrecision(c.prec) // after recording: the values are rounded already
	return t
}

var errNilCompiled = errors.New("graph: nil *Compiled (CompileChecked failed?)")

func (c *Compiled) outOfRange(output int) error {
	return &op.Error{Node: output, Op: "output", Msg: fmt.Sprintf("value %d does not exist (the graph has %d values, ids 0…%d)", output, len(c.vals), len(c.vals)-1)}
}

func (c *Compiled) packError(n int) error {
	return &op.Error{Node: -1, Op: "seeds", Msg: fmt.Sprintf("a seed pack needs one seed per value: the graph has %d values, got %d seeds", len(c.vals), n)}
}
