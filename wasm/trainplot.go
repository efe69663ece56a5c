//go:build js && wasm

package main

import (
	"math"
	"strconv"

	"tapelab/engine/train"
	"tapelab/wasm/app"
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

// scaleLUT holds app.Colour as RGB bytes at every lutStep, so that the
// heatmap uses exactly the page's one colour scale.
type scaleLUT [][3]byte

func newScaleLUT() scaleLUT {
	n := int(math.Round((lutHi-lutLo)/lutStep)) + 1
	l := make(scaleLUT, n)
	for i := range l {
		l[i] = rgbOf(app.Colour(lutLo + float64(i)*lutStep))
	}
	return l
}

func (l scaleLUT) at(v float64) [3]byte {
	if math.IsNaN(v) {
		return rgbOf(app.Colour(v))
	}
	i := int(math.Round((v - lutLo) / lutStep))
	return l[min(max(i, 0), len(l)-1)]
}

// rgbOf parses "#rrggbb".
func rgbOf(hex string) [3]byte {
	var c [3]byte
	for i := range 3 {
		v, _ := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
		c[i] = byte(v)
	}
	return c
}

// plot draws the data and the model's picture on a square canvas: the
// decision boundary (2-D inputs) or the fitted curve (1-D inputs).
type plot struct {
	u      *document
	canvas canvas
	field  *pixels // fieldCells² pixels the field is painted on
	lut    scaleLUT
	size   float64 // CSS pixels
	bounds trainer.Bounds
}

func newPlot(u *document, size int) *plot {
	return &plot{u: u, lut: newScaleLUT(), size: float64(size), field: newPixels(u, fieldCells),
		canvas: newCanvas(u, float64(size), float64(size), "id", "train-field", "role", "img",
			"aria-label", "The model's output over the input plane with the data points; click to add a point")}
}

// toData converts a point on the canvas (CSS pixels) to input coordinates.
func (p *plot) toData(px, py float64) (x, y float64) {
	b := p.bounds
	return b.X0 + px/p.size*(b.X1-b.X0), b.Y1 - py/p.size*(b.Y1-b.Y0)
}

func (p *plot) toCanvas(x, y float64) (px, py float64) {
	b := p.bounds
	return (x - b.X0) / (b.X1 - b.X0) * p.size, (b.Y1 - y) / (b.Y1 - b.Y0) * p.size
}

// palette holds the page's colours for canvas drawing, read from the
// stylesheet's custom properties (static/style.css) at each draw, so that
// the canvas follows the page's palette, presenter mode included.
type palette struct {
	surface, ink, muted, frame, neg, pos, test, outline string
	// stroke is 1.5 in presenter mode (thicker strokes), else 1.
	stroke float64
}

func readPalette(u *document) palette {
	r := u.root()
	k := 1.0
	if r.HasClass("presenter") {
		k = 1.5
	}
	return palette{surface: r.Style("--surface"), ink: r.Style("--ink"), muted: r.Style("--muted"),
		frame: r.Style("--field-line"), neg: r.Style("--scale-neg"), pos: r.Style("--scale-pos"),
		test: r.Style("--test-ink"), outline: r.Style("--point-outline"), stroke: k}
}

// draw paints the session's picture.
func (p *plot) draw(s *trainer.Session) error {
	pal := readPalette(p.u)
	p.bounds = s.Bounds()
	c := p.canvas
	c.clear(p.size, p.size)
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
		p.field.put()
		c.drawPixels(p.field, p.size, p.size)
		p.points(pal, te, s.Classification(), true)
		p.points(pal, tr, s.Classification(), false)
	} else {
		c.background(pal.surface, p.size, p.size)
		p.curvePoints(pal, te, true)
		p.curvePoints(pal, tr, false)
		xs, ys, err := s.Curve(p.bounds, 120)
		if err != nil {
			return err
		}
		c.beginPath()
		for i := range xs {
			px, py := p.toCanvas(xs[i], ys[i])
			if i == 0 {
				c.moveTo(px, py)
			} else {
				c.lineTo(px, py)
			}
		}
		c.stroke(pal.ink, pal.stroke*2.5)
	}
	c.beginPath()
	c.rect(0.5, 0.5, p.size-1, p.size-1)
	c.stroke(pal.frame, 1)
	return nil
}

