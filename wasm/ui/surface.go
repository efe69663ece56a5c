//go:build js && wasm

package ui

import (
	"math"
	"strconv"

	"tapelab/wasm/dom"
	"tapelab/wasm/trainer"
)

// surfaceCells is the loss surface's grid, surfaceBands the loss levels
// it is shaded in (so that the bands' edges are its contours).
const (
	surfaceCells = 48
	surfaceBands = 9
)

// Surface draws the loss of a model with two parameter values over its
// parameter plane, shaded in bands from light (low loss) to dark, with
// the path of every run compared through it (Palette.Runs and runDash):
// a hollow ring where the runs start, a dot where each stands now. It
// evaluates the surface again only when a path leaves the square drawn.
type Surface struct {
	u      *dom.Document
	canvas dom.Canvas
	pix    *dom.Pixels
	size   float64
	bounds trainer.Bounds
	grid   []float64        // the loss at each cell of bounds, nil until drawn
	model  *trainer.Session // the session whose surface grid holds
}

// NewSurface returns a loss surface size CSS pixels square, on a canvas
// with the id train-surface.
func NewSurface(u *dom.Document, size int) *Surface {
	return &Surface{u: u, size: float64(size), pix: dom.NewPixels(u, surfaceCells),
		canvas: dom.NewCanvas(u, float64(size), float64(size), "id", "train-surface", "role", "img",
			"aria-label", "The training loss over the two parameters' plane, darker where it is higher, with each run's path through it")}
}

// Elem is the surface's canvas element.
func (v *Surface) Elem() dom.Elem { return v.canvas.El }

// Draw paints the surface of runs[0]'s model and every run's path; the
// runs must share one model with two parameter values (trainer.Two).
func (v *Surface) Draw(runs []*trainer.Session) error {
	trails := make([][]trainer.Point, len(runs))
	for i, s := range runs {
		trails[i] = s.Trail()
	}
	if v.grid == nil || v.model != runs[0] || !v.bounds.Contains(trails...) {
		b := trainer.TrailBounds(trails...)
		g, err := runs[0].Surface(b, surfaceCells)
		if err != nil {
			return err
		}
		v.grid, v.bounds, v.model = g, b, runs[0]
		v.shade()
		v.canvas.El.SetAttribute("data-bounds", strconv.FormatFloat(b.X0, 'g', -1, 64)+" "+strconv.FormatFloat(b.X1, 'g', -1, 64)+" "+
			strconv.FormatFloat(b.Y0, 'g', -1, 64)+" "+strconv.FormatFloat(b.Y1, 'g', -1, 64))
	}
	pal := ReadPalette(v.u)
	c := v.canvas
	c.Clear(v.size, v.size)
	c.DrawPixels(v.pix, v.size, v.size)
	k := pal.Stroke
	at := func(p trainer.Point) (float64, float64) {
		b := v.bounds
		return (p.X - b.X0) / (b.X1 - b.X0) * v.size, (b.Y1 - p.Y) / (b.Y1 - b.Y0) * v.size
	}
	c.RoundPen()
	for i, t := range trails {
		if len(t) == 0 {
			continue
		}
		colour := pal.Runs[i%len(pal.Runs)]
		c.BeginPath()
		for j, p := range t {
			x, y := at(p)
			if j == 0 {
				c.MoveTo(x, y)
			} else {
				c.LineTo(x, y)
			}
		}
		dash := make([]any, len(runDash[i%len(runDash)]))
		for j, d := range runDash[i%len(runDash)] {
			dash[j] = d * k
		}
		c.Stroke(colour, 2.2*k, dash...)
		x, y := at(t[len(t)-1])
		c.BeginPath()
		c.Circle(x, y, 4.5*k)
		c.Fill(colour)
	}
	if len(trails[0]) > 0 {
		x, y := at(trails[0][0])
		c.BeginPath()
		c.Circle(x, y, 6*k)
		c.Stroke(pal.Ink, 1.5*k)
	}
	c.BeginPath()
	c.Rect(0.5, 0.5, v.size-1, v.size-1)
	c.Stroke(pal.Frame, 1)
	return nil
}

// shade paints the grid in bands of equal steps of the loss's logarithm
// between its lowest and highest finite values; a cell whose loss is not
// finite is the darkest.
func (v *Surface) shade() {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, l := range v.grid {
		if l > 0 && !math.IsInf(l, 0) {
			lo, hi = math.Min(lo, math.Log(l)), math.Max(hi, math.Log(l))
		}
	}
	for i, l := range v.grid {
		band := surfaceBands - 1
		if l > 0 && !math.IsInf(l, 0) && hi > lo {
			band = min(surfaceBands-1, int((math.Log(l)-lo)/(hi-lo)*surfaceBands))
		} else if l <= 0 || hi <= lo {
			band = 0
		}
		// From near white (low loss) to a mid grey, so that the paths'
		// colours stand out on every band.
		g := byte(248 - band*11)
		v.pix.RGBA[4*i], v.pix.RGBA[4*i+1], v.pix.RGBA[4*i+2], v.pix.RGBA[4*i+3] = g, g, g+4, 255
	}
	v.pix.Put()
}
