// Package budget bounds the work of one forward and one backward pass of
// a document before any of it is done. A model, a program or a lesson's
// stop is measured from its shapes alone, by running its op.Program on a
// Meter, an op.Ops backend that records shapes and counts work instead of
// computing values: the tape nodes, the edges between them, the elements
// held (every node's value and gradient) and the multiply-adds.
//
// The share service refuses a document over the limits when it is
// posted, the server checks them before it draws a first view, and the
// page checks them before it records a step, so that no document — drawn
// or run — can take the server or a student's tab down. An *Error names
// the quantity over its limit, by how much, and the part of the document
// (a program's line, a model's layer) that costs the most.
package budget

import (
	"strconv"
	"strings"
)

// Limits bounds one forward and one backward pass of a document.
type Limits struct {
	// Nodes bounds the tape's nodes (leaves, constants and op results).
	Nodes int
	// Edges bounds the operand references between nodes, which the tape's
	// drawing routes.
	Edges int
	// Elements bounds the numbers the tape holds: each node's value and
	// its gradient.
	Elements float64
	// MultiplyAdds bounds the arithmetic of the forward pass and the
	// reverse pass together.
	MultiplyAdds float64
}

// Default returns the limits TapeLab holds every document to. Each is
// far above what the gallery, the built-in lessons and the datasets'
// default models need (the tests hold every one of them to a tenth of
// it) and low enough that a pass takes well under a second natively and
// a few hundred megabytes at most:
//
//   - 5,000 nodes and 15,000 edges: 300 times the gallery's largest
//     tape, and room for the 3,763-statement chain that once ran the
//     server out of memory drawing it (a 64 KiB program of short
//     expressions, x+x+x+…, would have 30,000);
//   - 16,000,000 elements held (128 MB of values and gradients);
//   - 1,000,000,000 multiply-adds.
func Default() Limits {
	return Limits{Nodes: 5_000, Edges: 15_000, Elements: 16e6, MultiplyAdds: 1e9}
}

// Part is the work of one piece of a document: a statement of a program
// or a layer of a model.
type Part struct {
	// Name says which piece, as messages name it: "conv2d at line 4",
	// "layer 3 (linear)".
	Name string
	// Node is the id of the part's first node in the measured graph (for
	// a program, its node id: Program.Pos(Node) is where it is written).
	Node         int
	Nodes, Edges int
	Elements     float64
	MultiplyAdds float64
}

// Cost is the work of one forward and backward pass of a document, part
// by part in the order the parts first record a node.
type Cost struct {
	// Whole names the document in messages: "the program", "the model".
	Whole string
	Parts []Part
}

// Total returns the sum of the parts, named c.Whole.
func (c Cost) Total() Part {
	t := Part{Name: c.Whole}
	for _, p := range c.Parts {
		t.Nodes += p.Nodes
		t.Edges += p.Edges
		t.Elements += p.Elements
		t.MultiplyAdds += p.MultiplyAdds
	}
	return t
}

// quantity is one of the measures Limits bounds.
type quantity struct {
	name  string // as messages say it, plural
	of    func(Part) float64
	limit func(Limits) float64
}

var quantities = []quantity{
	{"tape nodes", func(p Part) float64 { return float64(p.Nodes) }, func(l Limits) float64 { return float64(l.Nodes) }},
	{"edges", func(p Part) float64 { return float64(p.Edges) }, func(l Limits) float64 { return float64(l.Edges) }},
	{"elements held", func(p Part) float64 { return p.Elements }, func(l Limits) float64 { return l.Elements }},
	{"multiply-adds", func(p Part) float64 { return p.MultiplyAdds }, func(l Limits) float64 { return l.MultiplyAdds }},
}

// Check returns nil when c is within l, and otherwise an *Error for the
// quantity furthest over its limit (nodes, edges, elements or
// multiply-adds), naming the part of c that costs the most of it.
func (c Cost) Check(l Limits) error {
	total := c.Total()
	var worst *Error
	for _, q := range quantities {
		got, limit := q.of(total), q.limit(l)
		if got <= limit || (worst != nil && got/limit <= worst.Total/worst.Limit) {
			continue
		}
		worst = &Error{Quantity: q.name, Whole: c.Whole, Total: got, Limit: limit, Node: -1}
		for _, p := range c.Parts {
			if v := q.of(p); v > worst.Largest {
				worst.Part, worst.Largest, worst.Node = p.Name, v, p.Node
			}
		}
	}
	if worst == nil {
		return nil
	}
	return worst
}

// Error reports a document over its work budget.
type Error struct {
	// Quantity is what is over its limit: "tape nodes", "edges",
	// "elements held" or "multiply-adds".
	Quantity string
	// Whole names the document ("the program"); Total is its amount and
	// Limit the limit.
	Whole        string
	Total, Limit float64
	// Part names the part that costs the most of it, and Largest is its
	// amount ("" and 0 when the document has no parts).
	Part    string
	Largest float64
	// Node is that part's first node (see Part.Node), −1 with no part.
	Node int
}

// Error says what is too large and by how much, naming the part at
// fault: "conv2d at line 4: 7.0e10 multiply-adds, the limit is 1e9 (70×
// over)" when one part alone is over the limit, and otherwise the whole
// with its largest part: "the program: 3.0e8 elements held in all, the
// limit is 8e6 (38× over); the largest part is mul at line 301 (2.1e6)".
func (e *Error) Error() string {
	var b strings.Builder
	over := " (" + times(e.Total/e.Limit) + " over)"
	if e.Part != "" && e.Largest > e.Limit {
		b.WriteString(e.Part + ": " + Amount(e.Largest) + " " + e.Quantity + ", the limit is " + Amount(e.Limit))
		b.WriteString(" (" + times(e.Largest/e.Limit) + " over)")
		if Amount(e.Largest) != Amount(e.Total) {
			b.WriteString("; " + Amount(e.Total) + " in " + e.Whole)
		}
		return b.String()
	}
	b.WriteString(e.Whole + ": " + Amount(e.Total) + " " + e.Quantity + " in all, the limit is " + Amount(e.Limit) + over)
	if e.Part != "" {
		b.WriteString("; the largest part is " + e.Part + " (" + Amount(e.Largest) + ")")
	}
	return b.String()
}

// Amount writes a count as messages show it: whole numbers up to
// 100,000 in full ("20000"), larger ones with two significant digits
// ("7.0e10"), and a limit that is a power of ten as one ("1e9").
func Amount(v float64) string {
	if v == float64(int64(v)) && v <= 100_000 {
		return strconv.FormatInt(int64(v), 10)
	}
	s := strconv.FormatFloat(v, 'e', 1, 64)
	s = strings.Replace(s, "e+0", "e", 1)
	s = strings.Replace(s, "e+", "e", 1)
	if strings.HasPrefix(s, "1.0e") {
		s = "1e" + s[len("1.0e"):]
	}
	return s
}

// times writes a ratio above 1 as "1.3×", "38×".
func times(r float64) string {
	if r < 10 {
		return strconv.FormatFloat(r, 'f', 1, 64) + "×"
	}
	return strconv.FormatFloat(r, 'f', 0, 64) + "×"
}
