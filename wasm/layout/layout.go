// Package layout computes a layered, left-to-right drawing of a tape: every
// node gets a box, every edge a route from its parent's right side to its
// child's left side. It is plain Go (no DOM), so the playground's tape view
// and its tests share one implementation.
//
// The method is Sugiyama's: columns by longest path, long edges split by
// dummy points (but the longest ones of a tape whose edges would pass more
// columns than a budget linear in its size allows, which jump over their
// columns in lanes above the drawing), crossings reduced by barycenter
// sweeps, and rows placed by isotonic regression (the closest placement to
// the neighbours' mean that keeps the column's order and gaps). Leaves
// marked Above (parameters) sit in the column just before their first
// consumer, above the chain they feed.
//
// A drawing too long for its viewport folds into rows (Layout.Wrap), the
// number of rows chosen for the viewport by PickRows.
package layout

import (
	"errors"
	"strconv"
)

// Node describes one box to place. Parents must be earlier node ids, as on a
// tape; repeats are allowed (x·x).
type Node struct {
	Parents []int
	// W and H are the box size in pixels; both must be positive.
	W, H float64
	// Leaf places the node in the column just before its first consumer
	// instead of at its longest-path depth.
	Leaf bool
	// Above sorts the node before (above) the other nodes of its column.
	// It is meant for parameters, which then sit above the chain they feed.
	Above bool
}

// Options tunes the spacing; the zero value uses the defaults.
type Options struct {
	ColGap  float64 // horizontal gap between columns (default 56)
	RowGap  float64 // vertical gap between boxes in a column (default 18)
	Margin  float64 // space around the drawing (default 16)
	DummyH  float64 // the height reserved for an edge passing a column (default 6)
	Sweeps  int     // barycenter sweep rounds (default 8)
	Refines int     // row placement rounds (default 12)
}

func (o Options) withDefaults() Options {
	def := func(v *float64, d float64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.ColGap, 56)
	def(&o.RowGap, 18)
	def(&o.Margin, 16)
	def(&o.DummyH, 6)
	if o.Sweeps <= 0 {
		o.Sweeps = 8
	}
	if o.Refines <= 0 {
		o.Refines = 12
	}
	return o
}

// Box is a placed node: its top-left corner, size and column.
type Box struct {
	X, Y, W, H float64
	Col        int
}

// Point is a position in pixels.
type Point struct{ X, Y float64 }

// Edge is a routed edge from node From to node To. Operand is the index of
// the parent in To's parent list. Points run left to right in pairs, one pair
// per column the edge runs through: where it enters and where it leaves that
// column (in From's column: From's right side and the column's right edge; in
// To's column: the column's left edge and To's left side). Within a pair the
// edge runs straight and level, clear of every box; between pairs it crosses
// an empty gap between columns.
//
// A jump (Jump set) runs over the columns between its ends instead of
// through them, in a lane above every box: its Points are three pairs, in
// From's column, along the lane from the left edge of the column after
// From's to the right edge of the column before To's, and in To's
// column. Compute draws the longest edges of a tape so when routing them
// through their columns would cost more points than the tape's size
// allows (see grid.longest); a drawing of one row then still has
// O(nodes + edges) points. In a folded drawing (Wrap) a jump's lane has a
// pair in each row it runs along.
type Edge struct {
	From, To, Operand int
	Points            []Point
	Jump              bool
	// Turns lists where a folded drawing (Wrap) turns the edge round
	// from one row to the next; nil in a drawing of one row.
	Turns []Turn
}

// Turn is where an edge of a folded drawing turns from one row to the
// next: the gap that ends at Points[At] (At is even) is drawn as a U
// bulging out to X instead of a curve across the gap.
type Turn struct {
	At int
	X  float64
}

// Span is a column's left edge and width.
type Span struct{ X, W float64 }

// Layout is the result of Compute.
type Layout struct {
	Boxes         []Box
	Edges         []Edge
	Width, Height float64
	Cols          int
	// Rows is the number of rows the drawing is folded into (1 as
	// Compute returns it; see Wrap).
	Rows int
	// Columns are the columns' spans in a drawing of one row (nil in a
	// folded one).
	Columns []Span
	// Crossings counts edge crossings between adjacent columns after
	// crossing reduction (jumps left out).
	Crossings int
}

// Path returns the SVG path data of e: straight runs inside columns and
// horizontal-tangent cubic curves across the gaps between columns.
func (e Edge) Path() string {
	b := make([]byte, 0, 24*len(e.Points))
	f := func(v float64) { b = strconv.AppendFloat(b, float64(int(v*10+0.5))/10, 'f', -1, 64) }
	for i, p := range e.Points {
		switch {
		case i == 0:
			b = append(b, 'M')
		case i%2 == 0: // entering a column: curve across the gap, or turn round
			q := e.Points[i-1]
			mx := (q.X + p.X) / 2
			for _, t := range e.Turns {
				if t.At == i {
					mx = t.X
				}
			}
			b = append(b, " C"...)
			f(mx)
			b = append(b, ' ')
			f(q.Y)
			b = append(b, ' ')
			f(mx)
			b = append(b, ' ')
			f(p.Y)
			b = append(b, ' ')
		default: // running level through a column
			b = append(b, " L"...)
		}
		f(p.X)
		b = append(b, ' ')
		f(p.Y)
	}
	return string(b)
}

// ErrParent reports a parent id that is not an earlier node.
var ErrParent = errors.New("layout: a parent must be an earlier node")

// ErrSize reports a box with a non-positive width or height.
var ErrSize = errors.New("layout: box sizes must be positive")

// Compute places the nodes. The result is a pure function of its input:
// the same nodes and options always give the same layout.
func Compute(nodes []Node, opt Options) (*Layout, error) {
	opt = opt.withDefaults()
	for i, n := range nodes {
		if !(n.W > 0 && n.H > 0) {
			return nil, errors.Join(ErrSize, errors.New("node "+strconv.Itoa(i)))
		}
		for _, p := range n.Parents {
			if p < 0 || p >= i {
				return nil, errors.Join(ErrParent, errors.New("node "+strconv.Itoa(i)+" has parent "+strconv.Itoa(p)))
			}
		}
	}
	g := newGrid(nodes, opt)
	g.assignColumns()
	g.splitLongEdges()
	g.order()
	g.place()
	return g.result(), nil
}
