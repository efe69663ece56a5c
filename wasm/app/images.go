package app

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Images of rank-4 tensors: an activation [N C H W] is drawn as C small
// images (one per channel) of the selected example; a convolution's weight
// [O I kH kW] as O×I tiny images, one per kernel. The geometry here is in
// SVG pixels and shared by the tape's boxes and the inspector.
const (
	// ImageRowH is the tallest a plane is drawn on the tape, as in the
	// inspector (an 8×8 input image is 96 px, a pixel 12: readable on a
	// projector), and ImageKernelH the tallest a kernel is: a weight's
	// box sits above the chain and its height adds to the tape's.
	ImageRowH, ImageKernelH = 96.0, 30.0
	// ImageBoxSide is the most a grid of planes takes on the tape, across
	// and down: the planes wrap into the arrangement that draws a pixel
	// largest within it (four 6×6 feature maps are 2×2 planes of 48 px).
	ImageBoxSide = 100.0
	// ImageGap separates the images of a row and the rows of a grid.
	ImageGap = 3.0
	// ImageMaxCols is the most images a row holds before it wraps.
	ImageMaxCols = 8
	// ImageRangeH is the line under a gradient's grid that says its range
	// (its colours are scaled to it: see ImageRange).
	ImageRangeH = 16.0
	// scaleEnd is the number at the strong end of the legend (LegendTicks).
	scaleEnd = 2.0
	// imageMinCell is the smallest side of a pixel.
	imageMinCell = 2.0
)

// IsImage reports whether a tensor of shape s is drawn as images.
func IsImage(s tensor.Shape) bool { return len(s) == 4 && s[2] > 0 && s[3] > 0 }

// ImageGrid is the arrangement of a rank-4 tensor's planes: which elements
// each plane starts at and where each is drawn.
type ImageGrid struct {
	H, W int // a plane's pixels
	// Offsets holds each plane's first element in the tensor's data.
	Offsets    []int
	Cols, Rows int     // the planes' arrangement
	Cell       float64 // a pixel's side
	Width      float64 // the grid's extent
	Height     float64
}

// GridWithin arranges the planes of a tensor of shape s (IsImage): for a
// kernel (kernel set: weights [O I kH kW]) every O×I plane, else the C
// channels of example n (clamped to the batch). The planes wrap into the
// number of columns (at most ImageMaxCols) that draws a pixel largest
// within wide × high, so that the grid fits when any arrangement does (of
// equal ones, the one with the fewest empty places). A
// pixel's side is a whole number, at least 2 and at most rowH/3 and
// rowH/H (a plane is at most rowH tall, and a 1×1 or 2×2 plane stays
// small). A kernel grid with I > 1 keeps one output channel per row. The
// arrangement does not depend on n.
func GridWithin(s tensor.Shape, n int, kernel bool, rowH, wide, high float64) ImageGrid {
	g := planes(s, n, kernel)
	most, fewest := g.Cols, 1
	if kernel && s[1] > 1 {
		fewest = most
	}
	best := g.arranged(fewest, imageMinCell) // the narrowest, when no pixel larger fits
	for cols := most; cols >= fewest; cols-- {
		rows := (len(g.Offsets) + cols - 1) / cols
		cell := min(maxCell(rowH, g.H), fit(wide, cols, g.W), fit(high, rows, g.H))
		// equally large pixels: the arrangement with fewer empty places (2×2, not 3+1)
		if cell > best.Cell || cell == best.Cell && cols*rows < best.Cols*best.Rows {
			best = g.arranged(cols, cell)
		}
	}
	return best
}

// Example returns g showing example n of a tensor of shape s: the same
// arrangement, the planes of example n (a kernel grid's do not change).
func (g ImageGrid) Example(s tensor.Shape, n int, kernel bool) ImageGrid {
	g.Offsets = planes(s, n, kernel).Offsets
	return g
}

// fit is the largest whole pixel that fits n planes of px pixels, with
// the gaps between them, in room.
func fit(room float64, n, px int) float64 {
	return math.Floor((room - float64(n-1)*ImageGap) / float64(n*px))
}

