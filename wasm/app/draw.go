package app

import (
	"unicode/utf8"

	"tapelab/engine/autograd"
	"tapelab/wasm/layout"
)

// Box geometry of the tape drawing, in SVG pixels, and the type sizes it
// is measured for (the page sets the sizes from these constants; the
// stylesheet gives only the fonts' family, weight and colour). The type is
// large for its box (a 16 px title) so that, fitted to a projector's tape
// region, the labels stay readable from the back of a room; the state badge
// sits on the box's top edge and takes no width.
const (
	BoxH       = 84.0 // every box: title, shape and role, value strip, gradient strip
	boxMinW    = 96.0
	titleCharW = 10.2 // one character of the TitlePx bold title font, generously
	shapeCharW = 7.9  // one character of the ShapePx monospace shape
	roleCharW  = 6.9  // one character of the RolePx italic role
	boxPadding = 2 * BoxInset
	// StripCells is the most cells a box's value or gradient strip shows;
	// larger tensors are sampled evenly.
	StripCells = 16

	// Type sizes, in px.
	TitlePx, ShapePx, RolePx, BadgePx, StripLabelPx, StripNumPx = 16.0, 13.0, 12.0, 12.0, 12.0, 13.0

	// Inside a box, from its top-left corner.
	BoxInset = 9.0  // left and right margin of the title, shape and role
	TitleY   = 22.0 // the title's baseline
	ShapeY   = 42.0 // the baseline of the shape (left) and the role (right)
	ValueY   = 51.0 // the top of the value strip
	GradY    = 67.0 // the top of the gradient strip
	RingPad  = 5.0  // the focus ring's distance from the box

	// A strip: its label, then its cells (or a scalar's number).
	StripX      = 8.0  // the strip's left edge
	StripLabelW = 15.0 // the room its label (v or g) takes
	StripCellH  = 12.0
	StripTextY  = 11.0 // the baseline of its label and number

	// The state badge: a tab centred on the box's top edge, right-aligned
	// BadgeRight from the box's right edge.
	BadgeH     = 17.0
	BadgeRight = 8.0
	BadgeTextX = -6.0 // the badge text's right end, from the tab's anchor
	BadgeTextY = 4.0  // its baseline, from the box's top edge

	// Corner radii: a parameter's box is rounder than an op's.
	RingRadius, ParamRadius, OpRadius = 10.0, 16.0, 5.0
	badgeCharW                        = 7.4 // one character of the BadgePx bold badge
	badgePad                          = 12.0
)

// StripW is the width of the strips of a box of width w.
func StripW(w float64) float64 { return w - 2*BoxInset }

// BadgeW is the width of the badge tab holding text.
func BadgeW(text string) float64 { return badgePad + badgeCharW*float64(len([]rune(text))) }

// BoxWidth is the width of node n's box: room for its title and for its
// shape and role side by side.
func BoxWidth(n NodeInfo) float64 {
	role := utf8.RuneCountInString(n.Tag())
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
		if g, ok := NodeGrid(n, 0); ok {
			w, h := imageBox(g)
			ln[i].W, ln[i].H = max(ln[i].W, w), max(BoxH, h)
		}
	}
	return layout.Compute(ln, layout.Options{ColGap: 28, RowGap: 20, Margin: 10})
}

// Layout returns the layout of the stepper's tape (Layout of its nodes),
// worked out on the first call and kept: the tape view lays a recorded
// step out once, and start-up can do it before the task that draws it.
func (s *Stepper) Layout() (*layout.Layout, error) {
	if s.lay == nil && s.layErr == nil {
		s.lay, s.layErr = Layout(s.nodes)
	}
	return s.lay, s.layErr
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