// points draws 2-D examples: class 0 as circles, class 1 as squares (shape
// as well as colour), regression targets on the value scale; test points
// hollow.
func (p *plot) points(pal palette, d *train.Dataset, classes, test bool) {
	c := p.canvas
	k := pal.stroke
	r := 3.6 * k
	for i := 0; i < d.Len(); i++ {
		x, y := d.X.Data[2*i], d.X.Data[2*i+1]
		v := d.Y.Data[i]
		px, py := p.toCanvas(x, y)
		col := app.Colour(v)
		square := false
		if classes {
			col = app.Colour(4*v - 2) // class 0 → strong blue, class 1 → strong orange
			square = v >= 0.5
		}
		c.beginPath()
		if square {
			c.rect(px-r, py-r, 2*r, 2*r)
		} else {
			c.circle(px, py, r)
		}
		if test {
			c.stroke(col, 2.2*k)
			continue
		}
		c.fill(col)
		if classes {
			c.stroke(pal.surface, 1*k)
		} else { // values near 0 are near white: outline them
			c.stroke(pal.outline, 0.8*k)
		}
	}
}

// curvePoints draws 1-D examples as (x, target) dots.
func (p *plot) curvePoints(pal palette, d *train.Dataset, test bool) {
	c := p.canvas
	k := pal.stroke
	col := pal.neg
	if test {
		col = pal.pos
	}
	for i := 0; i < d.Len(); i++ {
		px, py := p.toCanvas(d.X.Data[i], d.Y.Data[i])
		c.beginPath()
		c.circle(px, py, 2.8*k)
		c.fill(col)
	}
}

// chart draws the loss history: training loss solid, test loss dashed.
type chart struct {
	u      *document
	canvas canvas
	w, h   float64
}

func newChart(u *document, w, h int) *chart {
	return &chart{u: u, w: float64(w), h: float64(h), canvas: newCanvas(u, float64(w), float64(h), "id", "train-chart", "role", "img",
		"aria-label", "Loss over training steps: training loss solid, test loss dashed")}
}

func (c *chart) draw(h []trainer.Record) {
	pal := readPalette(c.u)
	x := c.canvas
	x.clear(c.w, c.h)
	x.background(pal.surface, c.w, c.h)
	if len(h) == 0 {
		return
	}
	top, low := 0.0, math.Inf(1)
	for _, r := range h {
		for _, v := range []float64{r.Train.Loss, r.Test.Loss} {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				top = math.Max(top, v)
				if v > 0 {
					low = math.Min(low, v)
				}
			}
		}
	}
	if top == 0 {
		top = 1
	}
	// A loss that falls by more than 100× is drawn on a log scale, so that
	// the late progress stays visible.
	logScale := low < top/100
	scale := func(v float64) float64 { return v / top }
	if logScale {
		lt, ll := math.Log(top), math.Log(low)
		scale = func(v float64) float64 { return (math.Log(math.Max(v, low)) - ll) / (lt - ll) }
	}
	last := math.Max(1, float64(h[len(h)-1].Step))
	const pad = 4.0
	k := pal.stroke
	line := func(get func(trainer.Record) float64, colour string, dash ...any) {
		x.beginPath()
		started := false
		for _, r := range h {
			v := get(r)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			px := pad + float64(r.Step)/last*(c.w-2*pad)
			py := c.h - pad - scale(v)*(c.h-2*pad)
			if !started {
				x.moveTo(px, py)
				started = true
			} else {
				x.lineTo(px, py)
			}
		}
		x.stroke(colour, 2*k, dash...)
	}
	line(func(r trainer.Record) float64 { return r.Test.Loss }, pal.test, 6*k, 4*k)
	line(func(r trainer.Record) float64 { return r.Train.Loss }, pal.ink)
	label := "max " + app.Num(top)
	if logScale {
		label += " · log scale, min " + app.Num(low)
	}
	x.fillText(label, pad+2, 12*k, pal.muted, strconv.Itoa(int(11*k))+"px system-ui, sans-serif")
}