// planes is the grid of GridWithin's planes, at most ImageMaxCols to a
// row (a kernel grid with I > 1: one output channel per row), not yet
// sized.
func planes(s tensor.Shape, n int, kernel bool) ImageGrid {
	g := ImageGrid{H: s[2], W: s[3]}
	plane := s[2] * s[3]
	if kernel {
		for o := range s[0] {
			for i := range s[1] {
				g.Offsets = append(g.Offsets, (o*s[1]+i)*plane)
			}
		}
		g.Cols = s[1]
		if s[1] == 1 {
			g.Cols = min(s[0], ImageMaxCols)
		}
	} else {
		n = max(0, min(n, s[0]-1))
		for c := range s[1] {
			g.Offsets = append(g.Offsets, (n*s[1]+c)*plane)
		}
		g.Cols = min(s[1], ImageMaxCols)
	}
	g.Cols = max(1, min(g.Cols, ImageMaxCols))
	return g
}

// maxCell is the side of a pixel for planes h pixels tall in rows rowH
// tall: a whole number, at least 2 and at most rowH/3.
func maxCell(rowH float64, h int) float64 {
	return math.Max(imageMinCell, math.Min(math.Floor(rowH/3), math.Floor(rowH/float64(h))))
}

// arranged is g in cols columns with pixels cell wide.
func (g ImageGrid) arranged(cols int, cell float64) ImageGrid {
	g.Cols, g.Cell = cols, cell
	g.Rows = (len(g.Offsets) + g.Cols - 1) / g.Cols
	pw, ph := g.Cell*float64(g.W), g.Cell*float64(g.H)
	g.Width = float64(g.Cols)*pw + float64(g.Cols-1)*ImageGap
	g.Height = float64(g.Rows)*ph + float64(g.Rows-1)*ImageGap
	return g
}

// Origin returns where plane k is drawn, from the grid's top-left corner.
func (g ImageGrid) Origin(k int) (x, y float64) {
	col, row := k%g.Cols, k/g.Cols
	return float64(col) * (g.Cell*float64(g.W) + ImageGap), float64(row) * (g.Cell*float64(g.H) + ImageGap)
}

// IsKernel reports whether node n's images are kernels (a parameter of
// rank 4: a convolution's weight) rather than an example's channels.
func IsKernel(n NodeInfo) bool { return n.Kind == autograd.Param && IsImage(n.Shape) }

// NodeGrid is the grid node n's value and gradient are drawn in on the
// tape, for example ex; ok is false when n is not drawn as images.
func NodeGrid(n NodeInfo, ex int) (ImageGrid, bool) {
	if !IsImage(n.Shape) {
		return ImageGrid{}, false
	}
	rowH := ImageRowH
	if IsKernel(n) {
		rowH = ImageKernelH
	}
	return GridWithin(n.Shape, ex, IsKernel(n), rowH, ImageBoxSide, ImageBoxSide), true
}

// imageBox returns the size of an image node's box: its title and shape
// lines, then the value grid and the gradient grid in place of the strips,
// each after its label, the gradient's range under it.
func imageBox(g ImageGrid) (w, h float64) {
	return StripX + StripLabelW + g.Width + BoxInset, ValueY + 2*g.Height + 2*ImageGap + ImageRangeH + 8
}

// ImageRange is how a gradient's images are coloured: the largest finite
// magnitude m among the elements of t that grid g draws, the factor k that
// draws ±m at the end of the shared scale's legend (±2), and m as the
// label beside the images says it ("±2.1e-4"). A gradient is often far
// smaller than the values it belongs to (a conv's dY of 1e-4 is white on
// the shared scale), so each gradient image is scaled to its own range,
// which is always said; values keep the shared scale, where the same
// number is the same colour everywhere.
func ImageRange(t *tensor.Tensor, g ImageGrid) (k float64, label string) {
	m := 0.0
	for _, off := range g.Offsets {
		for _, x := range t.Data[off : off+g.H*g.W] {
			if a := math.Abs(x); a > m && !math.IsInf(a, 0) {
				m = a
			}
		}
	}
	if m == 0 {
		return 1, "±0"
	}
	label = strconv.FormatFloat(m, 'g', 2, 64)
	if m < 0.01 || m >= 1000 {
		// "2.1e-04" → "2.1e-4"
		label = strings.Replace(strings.Replace(strconv.FormatFloat(m, 'e', 1, 64), "e-0", "e-", 1), "e+0", "e+", 1)
	}
	return scaleEnd / m, "±" + label
}

// ImageRows returns the tops of an image node's value and gradient grids in
// its box.
func ImageRows(g ImageGrid) (valueY, gradY float64) {
	return ValueY, ValueY + g.Height + 2*ImageGap
}
