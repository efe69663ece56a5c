package app

import (
	"math"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
)

// Images of rank-4 tensors: an activation [N C H W] is drawn as C small
// images (one per channel) of the selected example; a convolution's weight
// [O I kH kW] as O×I tiny images, one per kernel. The geometry here is in
// SVG pixels and shared by the tape's boxes and the inspector.
const (
	// ImageRowH is the height an image row aims at on the tape.
	ImageRowH = 30.0
	// ImageGap separates the images of a row and the rows of a grid.
	ImageGap = 3.0
	// ImageMaxCols is the most images a row holds before it wraps.
	ImageMaxCols = 8
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

// Grid arranges the planes of a tensor of shape s (IsImage): for a kernel
// (kernel set: weights [O I kH kW]) every O×I plane, else the C channels of
// example n (clamped to the batch). Each pixel is Cell wide, chosen so a
// plane is about rowH tall; rows wrap after ImageMaxCols
// planes (a kernel grid puts one output channel per row when I > 1). A
// pixel's side is a whole number, at least 2 and at most rowH/3 (so that a
// 1×1 or 2×2 plane stays small).
func Grid(s tensor.Shape, n int, kernel bool, rowH float64) ImageGrid {
	g := planes(s, n, kernel)
	return g.arranged(g.Cols, maxCell(rowH, g.H))
}

// GridWithin arranges the planes as Grid does, for a column wide pixels
// wide: the planes wrap into the number of columns that draws a pixel
// largest (at most Grid's side for rowH, at least 2), so that the grid
// fits in wide when any arrangement does. A kernel grid with I > 1 keeps
// one output channel per row.
func GridWithin(s tensor.Shape, n int, kernel bool, rowH, wide float64) ImageGrid {
	g := planes(s, n, kernel)
	most, fewest := g.Cols, 1
	if kernel && s[1] > 1 {
		fewest = most
	}
	best := g.arranged(fewest, imageMinCell) // the narrowest, when no pixel larger fits
	for cols := most; cols >= fewest; cols-- {
		cell := math.Min(maxCell(rowH, g.H), math.Floor((wide-float64(cols-1)*ImageGap)/float64(cols*g.W)))
		if cell > best.Cell {
			best = g.arranged(cols, cell)
		}
	}
	return best
}

// planes is the grid of Grid's planes, arranged in Grid's columns but not
// yet sized.
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
	return Grid(n.Shape, ex, IsKernel(n), ImageRowH), true
}

// imageBox returns the size of an image node's box: its title and shape
// lines, then the value grid and the gradient grid in place of the strips,
// each after its label.
func imageBox(g ImageGrid) (w, h float64) {
	return StripX + StripLabelW + g.Width + BoxInset, ValueY + 2*g.Height + 2*ImageGap + 8
}

// ImageRows returns the tops of an image node's value and gradient grids in
// its box.
func ImageRows(g ImageGrid) (valueY, gradY float64) {
	return ValueY, ValueY + g.Height + 2*ImageGap
}
