package program

import (
	"errors"
	"strings"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Origin says where a node that grad(y, x) recorded comes from: which grad
// and which op's VJP rule made it. The zero Origin (Grad 0) is a node of
// the program's own text.
type Origin struct {
	// Grad numbers the program's grad calls 1, 2, … in the order they are
	// checked (an inner grad before the one around it); 0 for a node of
	// the program's own text.
	Grad int
	// Of names the derivative, e.g. "∂y/∂x" or "∂(sum(h))/∂w".
	Of string
	// Rule is the catalogue op whose VJP rule recorded the node (its Rule
	// text is op.Lookup(Rule)'s); "seed" for the 1 the backward pass
	// starts from, "accumulate" for the add of two contributions to one
	// value, "zero" for the zeros of a y that does not depend on x (or
	// only through zero contributions, as of pow with exponent 0).
	Rule string
	// Node is the forward node whose VJP recorded this node, or −1 for
	// the seed, an accumulation and the zeros.
	Node int
}

// Origins returns each node's Origin, by node id.
func (p *Program) Origins() []Origin { return append([]Origin(nil), p.origins...) }

// Origin returns node id's Origin.
func (p *Program) Origin(id int) Origin { return p.origins[id] }

// gradOps records a recorded VJP's ops as steps of the program being
// checked (an op.Ops over the checker), each with the current origin.
type gradOps struct {
	c   *checker
	at  Pos
	err error
}

func (g *gradOps) Apply(o *op.Op, a op.Attrs, x, y, z op.Value) op.Value {
	var xs []op.Value
	for _, v := range []op.Value{x, y, z} {
		if v != op.NoValue {
			xs = append(xs, v)
		}
	}
	return g.ApplyN(o, a, xs)
}

func (g *gradOps) ApplyN(o *op.Op, a op.Attrs, xs []op.Value) op.Value {
	if g.err != nil {
		return op.NoValue
	}
	args := make([]int, len(xs))
	for i, v := range xs {
		if v == op.NoValue {
			g.err = errorf(g.at, "grad: %s's recorded VJP left operand %d of %s unset", g.c.origin.Rule, i, o.Name)
			return op.NoValue
		}
		args[i] = int(v)
	}
	id, err := g.c.apply(o, a, args, g.at)
	if err != nil {
		g.err = err
		return op.NoValue
	}
	return op.Value(id)
}

func (g *gradOps) Const(t *tensor.Tensor) op.Value {
	if g.err != nil {
		return op.NoValue
	}
	return op.Value(g.c.push(step{konst: t, pos: g.at}, t.Shape))
}

func (g *gradOps) Err() error { return g.err }

// grad checks grad(y, x) and records ∂y/∂x: the reverse pass from y to
// x (a leaf, or any value computed before y, held fixed as PyTorch's
// torch.autograd.grad holds a non-leaf), one step per op of each VJP on the way (op.RecordVJP), so
// the result is an ordinary value that can be differentiated again.
func (c *checker) grad(e *Call) (int, error) {
	if len(e.Args) != 2 || len(e.Kwargs) != 0 {
		return 0, errorf(e.Pos, "grad takes two arguments, grad(y, x): y a scalar, x a param or input, got %d", len(e.Args)+len(e.Kwargs))
	}
	ref, ok := e.Args[1].(*Ref)
	if !ok {
		return 0, errorf(e.Args[1].At(), "grad(y, x): x must name a variable (a param, an input or a value computed before y), not an expression")
	}
	x, err := c.expr(ref)
	if err != nil {
		return 0, err
	}
	y, err := c.expr(e.Args[0])
	if err != nil {
		return 0, err
	}
	if s := c.p.shapes[y]; len(s) != 0 {
		return 0, errorf(e.Args[0].At(), "grad(y, x): y must be a scalar, has shape %v (sum it first, e.g. grad(sum(y), x))", s)
	}
	c.grads++
	var label strings.Builder
	writeExpr(&label, e.Args[0], 0)
	of := "∂" + label.String() + "/∂" + ref.Name
	if _, isRef := e.Args[0].(*Ref); !isRef {
		of = "∂(" + label.String() + ")/∂" + ref.Name
	}
	defer func() { c.origin = Origin{} }()
	return c.backward(y, x, Origin{Grad: c.grads, Of: of}, e.Pos)
}

// backward records the reverse pass from the scalar y to the leaf x.
func (c *checker) backward(y, x int, o Origin, at Pos) (int, error) {
	dep := make([]bool, y+1)
	dep[x] = true
	for n := c.nLeaves; n <= y; n++ {
		s := c.p.steps[n-c.nLeaves]
		for k, a := range s.args {
			if dep[a] && s.op.Grads(k) {
				dep[n] = true
			}
		}
	}
	g := &gradOps{c: c, at: at}
	c.origin = o
	if !dep[y] {
		c.origin.Rule, c.origin.Node = "zero", -1
		return int(g.Const(tensor.Zeros(c.p.shapes[x]))), nil
	}
	c.origin.Rule, c.origin.Node = "seed", -1
	adj := map[int]op.Value{y: g.Const(tensor.Scalar(1))}
	for n := y; n >= c.nLeaves && n != x; n-- {
		dy, ok := adj[n]
		if !ok || !dep[n] {
			continue
		}
		s := c.p.steps[n-c.nLeaves]
		xs := make([]op.Value, len(s.args))
		in := make([]tensor.Shape, len(s.args))
		want := make([]bool, len(s.args))
		for k, a := range s.args {
			xs[k], in[k], want[k] = op.Value(a), c.p.shapes[a], dep[a]
		}
		c.origin.Rule, c.origin.Node = s.op.Name, n
		contribs, err := s.op.RecordVJP(&op.Adj{Ops: g, Attrs: s.attrs, DY: dy, Y: op.Value(n), X: xs, In: in, Out: c.p.shapes[n], Want: want})
		if err == nil {
			err = g.err
		}
		if err != nil {
			var nr *op.NotRecordable
			if errors.As(err, &nr) {
				return 0, errorf(at, "grad: cannot differentiate through %s (line %d, col %d): its VJP is not written as ops", nr.Op, s.pos.Line, s.pos.Col)
			}
			return 0, err
		}
		c.origin.Rule, c.origin.Node = "accumulate", -1
		for k, v := range contribs {
			if v == op.NoValue {
				continue
			}
			a := s.args[k]
			if prev, ok := adj[a]; ok {
				v = g.Apply(lookup("add"), op.Attrs{}, prev, v, op.NoValue)
				if g.err != nil {
					return 0, g.err
				}
			}
			adj[a] = v
		}
	}
	r, ok := adj[x]
	if !ok { // every path from x passes a zero contribution (pow with c = 0)
		c.origin.Rule = "zero"
		r = g.Const(tensor.Zeros(c.p.shapes[x]))
	}
	return int(r), nil
}
