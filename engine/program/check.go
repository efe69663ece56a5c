package program

import (
	"fmt"
	"strings"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// checker turns statements into a Program's steps, inferring every shape
// with the ops' own shape rules.
type checker struct {
	p       *Program
	env     map[string]int // variable → node id
	defined map[string]int // variable → line of its statement
	nLeaves int
	grads   int    // grad calls checked so far
	origin  Origin // of the steps pushed now (zero outside grad)
}

// Parse reads a program, checks its names, arities, attributes and shapes,
// and returns it, or the first fault as an *Error naming its line and
// column. Texts longer than MaxSource bytes are refused. Values are not computed: domain faults (the log of a negative
// number) surface when the program runs.
func Parse(src string) (*Program, error) {
	if len(src) > MaxSource {
		return nil, errorf(Pos{1, 1}, "the program has %d bytes, more than the limit of %d", len(src), MaxSource)
	}
	stmts, err := parseStmts(src)
	if err != nil {
		return nil, err
	}
	return check(stmts)
}

// check checks parsed statements and builds their program.
func check(stmts []Stmt) (*Program, error) {
	if len(stmts) == 0 {
		return nil, errorf(Pos{1, 1}, "the program is empty: write at least one statement `name = expression`")
	}
	p := &Program{stmts: stmts}
	c := &checker{p: p, env: map[string]int{}, defined: map[string]int{}}
	for _, s := range stmts {
		if isLeaf(s.Expr) {
			c.nLeaves++
		}
		if _, ok := c.defined[s.Name]; !ok {
			c.defined[s.Name] = s.Pos.Line
		}
	}
	p.shapes = make([]tensor.Shape, c.nLeaves)
	p.names = make([]string, c.nLeaves)
	p.pos = make([]Pos, c.nLeaves)
	p.origins = make([]Origin, c.nLeaves)
	for _, s := range stmts {
		if err := c.stmt(s); err != nil {
			return nil, err
		}
	}
	p.out = c.env[stmts[len(stmts)-1].Name]
	return p, nil
}

// isLeaf reports whether e is param(…) or input(…).
func isLeaf(e Expr) bool {
	c, ok := e.(*Call)
	return ok && (c.Fn == "param" || c.Fn == "input")
}

func (c *checker) stmt(s Stmt) error {
	if _, ok := c.env[s.Name]; ok {
		return errorf(s.Pos, "%s is already assigned on line %d; give the new value another name", s.Name, c.defined[s.Name])
	}
	var id int
	if isLeaf(s.Expr) {
		l, err := c.leaf(s)
		if err != nil {
			return err
		}
		id = len(c.p.leaves)
		c.p.leaves = append(c.p.leaves, l)
		c.p.shapes[id], c.p.names[id], c.p.pos[id] = l.Value.Shape, s.Name, s.Pos
	} else {
		var err error
		if id, err = c.expr(s.Expr); err != nil {
			return err
		}
		if c.p.names[id] == "" {
			c.p.names[id] = s.Name
		}
	}
	c.env[s.Name] = id
	return nil
}

// leaf checks name = param(LIT) or input(LIT).
func (c *checker) leaf(s Stmt) (Leaf, error) {
	call := s.Expr.(*Call)
	if len(call.Args) != 1 || len(call.Kwargs) != 0 {
		return Leaf{}, errorf(call.Pos, "%s takes one literal, a number or a nested list (%s(2.0), %s([[1, 2], [3, 4]])), got %d arguments",
			call.Fn, call.Fn, call.Fn, len(call.Args)+len(call.Kwargs))
	}
	lit, ok := call.Args[0].(*Lit)
	if !ok {
		return Leaf{}, errorf(call.Args[0].At(), "%s takes a literal (a number or a nested list), not an expression", call.Fn)
	}
	if err := c.size(lit.Value.Shape, lit.Pos); err != nil {
		return Leaf{}, err
	}
	return Leaf{Name: s.Name, Param: call.Fn == "param", Value: lit.Value, Pos: s.Pos}, nil
}

// size rejects values above the size limit.
func (c *checker) size(s tensor.Shape, at Pos) error {
	if s.Size() > maxElements {
		return errorf(at, "a value of shape %v has more than %d entries", s, maxElements)
	}
	return nil
}

func (c *checker) expr(e Expr) (int, error) {
	switch e := e.(type) {
	case *Lit:
		if err := c.size(e.Value.Shape, e.Pos); err != nil {
			return 0, err
		}
		return c.push(step{konst: e.Value, pos: e.Pos}, e.Value.Shape), nil
	case *Ref:
		id, ok := c.env[e.Name]
		if !ok {
			if line, later := c.defined[e.Name]; later {
				return 0, errorf(e.Pos, "%s is used before it is assigned (on line %d)", e.Name, line)
			}
			return 0, errorf(e.Pos, "undefined: %s", e.Name)
		}
		return id, nil
	case *Unary:
		x, err := c.expr(e.X)
		if err != nil {
			return 0, err
		}
		return c.apply(lookup("neg"), op.Attrs{}, []int{x}, e.Pos)
	case *Binary:
		return c.binary(e)
	case *Call:
		return c.call(e)
	}
	panic(fmt.Sprintf("program: unknown expression %T", e))
}

// lookup returns a catalogue op the language itself uses.
func lookup(name string) *op.Op {
	o, ok := op.Lookup(name)
	if !ok {
		panic("program: the catalogue has no op " + name)
	}
	return o
}

// elementwise maps the infix operators to their ops.
var elementwise = map[string]string{"+": "add", "-": "sub", "*": "mul", "/": "div"}

func (c *checker) binary(e *Binary) (int, error) {
	x, err := c.expr(e.X)
	if err != nil {
		return 0, err
	}
	if e.Op == "**" {
		return c.apply(lookup("pow"), op.Attrs{Alpha: e.Y.(*Lit).Value.Data[0]}, []int{x}, e.Pos)
	}
	y, err := c.expr(e.Y)
	if err != nil {
		return 0, err
	}
	if e.Op == "@" {
		return c.matmul(x, y, e.Pos)
	}
	name := elementwise[e.Op]
	sx, sy := c.p.shapes[x], c.p.shapes[y]
	if !sx.Equal(sy) {
		s, err := broadcastShape(sx, sy)
		if err != nil {
			return 0, errorf(e.Pos, "%s: %v %s %v: %v", name, sx, e.Op, sy, err)
		}
		if x, err = c.broadcast(x, s, e.Pos); err != nil {
			return 0, err
		}
		if y, err = c.broadcast(y, s, e.Pos); err != nil {
			return 0, err
		}
	}
	return c.apply(lookup(name), op.Attrs{}, []int{x, y}, e.Pos)
}

// broadcast returns x broadcast to shape s (x itself when it has it).
func (c *checker) broadcast(x int, s tensor.Shape, at Pos) (int, error) {
	if c.p.shapes[x].Equal(s) {
		return x, nil
	}
	return c.apply(lookup("broadcast_to"), op.Attrs{Shape: s.Clone()}, []int{x}, at)
}

// broadcastShape is NumPy's rule: align from the right; sizes must agree
// or be 1.
func broadcastShape(a, b tensor.Shape) (tensor.Shape, error) {
	n := max(len(a), len(b))
	s := make(tensor.Shape, n)
	for i := 1; i <= n; i++ {
		da, db := 1, 1
		if i <= len(a) {
			da = a[len(a)-i]
		}
		if i <= len(b) {
			db = b[len(b)-i]
		}
		switch {
		case da == db || db == 1:
			s[n-i] = da
		case da == 1:
			s[n-i] = db
		default:
			return nil, fmt.Errorf("sizes %d and %d do not broadcast (only equal sizes or 1 do)", da, db)
		}
	}
	return s, nil
}

// matmul is PyTorch's @ for vectors and matrices: a vector operand is
// reshaped to a row (on the left) or a column (on the right) and the
// added axis removed from the product.
func (c *checker) matmul(x, y int, at Pos) (int, error) {
	sx, sy := c.p.shapes[x], c.p.shapes[y]
	if len(sx) < 1 || len(sx) > 2 || len(sy) < 1 || len(sy) > 2 {
		return 0, errorf(at, "matmul: %v @ %v: @ multiplies vectors and matrices (rank 1 or 2)", sx, sy)
	}
	if k, k2 := sx[len(sx)-1], sy[0]; k != k2 {
		return 0, errorf(at, "matmul: %v @ %v: inner sizes %d and %d differ", sx, sy, k, k2)
	}
	var err error
	reshape := func(v int, s tensor.Shape) int {
		if err == nil {
			v, err = c.apply(lookup("reshape"), op.Attrs{Shape: s}, []int{v}, at)
		}
		return v
	}
	if len(sx) == 1 {
		x = reshape(x, tensor.Shape{1, sx[0]})
	}
	if len(sy) == 1 {
		y = reshape(y, tensor.Shape{sy[0], 1})
	}
	if err != nil {
		return 0, err
	}
	z, err := c.apply(lookup("matmul"), op.Attrs{}, []int{x, y}, at)
	if err != nil || len(sx) == 2 && len(sy) == 2 {
		return z, err
	}
	var out tensor.Shape
	switch {
	case len(sx) == 2:
		out = tensor.Shape{sx[0]}
	case len(sy) == 2:
		out = tensor.Shape{sy[1]}
	default:
		out = tensor.Shape{}
	}
	z = reshape(z, out)
	return z, err
}

func (c *checker) call(e *Call) (int, error) {
	if isLeaf(e) {
		return 0, errorf(e.Pos, "%s(…) must be a statement's whole right-hand side, e.g. w = %s(2.0)", e.Fn, e.Fn)
	}
	if e.Fn == "grad" {
		return c.grad(e)
	}
	o, ok := op.Lookup(e.Fn)
	if !ok {
		return 0, errorf(e.Pos, "unknown function %s: not an op of the catalogue (nor param or input)", e.Fn)
	}
	// sum(x, axis=k) and mean(x, axis=k) are PyTorch's spelling of the
	// catalogue's reduce_sum and reduce_mean.
	if e.Fn == "sum" || e.Fn == "mean" {
		for _, k := range e.Kwargs {
			if k.Name == "axis" {
				o = lookup("reduce_" + e.Fn)
			}
		}
	}
	if !o.AcceptsArity(len(e.Args)) {
		want := fmt.Sprint(o.Arity())
		if o.Variadic {
			want = "at least " + want
		}
		return 0, errorf(e.Pos, "%s takes %s argument%s (%s), got %d", e.Fn, want, plural(o.Arity()), operandNames(o), len(e.Args))
	}
	a, err := attrsOf(o, e)
	if err != nil {
		return 0, err
	}
	args := make([]int, len(e.Args))
	for i, x := range e.Args {
		if args[i], err = c.expr(x); err != nil {
			return 0, err
		}
	}
	return c.apply(o, a, args, e.Pos)
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func operandNames(o *op.Op) string {
	var names []string
	for _, x := range o.Operands {
		names = append(names, x.Name)
	}
	if o.Variadic {
		names = append(names, "…")
	}
	return strings.Join(names, ", ")
}

// apply infers the shape of o on the operand ids and appends the step.
func (c *checker) apply(o *op.Op, a op.Attrs, args []int, at Pos) (int, error) {
	in := make([]tensor.Shape, len(args))
	for i, x := range args {
		in[i] = c.p.shapes[x]
	}
	s, err := o.Shape(nil, in, a)
	if err != nil {
		return 0, errorf(at, "%v", err)
	}
	if err := c.size(s, at); err != nil {
		return 0, err
	}
	return c.push(step{op: o, attrs: a, args: args, pos: at}, s), nil
}

// push appends a step with its output shape and returns its node id.
func (c *checker) push(s step, shape tensor.Shape) int {
	c.p.steps = append(c.p.steps, s)
	c.p.shapes = append(c.p.shapes, shape)
	c.p.names = append(c.p.names, "")
	c.p.pos = append(c.p.pos, s.pos)
	c.p.origins = append(c.p.origins, c.origin)
	return len(c.p.shapes) - 1
}
