package program

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/randprog"
	"tapelab/engine/tensor"
)

func programs() int {
	if testing.Short() {
		return 200
	}
	return 1000
}

// recorder is an op.Ops that numbers values as the backends do and keeps
// each call, so that a randprog program can be written out as text.
type recorder struct {
	calls []recorded
	n     int // values so far (leaves included)
}

type recorded struct {
	konst *tensor.Tensor
	op    *op.Op
	attrs op.Attrs
	args  []op.Value
}

func (r *recorder) push(c recorded) op.Value {
	r.calls = append(r.calls, c)
	r.n++
	return op.Value(r.n - 1)
}

func (r *recorder) Apply(o *op.Op, a op.Attrs, x, y, z op.Value) op.Value {
	var args []op.Value
	for _, v := range []op.Value{x, y, z} {
		if v != op.NoValue {
			args = append(args, v)
		}
	}
	return r.push(recorded{op: o, attrs: a, args: args})
}

func (r *recorder) ApplyN(o *op.Op, a op.Attrs, xs []op.Value) op.Value {
	return r.push(recorded{op: o, attrs: a, args: append([]op.Value(nil), xs...)})
}

func (r *recorder) Const(t *tensor.Tensor) op.Value { return r.push(recorded{konst: t}) }
func (r *recorder) Err() error                      { return nil }

// attrText formats attribute name of a for a keyword argument.
func attrText(a op.Attrs, name string) string {
	switch name {
	case "alpha":
		return formatNumber(a.Alpha)
	case "eps":
		return formatNumber(a.Eps)
	case "axis":
		return fmt.Sprint(a.Axis)
	case "stride":
		return fmt.Sprint(a.Stride)
	case "padding":
		return fmt.Sprint(a.Padding)
	case "kernel":
		return fmt.Sprint(a.Kernel)
	case "seed":
		return fmt.Sprint(a.Seed)
	case "shape":
		data := make([]float64, len(a.Shape))
		for i, d := range a.Shape {
			data[i] = float64(d)
		}
		return tensor.Shape{len(data)}.Nested(data, formatNumber)
	}
	panic("attrText: " + name)
}

func litText(t *tensor.Tensor) string {
	var b strings.Builder
	writeLit(&b, t)
	return b.String()
}

// textOf writes a randprog case as a program: leaves l0, l1, … and one
// statement vN per value, each op called by name with all its attributes.
func textOf(c *randprog.Case) string {
	var b strings.Builder
	in := make([]op.Value, len(c.Inputs))
	for i, x := range c.Inputs {
		kind := "input"
		if x.RequiresGrad {
			kind = "param"
		}
		fmt.Fprintf(&b, "l%d = %s(%s)\n", i, kind, litText(x.Value))
		in[i] = op.Value(i)
	}
	r := &recorder{n: len(in)}
	c.Program(r, in)
	name := func(v op.Value) string {
		if int(v) < len(in) {
			return fmt.Sprintf("l%d", v)
		}
		return fmt.Sprintf("v%d", v)
	}
	for j, call := range r.calls {
		id := len(in) + j
		if id > c.Output {
			break // constants after the output are unused
		}
		if call.konst != nil {
			fmt.Fprintf(&b, "v%d = %s\n", id, litText(call.konst))
			continue
		}
		var args []string
		for _, a := range call.args {
			args = append(args, name(a))
		}
		for _, s := range opAttrs[call.op.Name] {
			args = append(args, s.name+"="+attrText(call.attrs, s.name))
		}
		fmt.Fprintf(&b, "v%d = %s(%s)\n", id, call.op.Name, strings.Join(args, ", "))
	}
	return b.String()
}

// direct runs a randprog case on a Session as the program language would
// (every leaf requiring a gradient) and differentiates it from its output
// with ones: the original the text must reproduce.
func direct(c *randprog.Case) (*run, error) {
	s := autograd.NewSession()
	in := make([]op.Value, len(c.Inputs))
	for i, x := range c.Inputs {
		kind := autograd.Input
		if x.RequiresGrad {
			kind = autograd.Param
		}
		in[i] = s.Leaf(x.Value.Clone(), x.Name, kind, true)
	}
	out := c.Program(s, in)
	if err := s.Err(); err != nil {
		return nil, err
	}
	t := s.Tape()
	seed := tensor.Zeros(t.Node(int(out)).Value.Shape)
	seed.Fill(1)
	var g autograd.Grads
	if err := t.BackwardDense(int(out), seed, &g); err != nil {
		return nil, err
	}
	r := &run{}
	for i := 0; i <= int(out); i++ {
		r.eager = append(r.eager, t.Node(i).Value)
		r.eagerGrads = append(r.eagerGrads, g.Of(i))
	}
	return r, nil
}

