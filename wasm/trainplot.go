//go:build js && wasm

package main

import (
	"math"
	"strconv"
	"syscall/js"

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
	canvas, ctx js.Value
	off, offCtx js.Value // fieldCells² canvas the field is painted on
	img         js.Value // its ImageData
	pix         []byte
	buf         js.Value // Uint8Array over the ImageData's pixels
	lut         scaleLUT
	size        float64 // CSS pixels
	bounds      trainer.Bounds
}

func newPlot(u jsui, size int) *plot {
	p := &plot{lut: newScaleLUT(), size: float64(size)}
	dpr := math.Max(1, js.Global().Get("devicePixelRatio").Float())
	p.canvas = u.el("canvas", "id", "train-field", "width", strconv.Itoa(int(float64(size)*dpr)), "height", strconv.Itoa(int(float64(size)*dpr)),
		"role", "img", "aria-label", "The model's output over the input plane with the data points; click to add a point")
	p.ctx = p.canvas.Call("getContext", "2d")
	p.ctx.Call("scale", dpr, dpr)
	p.off = u.el("canvas", "width", strconv.Itoa(fieldCells), "height", strconv.Itoa(fieldCells))
	p.offCtx = p.off.Call("getContext", "2d")
	p.img = p.offCtx.Call("createImageData", fieldCells, fieldCells)
	p.pix = make([]byte, 4*fieldCells*fieldCells)
	p.buf = js.Global().Get("Uint8Array").New(p.img.Get("data").Get("buffer"))
	return p
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

// draw paints the session's picture.
func (p *plot) draw(s *trainer.Session) error {
	p.bounds = s.Bounds()
	c := p.ctx
	c.Call("clearRect", 0, 0, p.size, p.size)
	tr, te := s.Sets()
	if s.Model().Seq.Input().Size() == 2 {
		f, err := s.Field(p.bounds, fieldCells)
		if err != nil {
			return err
		}
		for i, v := range f {
			rgb := p.lut.at(v)
			p.pix[4*i], p.pix[4*i+1], p.pix[4*i+2], p.pix[4*i+3] = rgb[0], rgb[1], rgb[2], 255
		}
		js.CopyBytesToJS(p.buf, p.pix)
		p.offCtx.Call("putImageData", p.img, 0, 0)
		c.Set("imageSmoothingEnabled", true)
		c.Call("drawImage", p.off, 0, 0, p.size, p.size)
		p.points(te, s.Classification(), true)
		p.points(tr, s.Classification(), false)
	} else {
		c.Set("fillStyle", "#ffffff")
		c.Call("fillRect", 0, 0, p.size, p.size)
		p.curvePoints(te, true)
		p.curvePoints(tr, false)
		xs, ys, err := s.Curve(p.bounds, 120)
		if err != nil {
			return err
		}
		c.Call("beginPath")
		for i := range xs {
			px, py := p.toCanvas(xs[i], ys[i])
			if i == 0 {
				c.Call("moveTo", px, py)
			} else {
				c.Call("lineTo", px, py)
			}
		}
		c.Set("strokeStyle", "#1d1d1f")
		c.Set("lineWidth", strokeScale()*2.5)
		c.Call("stroke")
	}
	c.Set("strokeStyle", "#c4c4c0")
	c.Set("lineWidth", 1)
	c.Call("strokeRect", 0.5, 0.5, p.size-1, p.size-1)
	return nil
}

// strokeScale is 1.5 in presenter mode (thicker strokes), else 1.
func strokeScale() float64 {
	if js.Global().Get("document").Get("documentElement").Get("classList").Call("contains", "presenter").Bool() {
		return 1.5
	}
	return 1
}

// points draws 2-D examples: class 0 as circles, class 1 as squares (shape
// as well as colour), regression targets on the value scale; test points
// hollow.
func (p *plot) points(d *train.Dataset, classes, test bool) {
	c := p.ctx
	k := strokeScale()
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
		c.Call("beginPath")
		if square {
			c.Call("rect", px-r, py-r, 2*r, 2*r)
		} else {
			c.Call("arc", px, py, r, 0, 2*math.Pi)
		}
		if test {
			c.Set("lineWidth", 2.2*k)
			c.Set("strokeStyle", col)
			c.Call("stroke")
			continue
		}
		c.Set("fillStyle", col)
		c.Call("fill")
		c.Set("lineWidth", 1*k)
		c.Set("strokeStyle", "#ffffff")
		if !classes { // values near 0 are near white: outline them
			c.Set("strokeStyle", "#4a4a48")
			c.Set("lineWidth", 0.8*k)
		}
		c.Call("stroke")
	}
}

// curvePoints draws 1-D examples as (x, target) dots.
func (p *plot) curvePoints(d *train.Dataset, test bool) {
	c := p.ctx
	k := strokeScale()
	for i := 0; i < d.Len(); i++ {
		px, py := p.toCanvas(d.X.Data[i], d.Y.Data[i])
		c.Call("beginPath")
		c.Call("arc", px, py, 2.8*k, 0, 2*math.Pi)
		col := "#0877bd"
		if test {
			col = "#f59322"
		}
		c.Set("fillStyle", col)
		c.Call("fill")
	}
}

// chart draws the loss history: training loss solid, test loss dashed.
type chart struct {
	canvas, ctx js.Value
	w, h        float64
}

func newChart(u jsui, w, h int) *chart {
	dpr := math.Max(1, js.Global().Get("devicePixelRatio").Float())
	c := &chart{w: float64(w), h: float64(h)}
	c.canvas = u.el("canvas", "id", "train-chart", "width", strconv.Itoa(int(float64(w)*dpr)), "height", strconv.Itoa(int(float64(h)*dpr)),
		"role", "img", "aria-label", "Loss over training steps: training loss solid, test loss dashed")
	c.ctx = c.canvas.Call("getContext", "2d")
	c.ctx.Call("scale", dpr, dpr)
	return c
}

func (c *chart) draw(h []trainer.Record) {
	x := c.ctx
	x.Call("clearRect", 0, 0, c.w, c.h)
	x.Set("fillStyle", "#ffffff")
	x.Call("fillRect", 0, 0, c.w, c.h)
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
	k := strokeScale()
	line := func(get func(trainer.Record) float64, colour string, dash bool) {
		x.Call("beginPath")
		started := false
		for _, r := range h {
			v := get(r)
			if math.IsNaN(v) || math.IsInf(v, 0) {
				continue
			}
			px := pad + float64(r.Step)/last*(c.w-2*pad)
			py := c.h - pad - scale(v)*(c.h-2*pad)
			if !started {
				x.Call("moveTo", px, py)
				started = true
			} else {
				x.Call("lineTo", px, py)
			}
		}
		if dash {
			x.Call("setLineDash", js.ValueOf([]any{6 * k, 4 * k}))
		} else {
			x.Call("setLineDash", js.ValueOf([]any{}))
		}
		x.Set("strokeStyle", colour)
		x.Set("lineWidth", 2*k)
		x.Call("stroke")
	}
	line(func(r trainer.Record) float64 { return r.Test.Loss }, "#b35c00", true)
	line(func(r trainer.Record) float64 { return r.Train.Loss }, "#1d1d1f", false)
	x.Call("setLineDash", js.ValueOf([]any{}))
	x.Set("fillStyle", "#5f6368")
	x.Set("font", strconv.Itoa(int(11*k))+"px system-ui, sans-serif")
	label := "max " + app.Num(top)
	if logScale {
		label += " · log scale, min " + app.Num(low)
	}
	x.Call("fillText", label, pad+2, 12*k)
}
