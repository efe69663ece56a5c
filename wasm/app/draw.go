package app

import (
	"tapelab/engine/autograd"
	"tapelab/wasm/layout"
)

// Box geometry of the tape drawing, in SVG pixels. The type is large for
// its box (a 16 px title) so that, fitted to a projector's tape region, the
// labels stay readable from the back of a room; the state badge sits on the
// box's top edge and takes no width.
const (
	BoxH       = 84.0 // every box: title, shape and role, value strip, gradient strip
	boxMinW    = 96.0
	titleCharW = 10.2 // one character of the 16 px bold title font, generously
	shapeCharW = 7.9  // one character of the 13 px monospace shape
	roleCharW  = 6.9  // one character of the 12 px italic role
	boxPadding = 18.0
	// StripCells is the most cells a box's value or gradient strip shows;
	// larger tensors are sampled evenly.
	StripCells = 16
)

// BoxWidth is the width of node n's box: room for its title and for its
// shape and role side by side.
func BoxWidth(n NodeInfo) float64 {
	role := len(n.Role)
	if n.Kind == autograd.Param && role == 0 {
		role = len("param")
	}
	title := float64(len([]rune(n.Title()))) * titleCharW
	second := float64(len(n.Shape.String()))*shapeCharW + float64(role)*roleCharW
	if role > 0 {
		second += 10
	}
	return max(boxMinW, max(title, second)+boxPadding)
}

// Layout places the tape's nodes left to right: parameters sit above the
// chain they feed, inputs and targets just before their first consumer.
func Layout(nodes []NodeInfo) (*layout.Layout, error) {
	ln := make([]layout.Node, len(nodes))
	for i, n := range nodes {
		ln[i] = layout.Node{Parents: n.Parents, W: BoxWidth(n), H: BoxH,
			Leaf: n.Kind != autograd.OpNode, Above: n.Kind == autograd.Param}
	}
	return layout.Compute(ln, layout.Options{ColGap: 28, RowGap: 20, Margin: 10})
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
