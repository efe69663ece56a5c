package program

import (
	"errors"

	"tapelab/engine/autograd"
	"tapelab/engine/graph"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Program is a parsed and checked program. Its nodes are numbered as
// autograd.Session and graph.Builder number them when Run records it after
// its leaves: the leaves first (0 … len(Leaves())−1, in statement order),
// then one node per constant and op application, in evaluation order.
type Program struct {
	stmts   []Stmt
	leaves  []Leaf
	steps   []step
	shapes  []tensor.Shape // per node
	names   []string       // per node: the variable it is assigned to, or ""
	pos     []Pos          // per node: where in the text it comes from
	origins []Origin       // per node: the grad and VJP rule that recorded it
	out     int
}

// Leaf is a param or input of a program.
type Leaf struct {
	Name string
	// Param is set for param(…) (trainable) and clear for input(…)
	// (data); both receive gradients.
	Param bool
	// Value is the literal's value; it must not be modified.
	Value *tensor.Tensor
	Pos   Pos
}

// step is one node after the leaves: a constant or an op application.
type step struct {
	konst *tensor.Tensor
	op    *op.Op
	attrs op.Attrs
	args  []int // operand node ids
	pos   Pos
}

// Statements returns the parsed statements, in order: the syntax tree the
// canonical text is printed from (an editor can map a line to its
// statement). The expressions are shared and must not be modified.
func (p *Program) Statements() []Stmt { return append([]Stmt(nil), p.stmts...) }

// Leaves returns the params and inputs in statement order (node ids 0, 1, …).
func (p *Program) Leaves() []Leaf { return append([]Leaf(nil), p.leaves...) }

// Len is the number of nodes the program records.
func (p *Program) Len() int { return len(p.shapes) }

// Output is the node id of the program's output, its last assignment.
func (p *Program) Output() int { return p.out }

// OutputVar returns the variable of the last statement, whose value is
// the output, and where it is assigned.
func (p *Program) OutputVar() (string, Pos) {
	s := p.stmts[len(p.stmts)-1]
	return s.Name, s.Pos
}

// Names maps each node id to the variable the program assigns it to (the
// first one, when one value has two names), or "" for the nodes an
// expression makes on the way (a broadcast, the reshapes of a vector @).
func (p *Program) Names() []string { return append([]string(nil), p.names...) }

// Shape returns node id's shape.
func (p *Program) Shape(id int) tensor.Shape { return p.shapes[id] }

// Pos returns where node id comes from: its statement's name for a leaf,
// the operator or function name for an op, the literal for a constant.
func (p *Program) Pos(id int) Pos { return p.pos[id] }

// OnesSeed reports whether backward seeds the output with ones because it
// is not a scalar (a scalar output is seeded with 1). Either way the
// gradients are those of the sum of the output's entries.
func (p *Program) OnesSeed() bool { return len(p.shapes[p.out]) > 0 }

// Seed returns the output's seed: 1 for a scalar, ones in its shape
// otherwise.
func (p *Program) Seed() *tensor.Tensor {
	s := tensor.Zeros(p.shapes[p.out])
	s.Fill(1)
	return s
}

// Run records the program on a backend, given one value per leaf (in
// Leaves order), and returns its output: it is an op.Program. It records
// nothing and returns op.NoValue when len(in) differs from the number of
// leaves.
func (p *Program) Run(o op.Ops, in []op.Value) op.Value {
	if len(in) != len(p.leaves) {
		return op.NoValue
	}
	vals := make([]op.Value, len(p.shapes))
	copy(vals, in)
	n := len(p.leaves)
	var args []op.Value
	for j, s := range p.steps {
		if s.konst != nil {
			vals[n+j] = o.Const(s.konst)
			continue
		}
		args = args[:0]
		for _, a := range s.args {
			args = append(args, vals[a])
		}
		vals[n+j] = op.Call(o, s.op, s.attrs, args...)
	}
	return vals[p.out]
}

// Program returns Run as an op.Program.
func (p *Program) Program() op.Program { return p.Run }

func leafKind(l Leaf) autograd.Kind {
	if l.Param {
		return autograd.Param
	}
	return autograd.Input
}

// Eager runs the program on a new autograd.Session (leaves named by their
// variables, each requiring a gradient) and returns the session; its tape
// holds the program's nodes under their ids. A domain fault is an *Error
// at the node's place in the text.
func (p *Program) Eager() (*autograd.Session, error) { return p.EagerAt(tensor.Float64) }

// EagerAt is Eager on a session in precision prec: in tensor.Float32 every
// leaf and constant is rounded to float32 on entry and every op's result
// after it (autograd.Tape.SetPrecision), and so is every pass over the
// tape.
func (p *Program) EagerAt(prec tensor.Precision) (*autograd.Session, error) {
	s := autograd.NewSession()
	s.SetPrecision(prec)
	in := make([]op.Value, len(p.leaves))
	for i, l := range p.leaves {
		in[i] = s.Leaf(l.Value.Clone(), l.Name, leafKind(l), true)
	}
	p.Run(s, in)
	if err := s.Err(); err != nil {
		return nil, p.locate(err)
	}
	return s, nil
}

// Graph records the program on a graph.Builder and returns its SSA graph.
func (p *Program) Graph() (*graph.Graph, error) {
	b := graph.NewBuilder()
	in := make([]op.Value, len(p.leaves))
	for i, l := range p.leaves {
		in[i] = b.Leaf(l.Name, l.Value.Shape, leafKind(l), true)
	}
	p.Run(b, in)
	g, err := b.Graph()
	if err != nil {
		return nil, p.locate(err)
	}
	return g, nil
}

// Compile records the program on a graph.Builder and compiles it with
// graph.CompileChecked on the leaves' values.
func (p *Program) Compile() (*graph.Compiled, error) { return p.CompileAt(tensor.Float64) }

// CompileAt is Compile in precision prec (graph.CompileCheckedAt): in
// tensor.Float32 bit for bit EagerAt's values and gradients.
func (p *Program) CompileAt(prec tensor.Precision) (*graph.Compiled, error) {
	g, err := p.Graph()
	if err != nil {
		return nil, err
	}
	c, err := graph.CompileCheckedAt(g, p.values(), prec)
	if err != nil {
		return nil, p.locate(err)
	}
	return c, nil
}

// values returns copies of the leaves' values, in order.
func (p *Program) values() []*tensor.Tensor {
	v := make([]*tensor.Tensor, len(p.leaves))
	for i, l := range p.leaves {
		v[i] = l.Value.Clone()
	}
	return v
}

// locate turns an *op.Error naming a node into an *Error at the node's
// place in the text; other errors keep their message at line 1.
func (p *Program) locate(err error) error {
	var e *op.Error
	if errors.As(err, &e) && e.Node >= 0 && e.Node < len(p.pos) {
		c := *e
		c.Node = -1
		return &Error{Pos: p.pos[e.Node], Msg: c.Error()}
	}
	return &Error{Pos: Pos{1, 1}, Msg: err.Error()}
}

// Result is one forward and backward pass of a program.
type Result struct {
	// Output is the output's value.
	Output *tensor.Tensor
	// Ones reports that the output is not a scalar and was seeded with
	// ones (see OnesSeed).
	Ones bool
	// Grads holds each leaf's gradient, in Leaves order (zeros for a leaf
	// the output does not depend on).
	Grads []*tensor.Tensor
	// Tape is the eager tape the pass ran on.
	Tape *autograd.Tape
}

// Grad runs the program eagerly and its reverse pass from the output
// (BackwardDense with Seed).
func (p *Program) Grad() (*Result, error) { return p.GradAt(tensor.Float64) }

// GradAt is Grad in precision prec (EagerAt): in tensor.Float32 the output
// and the gradients are float32 numbers.
func (p *Program) GradAt(prec tensor.Precision) (*Result, error) {
	s, err := p.EagerAt(prec)
	if err != nil {
		return nil, err
	}
	t := s.Tape()
	var g autograd.Grads
	if err := t.BackwardDense(p.out, p.Seed(), &g); err != nil {
		return nil, p.locate(err)
	}
	r := &Result{Output: t.Node(p.out).Value.Clone(), Ones: p.OnesSeed(), Tape: t}
	for i, l := range p.leaves {
		if d := g.Of(i); d != nil {
			r.Grads = append(r.Grads, d.Clone())
		} else {
			r.Grads = append(r.Grads, tensor.Zeros(l.Value.Shape))
		}
	}
	return r, nil
}
