package program

import "tapelab/engine/tensor"

// Stmt is one statement, Name = Expr.
type Stmt struct {
	Name string
	Pos  Pos // of the name
	Expr Expr
}

// Expr is an expression of the language: *Lit, *Ref, *Unary, *Binary or
// *Call.
type Expr interface {
	// At returns the position errors about the expression name: the
	// operator of a unary or binary expression, the function's name of a
	// call, the start of anything else.
	At() Pos
}

// Lit is a literal: a number (shape []) or a nested list giving its shape.
// A minus sign directly before a number is part of the literal. An empty
// list (shape [0]) is only allowed as a shape attribute.
type Lit struct {
	Pos   Pos
	Value *tensor.Tensor
}

// Ref names a variable assigned before.
type Ref struct {
	Pos  Pos
	Name string
}

// Unary is −X.
type Unary struct {
	Pos Pos
	X   Expr
}

// Binary is X Op Y for Op one of + - * / @ **; the exponent of ** is a
// number literal.
type Binary struct {
	Pos  Pos
	Op   string
	X, Y Expr
}

// Call is Fn(Args..., Kwargs...): an op of the catalogue, or param and
// input, which make a leaf from a literal.
type Call struct {
	Pos    Pos
	Fn     string
	Args   []Expr
	Kwargs []Kwarg
}

// Kwarg is an attribute given as a keyword argument, name=literal.
type Kwarg struct {
	Pos   Pos
	Name  string
	Value *Lit
}

func (e *Lit) At() Pos    { return e.Pos }
func (e *Ref) At() Pos    { return e.Pos }
func (e *Unary) At() Pos  { return e.Pos }
func (e *Binary) At() Pos { return e.Pos }
func (e *Call) At() Pos   { return e.Pos }
