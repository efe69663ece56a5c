//go:build js && wasm

package ui

import (
	"math"

	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/trainer"
)

// fieldCells is the resolution of the decision-boundary grid; the canvas
// scales it up smoothly, as TensorFlow Playground does.
const fieldCells = 64

// lutLo…lutHi is the range of the colour lookup table; values outside it
// get the end colours (the scale is nearly saturated there).
const (
	lutLo, lutHi, lutStep = -4.0, 4.0, 0.01
)

// scaleLUT holds the page's value scale as RGB bytes at every lutStep,
// so that the heatmap uses exactly the page's one colour scale.
type scaleLUT struct {
	sc  *app.Scale
	rgb [][3]byte
}

func newScaleLUT(sc *app.Scale) scaleLUT {
	n := int(math.Round((lutHi-lutLo)/lutStep)) + 1
	l := scaleLUT{sc: sc, rgb: make([][3]byte, n)}
	for i := range l.rgb {
		l.rgb[i] = sc.RGB(lutLo + float64(i)*lutStep)
	}
	return l
}

func (l scaleLUT) at(v float64) [3]byte {
	if math.IsNaN(v) {
		return l.sc.RGB(v)
	}
	i := int(math.Round((v - lutLo) / lutStep))
	return l.rgb[min(max(i, 0), len(l.rgb)-1)]
}

// Plot draws a training session's data and the model's picture on a
// square canvas: the decision boundary (2-D inputs) or the fitted curve
// (1-D inputs). It keeps only its canvas, its pixels and the bounds it
// drew last, which place a click on the data.
type Plot struct {
	u      *dom.Document
	canvas dom.Canvas
	field  *dom.Pixels // fieldCells² pixels the field is painted on
	lut    scaleLUT
	size   float64 // CSS pixels
	bounds trainer.Bounds
}

// NewPlot returns a plot size CSS pixels square, on a canvas with the id
// train-field, that paints values on the page's value scale sc.
func NewPlot(u *dom.Document, size int, sc *app.Scale) *Plot {
	return &Plot{u: u, lut: newScaleLUT(sc), size: float64(size), field: dom.NewPixels(u, fieldCells),
		canvas: dom.NewCanvas(u, float64(size), float64(size), "id", "train-field", "role", "img",
			"aria-label", "The model's output over the input plane with the data points; click to add a point")}
}

// Elem is the plot's canvas element.
func (p *Plot) Elem() dom.Elem { return p.canvas.El }

// At returns the input coordinates, on the picture drawn last, of the
// pointer event ev on the canvas.
func (p *Plot) At(ev dom.Event) (x, y float64) {
	r := p.canvas.El.Rect()
	scale := p.size / r.Width
	cx, cy := ev.Client()
	return p.toData((cx-r.Left)*scale, (cy-r.Top)*scale)
}

// toData converts a point on the canvas (CSS pixels) to input coordinates.
func (p *Plot) toData(px, py float64) (x, y float64) {
	b := p.bounds
	return b.X0 + px/p.size*(b.X1-b.X0), b.Y1 - py/p.size*(b.Y1-b.Y0)
}

func (p *Plot) toCanvas(x, y float64) (px, py float64) {
	b := p.bounds
	return (x - b.X0) / (b.X1 - b.X0) * p.size, (b.Y1 - y) / (b.Y1 - b.Y0) * p.size
}

// Draw paints the session's picture: its training and test data and the
// model's output over them. It returns the session's error in computing
// that output, if any.
func (p *Plot) Draw(s *trainer.Session) error {
	pal := ReadPalette(p.u)
	p.bounds = s.Bounds()
	c := p.canvas
	c.Clear(p.size, p.size)
	tr, te := s.Sets()
	if s.Model().Seq.Input().Size() == 2 {
		f, err := s.Field(p.bounds, fieldCells)
		if err != nil {
			return err
		}
		pix := p.field.RGBA
		for i, v := range f {
			rgb := p.lut.at(v)
			pix[4*i], pix[4*i+1], pix[4*i+2], pix[4*i+3] = rgb[0], rgb[1], rgb[2], 255
		}
		p.field.Put()
		c.DrawPixels(p.field, p.size, p.size)
		p.points(pal, te, s.Classification(), true)
		p.points(pal, tr, s.Classification(), false)
	} else {
		c.Background(pal.Surface, p.size, p.size)
		p.curvePoints(pal, te, true)
		p.curvePoints(pal, tr, false)
		xs, ys, err := s.Curve(p.bounds, 120)
		if err != nil {
			return err
		}
		c.BeginPath()
		for i := range xs {
			px, py := p.toCanvas(xs[i], ys[i])
			if i == 0 {
				c.MoveTo(px, py)
			} else {
				c.LineTo(px, py)
			}
		}
		c.Stroke(pal.Ink, pal.Stroke*2.5)
	}
	c.BeginPath()
	c.Rect(0.5, 0.5, p.size-1, p.size-1)
	c.Stroke(pal.Frame, 1)
	return nil
}

// points draws 2-D examples: class 0 as circles, class 1 as squares (shape
// as well as colour), regression targets on the value scale; test points
// hollow.
func (p *Plot) points(pal Palette, d *train.Dataset, classes, test bool) {
	c := p.canvas
	k := pal.Stroke
	r := 3.6 * k
	for i := 0; i < d.Len(); i++ {
		x, y := d.X.Data[2*i], d.X.Data[2*i+1]
		v := d.Y.Data[i]
		px, py := p.toCanvas(x, y)
		col := p.lut.sc.Colour(v)
		square := false
		if classes {
			col = p.lut.sc.Colour(4*v - 2) // class 0 → strong blue, class 1 → strong orange
			square = v >= 0.5
		}
		c.BeginPath()
		if square {
			c.Rect(px-r, py-r, 2*r, 2*r)
		} else {
			c.Circle(px, py, r)
		}
		if test {
			c.Stroke(col, 2.2*k)
			continue
		}
		c.Fill(col)
		if classes {
			c.Stroke(pal.Surface, 1*k)
		} else { // values near 0 are near white: outline them
			c.Stroke(pal.Outline, 0.8*k)
		}
	}
}

// curvePoints draws 1-D examples as (x, target) dots.
func (p *Plot) curvePoints(pal Palette, d *train.Dataset, test bool) {
	c := p.canvas
	k := pal.Stroke
	col := pal.Neg
	if test {
		col = pal.Pos
	}
	for i := 0; i < d.Len(); i++ {
		px, py := p.toCanvas(d.X.Data[i], d.Y.Data[i])
		c.BeginPath()
		c.Circle(px, py, 2.8*k)
		c.Fill(col)
	}
}
