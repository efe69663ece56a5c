package app

import (
	"tapelab/engine/autograd"
	"tapelab/wasm/layout"
)

// Box geometry of the tape drawing, in SVG pixels.
const (
	BoxH       = 70.0 // every box: title, shape, value strip, gradient strip
	boxMinW    = 104.0
	charW      = 7.6 // one character of the 13 px title font, generously
	boxPadding = 24.0
	// StripCells is the most cells a box's value or gradient strip shows;
	// larger tensors are sampled evenly.
	StripCells = 16
)

// badgeChars is the room kept beside a box's title for its state badge
// ("v✓", "g✓", "skip", "g=0").
const badgeChars = 5

// BoxWidth is the width of node n's box: room for its title and badge and
// for its shape and role.
func BoxWidth(n NodeInfo) float64 {
	role := len(n.Role)
	if n.Kind == autograd.Param && role == 0 {
		role = len("param")
	}
	chars := max(len([]rune(n.Title()))+badgeChars, len(n.Shape.String())+role+3)
	return max(boxMinW, float64(chars)*charW+boxPadding)
}

// Layout places the tape's nodes left to right: parameters sit above the
// chain they feed, inputs and targets just before their first consumer.
func Layout(nodes []NodeInfo) (*layout.Layout, error) {
	ln := make([]layout.Node, len(nodes))
	for i, n := range nodes {
		ln[i] = layout.Node{Parents: n.Parents, W: BoxWidth(n), H: BoxH,
			Leaf: n.Kind != autograd.OpNode, Above: n.Kind == autograd.Param}
	}
	return layout.Compute(ln, layout.Options{ColGap: 44, RowGap: 14})
}

// StripSample returns the indices of up to StripCells elements of a tensor
// of n elements, evenly spread.
func StripSample(n int) []int { return Sample(n, StripCells) }

// Sample returns the indices of up to k of n items, evenly spread, in order.
func Sample(n, k int) []int {
	k = min(n, k)
	idx := make([]int, k)
	for i := range idx {
		idx[i] = i * n / k
	}
	return idx
}
