package program

import "tapelab/engine/tensor"

// maxDepth bounds how deeply expressions and lists nest, so that no input
// can exhaust the stack. Each parenthesis, call, list bracket, unary minus
// and exponent counts one level: 100 nested parentheses parse, 101 do not.
const maxDepth = 100

// parser turns tokens into statements.
type parser struct {
	toks  []token
	i     int
	depth int
}

// parseStmts returns the statements of src, or the first syntax error.
func parseStmts(src string) ([]Stmt, error) {
	toks, err := lex(src)
	if err != nil {
		return nil, err
	}
	p := &parser{toks: toks}
	var stmts []Stmt
	for p.peek().kind != tokEOF {
		s, err := p.stmt()
		if err != nil {
			return nil, err
		}
		stmts = append(stmts, s)
	}
	return stmts, nil
}

func (p *parser) peek() token { return p.toks[p.i] }

func (p *parser) next() token {
	t := p.toks[p.i]
	if t.kind != tokEOF {
		p.i++
	}
	return t
}

// is reports whether the next token is the punctuation s.
func (p *parser) is(s string) bool {
	t := p.peek()
	return t.kind == tokPunct && t.text == s
}

func (p *parser) expect(s, after string) (token, error) {
	if !p.is(s) {
		t := p.peek()
		return t, errorf(t.pos, "expected '%s' %s, found %s", s, after, t.describe())
	}
	return p.next(), nil
}

// stmt parses name = expr NEWLINE.
func (p *parser) stmt() (Stmt, error) {
	t := p.next()
	if t.kind != tokName {
		return Stmt{}, errorf(t.pos, "expected a statement `name = expression`, found %s", t.describe())
	}
	if _, err := p.expect("=", "after "+t.text); err != nil {
		return Stmt{}, err
	}
	e, err := p.expr()
	if err != nil {
		return Stmt{}, err
	}
	if end := p.peek(); end.kind != tokNewline {
		return Stmt{}, errorf(end.pos, "expected the end of the line after the expression, found %s", end.describe())
	}
	p.next()
	return Stmt{Name: t.text, Pos: t.pos, Expr: e}, nil
}

// enter guards the recursion depth; it is called once per level the
// reader sees (a bracket, a unary minus or an exponent), before its first
// token is consumed, so that the error points at the level too many.
func (p *parser) enter() error {
	p.depth++
	if p.depth > maxDepth {
		return errorf(p.peek().pos, "expression nested more than %d deep", maxDepth)
	}
	return nil
}

func (p *parser) leave() { p.depth-- }

// expr parses a sum: term (('+' | '-') term)*.
func (p *parser) expr() (Expr, error) {
	x, err := p.term()
	if err != nil {
		return nil, err
	}
	for p.is("+") || p.is("-") {
		t := p.next()
		y, err := p.term()
		if err != nil {
			return nil, err
		}
		x = &Binary{Pos: t.pos, Op: t.text, X: x, Y: y}
	}
	return x, nil
}

// term parses a product: unary (('*' | '/' | '@') unary)*.
func (p *parser) term() (Expr, error) {
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	for p.is("*") || p.is("/") || p.is("@") {
		t := p.next()
		y, err := p.unary()
		if err != nil {
			return nil, err
		}
		x = &Binary{Pos: t.pos, Op: t.text, X: x, Y: y}
	}
	return x, nil
}

