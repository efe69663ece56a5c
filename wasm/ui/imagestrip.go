//go:build js && wasm

package ui

import (
	"strconv"
	"strings"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
)

// ImageStrip draws a rank-4 tensor as small images, one per channel of the
// selected example (or one per kernel of a convolution's weight), each
// pixel a rect coloured on the shared scale; a gradient's (class "grad")
// is scaled to its range (app.ImageRange), said under it. Its elements are
// made once per recorded step; showing a tensor only sets their fills.
type ImageStrip struct {
	Strip  // its group, label and visibility; its cells are px
	grid   app.ImageGrid
	shape  tensor.Shape
	kernel bool
	ex     func() int // the selected example
	rng    dom.Elem   // a gradient's range, or none for a value
	px     dom.Elems  // the pixels' <rect>s, plane by plane, row by row
	npx    int
	pxFill []string // what each pixel shows: a step writes only what changed
}

// NewImageStrip returns the images of class ("val" or "grad"), labelled
// label, at height y, laid out as g for tensors of shape (a convolution's
// weight when kernel), coloured on sc; example says which example of the
// batch they show. Its group is hidden until it shows a tensor.
func NewImageStrip(doc *dom.Document, sc *app.Scale, class string, y float64, label string, g app.ImageGrid, shape tensor.Shape, kernel bool, example func() int) *ImageStrip {
	st := &ImageStrip{Strip: newStrip(doc, sc, "images "+class, y, label, 0, 0, nil), grid: g, shape: shape, kernel: kernel, ex: example}
	if class == "grad" {
		st.rng = SVGText(doc, "image-range mono", app.StripNumPx, app.StripLabelW, g.Height+app.ImageRangeH-3, "")
		st.g.AppendChild(st.rng)
	}
	for k := range g.Offsets {
		x0, y0 := g.Origin(k)
		plane := doc.SVG("g", "class", "plane", "transform", "translate("+F1(app.StripLabelW+x0)+" "+F1(y0)+")")
		dom.Add(plane, doc.SVG("rect", "class", "plane-frame", "x", "-0.5", "y", "-0.5", "width", F1(g.Cell*float64(g.W)+1), "height", F1(g.Cell*float64(g.H)+1)))
		for r := range g.H {
			for c := range g.W {
				plane.AppendChild(doc.SVG("rect", "x", F1(float64(c)*g.Cell), "y", F1(float64(r)*g.Cell), "width", F1(g.Cell), "height", F1(g.Cell), "data-k", strconv.Itoa(st.npx)))
				st.npx++
			}
		}
		st.g.AppendChild(plane)
	}
	st.px, st.pxFill = st.g.All("rect[data-k]"), make([]string, st.npx)
	return st
}

// At is the grid for the selected example.
func (st *ImageStrip) At() app.ImageGrid { return st.grid.Example(st.shape, st.ex(), st.kernel) }

// Show draws t's planes for the selected example, or hides the grid when t
// is nil.
func (st *ImageStrip) Show(t *tensor.Tensor) {
	if t != nil {
		g := st.At()
		per := g.H * g.W
		k := 1.0
		if st.rng.OK() {
			var said string
			k, said = app.ImageRange(t, g)
			st.rng.SetTextContent(said)
		}
		vals := make([]string, 0, st.npx)
		for p, off := range g.Offsets {
			for j := range per {
				x := t.Data[off+j]
				if fill := st.sc.Colour(x * k); fill != st.pxFill[p*per+j] {
					st.w.Attr(p*per+j, "fill", fill)
					st.pxFill[p*per+j] = fill
				}
				vals = append(vals, app.Full(x))
			}
		}
		st.doc.Write(st.px, &st.w)
		st.g.SetAttribute("data-values", strings.Join(vals, ","))
	}
	st.Strip.Show(t)
}
