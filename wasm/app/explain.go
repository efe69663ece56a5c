package app

import (
	"strings"
	"unicode/utf8"

	"tapelab/engine/tensor"
)

// Card is the inspector's explanation of one node at the cursor's position:
// its op's formula and chain rule from the catalogue, the operands with their
// values, the upstream gradient, and what its VJP step sent to each parent.
type Card struct {
	Formula string // the op's forward rule, e.g. "Y = A·B"
	Rule    string // the op's chain rule, e.g. "dA = dY·Bᵀ, dB = Aᵀ·dY"
	// Terms gives each symbol of Formula and Rule its node and current value.
	Terms []Term
	// Upstream is the node's gradient dY: final once its VJP step ran.
	Upstream string
	// Contribs are the lines of its VJP step, in the order they were folded.
	Contribs []ContribLine
}

// Term is one symbol of the chain rule bound to a value.
type Term struct {
	Name  string // "A", "W", "Y", "dY"
	Node  int    // the node holding it, or -1
	Value string // Inline value, "—" while unknown
}

// ContribLine shows one contribution: the rule's clause for that operand,
// with the numbers put in, and the parent's gradient before and after.
type ContribLine struct {
	Operand string // the operand's name
	Parent  int
	Clause  string // e.g. "dA = dY·Bᵀ"
	Numbers string // the clause's right side with the values put in
	Value   string // the contribution
	Before  string // the parent's gradient before, or "" when this is its first
	After   string
	// Accumulates is set when the parent already held a gradient: the
	// contribution is added with += (a value used by several nodes).
	Accumulates bool
}

// The card writes tensors of up to cardLimit elements as numbers (terms:
// termLimit) and larger ones by their shape; the inspector's tables show
// every number.
const (
	cardLimit = 8
	termLimit = 4
)

// brief formats t for the card: its numbers when it has at most limit
// elements, else its shape.
func brief(t *tensor.Tensor, limit int) string {
	if t != nil && len(t.Data) > limit {
		return t.Shape.String()
	}
	return Inline(t)
}

// Explain builds the card for node i.
func (s *Stepper) Explain(i int) Card {
	n := s.nodes[i]
	var c Card
	if n.Op == nil {
		return c
	}
	c.Formula, c.Rule = n.Op.Formula, n.Op.Rule
	vals := map[string]*tensor.Tensor{}
	for k, p := range n.Parents {
		v := s.Value(p)
		c.Terms = append(c.Terms, Term{Name: n.Operands[k], Node: p, Value: brief(v, termLimit)})
		vals[n.Operands[k]] = v
	}
	y, dy := s.Value(i), s.Grad(i)
	c.Terms = append(c.Terms, Term{Name: "Y", Node: i, Value: brief(y, termLimit)}, Term{Name: "dY", Node: i, Value: brief(dy, termLimit)})
	vals["Y"], vals["dY"] = y, dy
	c.Upstream = Inline(dy)
	clauses := strings.Split(n.Op.Rule, ", ")
	for _, ct := range s.steps[i] {
		name := n.Operands[ct.Operand]
		l := ContribLine{Operand: name, Parent: ct.Parent, Value: brief(ct.Value, cardLimit), After: brief(ct.After, cardLimit),
			Accumulates: ct.Before != nil}
		if ct.Before != nil {
			l.Before = brief(ct.Before, cardLimit)
		}
		for _, cl := range clauses {
			lhs, rhs, ok := strings.Cut(cl, " = ")
			switch {
			case !ok:
			case lhs == "d"+name:
				l.Clause = cl
				l.Numbers = substitute(rhs, vals)
			case strings.HasPrefix(lhs, "d"+name+"["):
				// An element-wise rule (conv2d's dW[o,c,p,q] = …) has no
				// whole-tensor product to fill in with numbers.
				l.Clause = cl
			}
		}
		c.Contribs = append(c.Contribs, l)
	}
	return c
}

// substitute replaces each symbol of expr that names a value in vals by the
// value (small tensors) or its shape (large ones); other text is kept.
func substitute(expr string, vals map[string]*tensor.Tensor) string {
	var b strings.Builder
	for i := 0; i < len(expr); {
		r, size := utf8.DecodeRuneInString(expr[i:])
		if !isSymbolRune(r) {
			b.WriteString(expr[i : i+size])
			i += size
			continue
		}
		j := i
		for j < len(expr) {
			r2, s2 := utf8.DecodeRuneInString(expr[j:])
			if !isSymbolRune(r2) {
				break
			}
			j += s2
		}
		word := expr[i:j]
		if v, ok := vals[word]; ok && v != nil {
			if len(v.Data) <= cardLimit {
				b.WriteString(Inline(v))
			} else {
				b.WriteString(v.Shape.String())
			}
		} else {
			b.WriteString(word)
		}
		i = j
	}
	return b.String()
}

// isSymbolRune reports whether r can be part of a symbol of a chain rule
// (ASCII letters and Greek; ᵀ, the transpose mark, is not).
func isSymbolRune(r rune) bool {
	return 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || 'α' <= r && r <= 'ω' || 'Α' <= r && r <= 'Ω'
}