// unary parses '-' unary | power. A minus before a number literal is part
// of the literal.
func (p *parser) unary() (Expr, error) {
	if !p.is("-") {
		return p.power()
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.next()
	x, err := p.unary()
	if err != nil {
		return nil, err
	}
	if l, ok := x.(*Lit); ok && len(l.Value.Shape) == 0 {
		return &Lit{Pos: t.pos, Value: tensor.Scalar(-l.Value.Data[0])}, nil
	}
	return &Unary{Pos: t.pos, X: x}, nil
}

// power parses primary ('**' exponent)?, where the exponent is a number,
// possibly negative (-x**2 is −(x²), as in Python).
func (p *parser) power() (Expr, error) {
	x, err := p.primary()
	if err != nil {
		return nil, err
	}
	if !p.is("**") {
		return x, nil
	}
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	t := p.next()
	e, err := p.unary()
	if err != nil {
		return nil, err
	}
	l, ok := e.(*Lit)
	if !ok || len(l.Value.Shape) != 0 {
		return nil, errorf(e.At(), "**: the exponent must be a number (a constant), not an expression")
	}
	return &Binary{Pos: t.pos, Op: "**", X: x, Y: l}, nil
}

// primary parses a number, a list, a name, a call or a parenthesised
// expression.
func (p *parser) primary() (Expr, error) {
	t := p.peek()
	switch {
	case t.kind == tokNumber || p.is("["):
		l, err := p.literal(false)
		if err != nil {
			return nil, err
		}
		return l, nil
	case t.kind == tokName:
		p.next()
		if p.is("(") {
			return p.call(t)
		}
		return &Ref{Pos: t.pos, Name: t.text}, nil
	case p.is("("):
		if err := p.enter(); err != nil {
			return nil, err
		}
		defer p.leave()
		p.next()
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		if _, err := p.expect(")", "to close the '(' at "+t.pos.String()); err != nil {
			return nil, err
		}
		return x, nil
	}
	return nil, errorf(t.pos, "expected an expression, found %s", t.describe())
}

// call parses the arguments of fn( … ): expressions, then name=literal.
func (p *parser) call(fn token) (Expr, error) {
	if err := p.enter(); err != nil {
		return nil, err
	}
	defer p.leave()
	open := p.next()
	c := &Call{Pos: fn.pos, Fn: fn.text}
	for !p.is(")") {
		if len(c.Args)+len(c.Kwargs) > 0 {
			if _, err := p.expect(",", "between the arguments of "+fn.text); err != nil {
				return nil, err
			}
			if p.is(")") { // a trailing comma
				break
			}
		}
		if t := p.peek(); t.kind == tokName && p.toks[p.i+1].kind == tokPunct && p.toks[p.i+1].text == "=" {
			p.i += 2
			v, err := p.literal(true)
			if err != nil {
				return nil, err
			}
			for _, k := range c.Kwargs {
				if k.Name == t.text {
					return nil, errorf(t.pos, "%s: attribute %s is given twice", fn.text, t.text)
				}
			}
			c.Kwargs = append(c.Kwargs, Kwarg{Pos: t.pos, Name: t.text, Value: v})
			continue
		}
		if len(c.Kwargs) > 0 {
			return nil, errorf(p.peek().pos, "%s: an argument follows the attributes; attributes (name=value) come last", fn.text)
		}
		x, err := p.expr()
		if err != nil {
			return nil, err
		}
		c.Args = append(c.Args, x)
	}
	if _, err := p.expect(")", "to close the call of "+fn.text+" at "+open.pos.String()); err != nil {
		return nil, err
	}
	return c, nil
}

// literal parses a number with an optional minus sign, or a nested list of
// them; empty lists are allowed only when empty is set (shape attributes).
func (p *parser) literal(empty bool) (*Lit, error) {
	l := &litState{numDepth: -1, empty: empty}
	start := p.peek().pos
	if err := p.element(l, 0); err != nil {
		return nil, err
	}
	return &Lit{Pos: start, Value: &tensor.Tensor{Shape: l.shape, Data: l.data}}, nil
}

// litState is what a literal has fixed so far: the size of each level
// (by its first list) and the depth at which numbers sit (by the first).
type litState struct {
	shape    tensor.Shape
	data     []float64
	numDepth int
	empty    bool
}

// element parses one entry of a literal at nesting level.
func (p *parser) element(l *litState, level int) error {
	t := p.peek()
	if p.is("-") || t.kind == tokNumber {
		if l.numDepth < 0 {
			l.numDepth = level
		} else if level != l.numDepth {
			return errorf(t.pos, "list is ragged: a number where a list was expected")
		}
		neg := p.is("-")
		if neg {
			p.next()
			t = p.peek()
		}
		if t.kind != tokNumber {
			return errorf(t.pos, "expected a number after '-', found %s", t.describe())
		}
		p.next()
		v := t.num
		if neg {
			v = -v
		}
		l.data = append(l.data, v)
		return nil
	}
	if !p.is("[") {
		return errorf(t.pos, "expected a number or a list, found %s", t.describe())
	}
	if l.numDepth >= 0 && level >= l.numDepth {
		return errorf(t.pos, "list is ragged: a list where a number was expected")
	}
	if err := p.enter(); err != nil {
		return err
	}
	defer p.leave()
	open := p.next()
	first := level == len(l.shape)
	if first {
		l.shape = append(l.shape, 0)
	}
	n := 0
	for !p.is("]") {
		if n > 0 {
			if _, err := p.expect(",", "between list entries"); err != nil {
				return err
			}
			if p.is("]") {
				break
			}
		}
		if err := p.element(l, level+1); err != nil {
			return err
		}
		n++
	}
	end := p.next()
	switch {
	case n == 0 && !(l.empty && level == 0):
		return errorf(open.pos, "empty list: a tensor needs at least one entry")
	case n == 0:
		l.numDepth = 1 // the empty shape list []
	case first:
		l.shape[level] = n
	case n != l.shape[level]:
		return errorf(end.pos, "list is ragged: %d entries where the first list at this depth has %d", n, l.shape[level])
	}
	return nil
}
