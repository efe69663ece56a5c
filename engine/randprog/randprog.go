// Package randprog generates random well-typed programs over the op
// catalogue, with their inputs, for property tests and fuzzing: the same
// op.Program can run on autograd.Session and through graph.Builder.
//
// Programs draw ops from op.All() (or a chosen list) through a table of
// recipes keyed by op name that know how to feed each op (shapes, attributes,
// class indices); an op without a recipe is fed by a generic one that tries
// operands of one shape, then of any shape, and keeps the first choice the
// op's shape rule accepts. Values are computed while generating (with
// op.Op.Eval), so a default program never leaves an op's domain.
//
// Generated programs have fan-in and fan-out, reuse one value in several
// nodes and twice in one node, leave branches unreachable from the output,
// hold constants, and (unless Config.Finite) produce -0.0, ±Inf and NaN
// through ordinary IEEE arithmetic: inputs hold -0.0, ±Inf, NaN and numbers
// near the overflow and underflow limits.
package randprog

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Config selects what Generate produces. The zero value is the default: a
// random number of steps over every op of the catalogue, special IEEE values
// included, no domain faults.
type Config struct {
	// Ops lists the ops to draw from; nil means op.All().
	Ops []*op.Op
	// Steps is the number of op applications; 0 means a random number in
	// [1, 20]. Constants the recipes create come on top.
	Steps int
	// Finite keeps inputs and constants to moderate finite numbers (no
	// -0.0, ±Inf, NaN or extreme magnitudes).
	Finite bool
	// Faults lets about half of the applications of an op with a domain
	// check use operands outside the domain; Case.Fault names the first.
	Faults bool
}

// Input is one leaf of a generated program.
type Input struct {
	Name  string
	Value *tensor.Tensor
	// RequiresGrad says whether the leaf is a parameter (true) or data.
	RequiresGrad bool
}

// Case is a generated program with its inputs.
//
// Value ids: a backend that numbers the inputs first (0 … len(Inputs)−1) and
// then one value per call the program makes (Const, Apply, ApplyN), as
// autograd.Session and graph.Builder do, gives the ids used here.
type Case struct {
	// Program records the steps on any op.Ops backend, given one value per
	// input, and returns the value of its last op application. It returns
	// op.NoValue, recording nothing, when len(in) != len(Inputs).
	Program op.Program
	Inputs  []Input
	// Output is the id of the value Program returns.
	Output int
	// Fault is the id of the first op application whose operands lie
	// outside its op's domain, or -1 when there is none (always -1 unless
	// Config.Faults).
	Fault int
	// Applied lists the names of the ops applied, in program order.
	Applied []string

	steps []step
}

// step is one call of the program: a constant or an op application.
type step struct {
	konst *tensor.Tensor // a constant, or nil
	op    *op.Op
	attrs op.Attrs
	args  []int // ids of the operands
	shape tensor.Shape
	fault bool
}

// Tensors returns the input tensors in order.
func (c *Case) Tensors() []*tensor.Tensor {
	ts := make([]*tensor.Tensor, len(c.Inputs))
	for i, in := range c.Inputs {
		ts[i] = in.Value
	}
	return ts
}

// String lists the program, one value per line, for test failure messages.
func (c *Case) String() string {
	var b strings.Builder
	for i, in := range c.Inputs {
		kind := "input"
		if in.RequiresGrad {
			kind = "param"
		}
		fmt.Fprintf(&b, "%%%d = %s %q = %v\n", i, kind, in.Name, in.Value)
	}
	n := len(c.Inputs)
	for j, s := range c.steps {
		fmt.Fprintf(&b, "%%%d = ", n+j)
		if s.konst != nil {
			fmt.Fprintf(&b, "const %v\n", s.konst)
			continue
		}
		b.WriteString(s.op.Name)
		b.WriteString(s.attrs.String())
		for _, a := range s.args {
			fmt.Fprintf(&b, " %%%d", a)
		}
		fmt.Fprintf(&b, " : %v", s.shape)
		if s.fault {
			b.WriteString("   (outside its domain)")
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// Generate returns the program the seed determines for cfg (the same seed,
// config and catalogue give the same program). It returns nil when cfg.Ops
// is empty (not nil) or holds no op the generator can feed.
func Generate(seed uint64, cfg Config) *Case {
	ops := cfg.Ops
	if ops == nil {
		ops = op.All()
	}
	if len(ops) == 0 {
		return nil
	}
	g := &gen{r: rand.New(rand.NewPCG(seed, 0x9e3779b97f4a7c15)), cfg: cfg}
	steps := cfg.Steps
	if steps <= 0 {
		steps = 1 + g.r.IntN(20)
	}
	// a few leaves to start from; recipes add more as they need them
	for n := 1 + g.r.IntN(3); n > 0; n-- {
		g.newLeaf(g.randShape(), g.r.IntN(4) != 0)
	}
	applied := 0
	for tries := 0; applied < steps && tries < 20*steps; tries++ {
		if g.tryApply(ops[g.r.IntN(len(ops))]) {
			applied++
		}
	}
	if applied == 0 {
		return nil
	}
	return g.finish()
}

// finish numbers the values (inputs first, then steps) and builds the Case.
func (g *gen) finish() *Case {
	nIn := len(g.inputs)
	id := func(r ref) int {
		if r.input {
			return r.i
		}
		return nIn + r.i
	}
	c := &Case{Inputs: g.inputs, Fault: -1}
	for j := range g.steps {
		s := g.steps[j]
		if s.konst == nil {
			args := make([]int, len(g.stepRefs[j]))
			for k, r := range g.stepRefs[j] {
				args[k] = id(r)
			}
			s.args = args
			c.Applied = append(c.Applied, s.op.Name)
			c.Output = nIn + j
			if s.fault && c.Fault < 0 {
				c.Fault = nIn + j
			}
		}
		c.steps = append(c.steps, s)
	}
	steps := c.steps
	c.Program = func(o op.Ops, in []op.Value) op.Value {
		if len(in) != nIn {
			return op.NoValue
		}
		vals := make([]op.Value, nIn+len(steps))
		copy(vals, in)
		var args []op.Value
		for j, s := range steps {
			if s.konst != nil {
				vals[nIn+j] = o.Const(s.konst)
				continue
			}
			args = args[:0]
			for _, a := range s.args {
				args = append(args, vals[a])
			}
			vals[nIn+j] = op.Call(o, s.op, s.attrs, args...)
		}
		return vals[len(vals)-1-trailingConsts(steps)]
	}
	return c
}

// trailingConsts counts the constants after the last op application.
func trailingConsts(steps []step) int {
	n := 0
	for i := len(steps) - 1; i >= 0 && steps[i].konst != nil; i-- {
		n++
	}
	return n
}