// TestRandomProgramsRoundTrip writes randprog's programs (over every op of
// the catalogue) as text and checks, for each: the parsed program runs
// bit for bit like the original, eager equals compiled, and print → parse
// gives the same text and the same run.
func TestRandomProgramsRoundTrip(t *testing.T) {
	ops := map[string]int{}
	for seed := uint64(0); seed < uint64(programs()); seed++ {
		c := randprog.Generate(seed, randprog.Config{Finite: true})
		text := textOf(c)
		p, err := Parse(text)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		for _, s := range p.steps {
			if s.op != nil {
				ops[s.op.Name]++
			}
		}
		checkRoundTrip(t, fmt.Sprintf("seed %d", seed), p, text)
		want, err := direct(c)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		got, err := runBoth(p)
		if err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		if m := want.same(got); m != "" {
			t.Fatalf("seed %d: the program differs from the original: %s\n%s", seed, m, text)
		}
	}
	for _, o := range op.All() {
		if ops[o.Name] == 0 {
			t.Errorf("no program applied %s", o.Name)
		}
	}
}

// checkRoundTrip checks that p runs alike eagerly and compiled, and that
// its printed text parses to a program with the same text and run.
func checkRoundTrip(t *testing.T, what string, p *Program, src string) {
	t.Helper()
	r, err := runBoth(p)
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, src)
	}
	if m := r.mismatch(); m != "" {
		t.Fatalf("%s: %s\n%s", what, m, src)
	}
	printed := p.String()
	q, err := Parse(printed)
	if err != nil {
		t.Fatalf("%s: the printed program does not parse: %v\n%s", what, err, printed)
	}
	if again := q.String(); again != printed {
		t.Fatalf("%s: printing is not stable:\n%s\nthen\n%s", what, printed, again)
	}
	r2, err := runBoth(q)
	if err != nil {
		t.Fatalf("%s: %v\n%s", what, err, printed)
	}
	if m := r.same(r2); m != "" {
		t.Fatalf("%s: print → parse → run differs: %s\n%s", what, m, printed)
	}
	if fmt.Sprint(p.Names()) != fmt.Sprint(q.Names()) {
		t.Fatalf("%s: names %v became %v", what, p.Names(), q.Names())
	}
}

// exprGen draws random statements over the infix syntax: broadcasting
// + − * /, @ on vectors and matrices, ** with constant exponents, unary −,
// calls, literals and deep nesting.
type exprGen struct {
	r    *rand.Rand
	vars map[string]tensor.Shape
}

var genShapes = []tensor.Shape{{}, {3}, {2, 3}, {3, 2}, {1, 3}, {2, 1}, {2}}

func (g *exprGen) number() float64 {
	switch g.r.IntN(3) {
	case 0:
		return float64(g.r.IntN(7) - 3)
	case 1:
		return float64(g.r.IntN(9)-4) / 4
	}
	return g.r.NormFloat64()
}

func (g *exprGen) lit(s tensor.Shape) *Lit {
	t := tensor.Zeros(s)
	for i := range t.Data {
		t.Data[i] = g.number()
	}
	return &Lit{Value: t}
}

// operand returns a shape that broadcasts to s: s itself, s without
// leading axes, or s with some sizes set to 1.
func (g *exprGen) operand(s tensor.Shape) tensor.Shape {
	switch g.r.IntN(4) {
	case 0:
		return s[g.r.IntN(len(s)+1):].Clone()
	case 1:
		o := s.Clone()
		for i := range o {
			if g.r.IntN(2) == 0 {
				o[i] = 1
			}
		}
		return o
	}
	return s.Clone()
}

