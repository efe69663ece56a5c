package program

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/tensor"
)

// String returns the program's canonical text: one statement per line,
// single spaces around binary operators and after commas, only the
// parentheses precedence needs, numbers in their shortest exact form, and
// no comments or blank lines. Parsing it gives the same program.
func (p *Program) String() string {
	var b strings.Builder
	for _, s := range p.stmts {
		b.WriteString(s.Name)
		b.WriteString(" = ")
		writeExpr(&b, s.Expr, 0)
		b.WriteByte('\n')
	}
	return b.String()
}

// Precedence levels, loosest first.
const (
	levelSum     = 1 // + -
	levelProduct = 2 // * / @
	levelUnary   = 3 // -x, and negative numbers
	levelPower   = 4 // **
	levelAtom    = 5 // names, calls, lists, non-negative numbers
)

func level(e Expr) int {
	switch e := e.(type) {
	case *Lit:
		if len(e.Value.Shape) == 0 && math.Signbit(e.Value.Data[0]) {
			return levelUnary
		}
	case *Unary:
		return levelUnary
	case *Binary:
		switch e.Op {
		case "+", "-":
			return levelSum
		case "**":
			return levelPower
		}
		return levelProduct
	}
	return levelAtom
}

// writeExpr writes e, in parentheses when it binds looser than min.
func writeExpr(b *strings.Builder, e Expr, min int) {
	if level(e) < min {
		b.WriteByte('(')
		defer b.WriteByte(')')
	}
	switch e := e.(type) {
	case *Lit:
		writeLit(b, e.Value)
	case *Ref:
		b.WriteString(e.Name)
	case *Unary:
		b.WriteByte('-')
		writeExpr(b, e.X, levelUnary)
	case *Binary:
		if e.Op == "**" {
			writeExpr(b, e.X, levelAtom)
			b.WriteString(" ** ")
			writeLit(b, e.Y.(*Lit).Value)
			return
		}
		l := level(e)
		writeExpr(b, e.X, l)
		b.WriteString(" " + e.Op + " ")
		writeExpr(b, e.Y, l+1)
	case *Call:
		b.WriteString(e.Fn)
		b.WriteByte('(')
		for i, x := range e.Args {
			if i > 0 {
				b.WriteString(", ")
			}
			writeExpr(b, x, 0)
		}
		for i, k := range e.Kwargs {
			if i > 0 || len(e.Args) > 0 {
				b.WriteString(", ")
			}
			b.WriteString(k.Name)
			b.WriteByte('=')
			writeLit(b, k.Value.Value)
		}
		b.WriteByte(')')
	}
}

// writeLit writes a number, or nested lists in t's shape.
func writeLit(b *strings.Builder, t *tensor.Tensor) {
	b.WriteString(t.Shape.Nested(t.Data, formatNumber))
}

// formatNumber writes v in the shortest form that reads back to the same
// bits (-0 included).
func formatNumber(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
