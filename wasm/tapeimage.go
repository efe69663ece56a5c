//go:build js && wasm

package main

import (
	"tapelab/wasm/ui"

	"tapelab/wasm/dom"

	"strconv"
	"strings"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// tensorRow is what a tape box shows a node's value or gradient with: a
// strip of cells (strip) or, for an image tensor, a grid of small images
// (imageStrip).
type tensorRow interface {
	show(t *tensor.Tensor)
	group() dom.Elem
}

func (st *strip) group() dom.Elem { return st.g }

// rows returns node n's value and gradient rows for a box of width w: image
// grids when its tensors are images, strips otherwise.
func (v *tapeView) rows(n app.NodeInfo, w float64) (val, grad tensorRow) {
	doc := v.pv.doc
	if g, ok := app.NodeGrid(n, 0); ok {
		vy, gy := app.ImageRows(g)
		kernel := app.IsKernel(n)
		return newImageStrip(doc, v.pv.p.scale, "val", vy, "v", g, n.Shape, kernel, &v.pv.img.example),
			newImageStrip(doc, v.pv.p.scale, "grad", gy, "g", g, n.Shape, kernel, &v.pv.img.example)
	}
	size := n.Shape.Size()
	vs := newStrip(doc, v.pv.p.scale, "val", app.ValueY, "v", size, app.StripW(w), v.stripProtos)
	gs := newStrip(doc, v.pv.p.scale, "grad", app.GradY, "g", size, app.StripW(w), v.stripProtos)
	return &vs, &gs
}

// imageStrip draws a rank-4 tensor as small images, one per channel of the
// selected example (or one per kernel of a convolution's weight), each
// pixel a rect coloured on the shared scale; a gradient's (class "grad")
// is scaled to its range (app.ImageRange), said under it. Its elements are
// made once per recorded step; showing a tensor only sets their fills.
type imageStrip struct {
	strip  // its group, label and visibility; its cells are px
	grid   app.ImageGrid
	shape  tensor.Shape
	kernel bool
	ex     *int      // the selected example
	rng    dom.Elem  // a gradient's range, or none for a value
	px     dom.Elems // the pixels' <rect>s, plane by plane, row by row
	npx    int
	pxFill []string // what each pixel shows: a step writes only what changed
}

func newImageStrip(doc *dom.Document, sc *app.Scale, class string, y float64, label string, g app.ImageGrid, shape tensor.Shape, kernel bool, ex *int) *imageStrip {
	st := &imageStrip{strip: newStrip(doc, sc, "images "+class, y, label, 0, 0, nil), grid: g, shape: shape, kernel: kernel, ex: ex}
	if class == "grad" {
		st.rng = svgText(doc, "image-range mono", app.StripNumPx, app.StripLabelW, g.Height+app.ImageRangeH-3, "")
		st.g.AppendChild(st.rng)
	}
	for k := range g.Offsets {
		x0, y0 := g.Origin(k)
		plane := doc.SVG("g", "class", "plane", "transform", "translate("+ui.F1(app.StripLabelW+x0)+" "+ui.F1(y0)+")")
		dom.Add(plane, doc.SVG("rect", "class", "plane-frame", "x", "-0.5", "y", "-0.5", "width", ui.F1(g.Cell*float64(g.W)+1), "height", ui.F1(g.Cell*float64(g.H)+1)))
		for r := range g.H {
			for c := range g.W {
				plane.AppendChild(doc.SVG("rect", "x", ui.F1(float64(c)*g.Cell), "y", ui.F1(float64(r)*g.Cell), "width", ui.F1(g.Cell), "height", ui.F1(g.Cell), "data-k", strconv.Itoa(st.npx)))
				st.npx++
			}
		}
		st.g.AppendChild(plane)
	}
	st.px, st.pxFill = st.g.All("rect[data-k]"), make([]string, st.npx)
	return st
}

// at is the grid for the selected example.
func (st *imageStrip) at() app.ImageGrid { return st.grid.Example(st.shape, *st.ex, st.kernel) }

// show draws t's planes for the selected example, or hides the grid when t
// is nil.
func (st *imageStrip) show(t *tensor.Tensor) {
	if t != nil {
		g := st.at()
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
	st.strip.show(t)
}