func (g *exprGen) expr(s tensor.Shape, depth int) Expr {
	if depth <= 0 || g.r.IntN(5) == 0 {
		var names []string
		for n, vs := range g.vars {
			if vs.Equal(s) {
				names = append(names, n)
			}
		}
		if len(names) > 0 && g.r.IntN(4) != 0 {
			return &Ref{Name: names[g.r.IntN(len(names))]}
		}
		return g.lit(s)
	}
	d := depth - 1
	switch k := g.r.IntN(9); {
	case k < 3:
		op := []string{"+", "-", "*", "/"}[g.r.IntN(4)]
		sx, sy := s, g.operand(s) // one operand has the full shape
		if g.r.IntN(2) == 0 {
			sx, sy = sy, sx
		}
		return &Binary{Op: op, X: g.expr(sx, d), Y: g.expr(sy, d)}
	case k == 3 && len(s) <= 2:
		n := 1 + g.r.IntN(3)
		switch len(s) {
		case 0:
			return &Binary{Op: "@", X: g.expr(tensor.Shape{n}, d), Y: g.expr(tensor.Shape{n}, d)}
		case 1:
			if g.r.IntN(2) == 0 {
				return &Binary{Op: "@", X: g.expr(tensor.Shape{n}, d), Y: g.expr(tensor.Shape{n, s[0]}, d)}
			}
			return &Binary{Op: "@", X: g.expr(tensor.Shape{s[0], n}, d), Y: g.expr(tensor.Shape{n}, d)}
		}
		return &Binary{Op: "@", X: g.expr(tensor.Shape{s[0], n}, d), Y: g.expr(tensor.Shape{n, s[1]}, d)}
	case k == 4:
		e := []float64{2, 3, -1, 0, 1}[g.r.IntN(5)]
		return &Binary{Op: "**", X: g.expr(s, d), Y: &Lit{Value: tensor.Scalar(e)}}
	case k == 5:
		x := g.expr(s, d)
		if _, ok := x.(*Lit); ok {
			return x // −literal is a literal
		}
		return &Unary{X: x}
	case k == 6 && len(s) == 0:
		fn := []string{"sum", "mean"}[g.r.IntN(2)]
		return &Call{Fn: fn, Args: []Expr{g.expr(genShapes[1+g.r.IntN(len(genShapes)-1)], d)}}
	case k == 6 && len(s) == 2:
		return &Call{Fn: "transpose", Args: []Expr{g.expr(tensor.Shape{s[1], s[0]}, d)}}
	case k == 7 && len(s) < 2:
		in := append(tensor.Shape{2}, s...)
		return &Call{Fn: "sum", Args: []Expr{g.expr(in, d)}, Kwargs: []Kwarg{{Name: "axis", Value: &Lit{Value: tensor.Scalar(0)}}}}
	case k == 8 && len(s) > 0:
		return &Call{Fn: "softmax", Args: []Expr{g.expr(s, d)}}
	}
	fn := []string{"tanh", "sigmoid", "relu", "abs", "square", "neg", "exp"}[g.r.IntN(7)]
	return &Call{Fn: fn, Args: []Expr{g.expr(s, d)}}
}

// program draws leaves and statements.
func (g *exprGen) program() []Stmt {
	var stmts []Stmt
	for i := 0; i < 1+g.r.IntN(3); i++ {
		s := genShapes[g.r.IntN(len(genShapes))]
		name := fmt.Sprintf("w%d", i)
		fn := []string{"param", "input"}[g.r.IntN(2)]
		stmts = append(stmts, Stmt{Name: name, Expr: &Call{Fn: fn, Args: []Expr{g.lit(s)}}})
		g.vars[name] = s
	}
	for i := 0; i < 1+g.r.IntN(5); i++ {
		s := genShapes[g.r.IntN(len(genShapes))]
		name := fmt.Sprintf("t%d", i)
		stmts = append(stmts, Stmt{Name: name, Expr: g.expr(s, 1+g.r.IntN(5))})
		g.vars[name] = s
	}
	return stmts
}

// TestRandomExpressionsRoundTrip checks, over random programs in the infix
// syntax, that the program built from the drawn statements and the one
// parsed from its printed text run bit for bit alike, and that eager equals
// compiled.
func TestRandomExpressionsRoundTrip(t *testing.T) {
	counts := map[string]int{}
	for seed := uint64(0); seed < uint64(programs()); seed++ {
		g := &exprGen{r: rand.New(rand.NewPCG(seed, 5)), vars: map[string]tensor.Shape{}}
		stmts := g.program()
		p, err := check(stmts)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, (&Program{stmts: stmts}).String())
		}
		text := p.String()
		q, err := Parse(text)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		checkRoundTrip(t, fmt.Sprintf("seed %d", seed), q, text)
		a, err := runBoth(p)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		b, err := runBoth(q)
		if err != nil {
			t.Fatalf("seed %d: %v\n%s", seed, err, text)
		}
		if m := a.same(b); m != "" {
			t.Fatalf("seed %d: drawn and parsed programs differ: %s\n%s", seed, m, text)
		}
		for _, s := range q.steps {
			if s.op != nil {
				counts[s.op.Name]++
			}
		}
		counts["parenthesised"] += parens(text)
	}
	for _, k := range []string{"broadcast_to", "matmul", "reshape", "pow", "neg", "add", "sub", "mul", "div", "reduce_sum", "parenthesised"} {
		if counts[k] < 50 {
			t.Errorf("%s occurred %d times; the generator should exercise it", k, counts[k])
		}
	}
	t.Logf("%v", counts)
}

// parens counts the grouping parentheses of text (those not after a
// function's name).
func parens(text string) int {
	n := 0
	for i, r := range text {
		if r == '(' && (i == 0 || !strings.ContainsRune("abcdefghijklmnopqrstuvwxyz_0123456789", rune(text[i-1]))) {
			n++
		}
	}
	return n
}
