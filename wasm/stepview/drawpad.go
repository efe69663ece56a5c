//go:build js && wasm

package stepview

import (
	"tapelab/wasm/ui"

	"tapelab/wasm/dom"

	"slices"
	"strconv"

	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// drawPad is where a person draws an input with a mouse, pen or finger.
// Lifting the pen downsamples the drawing to the model's image (as the
// digits were made), classifies it, and makes it the selected example of
// the mini-batch, so the tape steps on it.
type drawPad struct {
	iv       *imageView
	root     dom.Elem
	jump     dom.Elem // the inspector's button that brings the pad into view
	cv       dom.Canvas
	examples dom.Elem
	result   dom.Elem
	ink      app.Ink
	down     bool
}

// padSide is the drawing canvas's side in CSS pixels.
const padSide = 160.0

// padMarkup is the pad's skeleton; the canvas goes in its slot.
const padMarkup dom.HTML = `
<section class="drawpad" id="drawpad" aria-labelledby="drawpad-title" tabindex="-1" hidden>
  <h3 id="drawpad-title">Draw your own input</h3>
  <div class="row"><span>example</span><select id="example" aria-label="The example shown as images"></select></div>
  <slot name="canvas"></slot>
  <button type="button" id="draw-clear" title="Clear the drawing">Clear</button>
  <p class="hint" id="draw-result" aria-live="polite">Lift the pen to classify the drawing.</p>
</section>`

func newDrawPad(iv *imageView) *drawPad {
	doc := iv.sv.doc
	d := &drawPad{iv: iv, root: doc.Build(padMarkup)}
	var clear dom.Elem
	d.root.Find(dom.Parts{{Sel: "#example", To: &d.examples}, {Sel: "#draw-clear", To: &clear}, {Sel: "#draw-result", To: &d.result}})
	d.cv = dom.NewCanvas(doc, padSide, padSide, "id", "draw-canvas", "class", "draw-canvas",
		"aria-label", "Drawing area: draw a digit or shape with the mouse, a pen or a finger")
	d.root.Fill("canvas", d.cv.El)
	doc.Listen(d.examples, "change", "choosing the example", func(dom.Event) {
		if k, err := strconv.Atoi(d.examples.Value()); err == nil {
			d.iv.selectExample(k)
		}
	})
	doc.OnClick(clear, d.clear)
	doc.Listen(d.cv.El, "pointerdown", "drawing", func(ev dom.Event) { d.pen(ev, true) })
	doc.Listen(d.cv.El, "pointermove", "drawing", func(ev dom.Event) {
		if d.down {
			d.pen(ev, false)
		}
	})
	for _, up := range []string{"pointerup", "pointerleave"} {
		doc.Listen(d.cv.El, up, "drawing", d.lift)
	}
	iv.sv.insp.root.AppendChild(d.root)
	// The pad comes after the inspector's node, often far below it: a
	// button by the inspector's title brings it into view.
	d.jump = doc.Button("✎ Draw", "Draw your own input: show the drawing pad", d.reveal, "id", "draw-jump", "hidden", "")
	iv.sv.insp.bar.AppendChild(d.jump)
	return d
}

// image reports the model's input image side, or 0 (imageView.imageSide).
func (d *drawPad) image() int { return d.iv.imageSide() }

// update shows the pad for image classifiers, with the example buttons.
func (d *drawPad) update() {
	d.root.Show(d.image() > 0)
	d.jump.Show(d.image() > 0)
	b := d.iv.sv.model().Batch()
	if d.image() == 0 || b.X == nil {
		return
	}
	d.examples.Clear()
	for k := range b.X.Shape[0] {
		d.examples.AppendChild(d.iv.sv.doc.Txt("option", strconv.Itoa(k+1), "value", strconv.Itoa(k)))
	}
	d.examples.SetValue(strconv.Itoa(*d.iv.example))
}

// reveal scrolls the pad into view and moves the focus to it.
func (d *drawPad) reveal() {
	d.root.ScrollIntoView()
	d.root.Focus()
}

// pen adds the pointer's position to the drawing (down: a new stroke).
func (d *drawPad) pen(ev dom.Event, down bool) {
	ev.PreventDefault()
	r := d.cv.El.Rect()
	x, y := ev.Client()
	p := app.Point{X: x - r.Left, Y: y - r.Top}
	d.ink.Add(p, down)
	d.down = true
	d.draw()
}

// draw paints the strokes.
func (d *drawPad) draw() {
	pal := ui.ReadPalette(d.iv.sv.doc)
	d.cv.Background(pal.Surface, padSide, padSide)
	for _, s := range d.ink.Strokes {
		d.cv.BeginPath()
		d.cv.MoveTo(s[0], s[1])
		for i := 0; i+1 < len(s); i += 2 {
			d.cv.LineTo(s[i], s[i+1])
		}
		d.cv.RoundPen()
		d.cv.Stroke(pal.Ink, padSide/12)
	}
}

// lift ends a stroke: the drawing becomes the selected example.
func (d *drawPad) lift(dom.Event) {
	if !d.down {
		return
	}
	d.down = false
	if d.image() == 0 {
		return
	}
	if _, err := d.iv.sv.st.UseDrawing(link.Drawing{Example: *d.iv.example, Ink: d.ink}); err != nil {
		d.result.SetTextContent("The drawing could not be used: " + err.Error())
	}
}

// said shows the state's drawing (after a stroke, or from a link) with the
// model's prediction for it.
func (d *drawPad) said() {
	sv := d.iv.sv
	dr := sv.st.Drawing()
	if dr == nil {
		return
	}
	d.ink = app.Ink{Strokes: slices.Clone(dr.Ink.Strokes)}
	d.draw()
	pr, err := sv.model().Predict(dr.Example)
	if err != nil {
		return
	}
	d.result.SetTextContent("Predicted: " + app.ClassName(d.iv.names(), pr.Class) + " (" + strconv.Itoa(int(pr.Prob*100+0.5)) +
		"%). It is now example " + strconv.Itoa(dr.Example+1) + ", its target the prediction: step the tape on it.")
	d.result.SetAttribute("data-class", strconv.Itoa(pr.Class))
}

// clear forgets the drawing.
func (d *drawPad) clear() {
	d.ink = app.Ink{}
	d.draw()
	d.result.SetTextContent("Lift the pen to classify the drawing.")
	d.result.RemoveAttribute("data-class")
}
