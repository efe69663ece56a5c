//go:build js && wasm

package ui

import (
	"math"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
)

// Strip is a row of coloured cells (or, for a scalar, its number) showing
// a node's value or gradient, labelled v or g. Its elements are made once
// per recorded step; showing a tensor only sets their fills.
type Strip struct {
	doc   *dom.Document
	g     dom.Elem
	num   dom.Elem  // the scalar's number
	cells dom.Elems // one <rect> per sampled element
	idx   []int     // the sampled element of each cell
	sc    *app.Scale
	shown bool
	// fills and text are what the cells and the number show: a step
	// writes only what changed, in one call.
	fills []string
	text  string
	w     dom.Writes
}

// StripKind is what a strip's drawing depends on: strips of one kind
// (the nodes of one layer) are copies of one drawing. It keys the map of
// drawings NewStrip copies.
type StripKind struct {
	class, label string
	y, w         float64
	size         int
}

// NewStrip returns a strip of class, labelled label, at height y in a box
// of width w, for a tensor of size elements, coloured on sc. With protos
// (the tape's) it is a copy of the first strip of its kind, drawn once and
// kept there: one call into JavaScript, where drawing it is one or two per
// cell. Its group is hidden until it shows a tensor.
func NewStrip(doc *dom.Document, sc *app.Scale, class string, y float64, label string, size int, w float64, protos map[StripKind]dom.Elem) *Strip {
	st := newStrip(doc, sc, class, y, label, size, w, protos)
	return &st
}

func newStrip(doc *dom.Document, sc *app.Scale, class string, y float64, label string, size int, w float64, protos map[StripKind]dom.Elem) Strip {
	kind := StripKind{class, label, y, w, size}
	g, ok := protos[kind]
	if !ok {
		g = drawStrip(doc, kind)
		if protos != nil {
			protos[kind] = g
		}
	}
	if protos != nil {
		g = g.Clone()
	}
	st := Strip{doc: doc, sc: sc, g: g}
	if size == 1 {
		st.num = g.QuerySelector(".strip-num")
		return st
	}
	st.idx = app.StripSample(size)
	if len(st.idx) > 0 {
		st.cells = g.All("rect")
		st.fills = make([]string, len(st.idx))
	}
	return st
}

// drawStrip draws a strip of kind k, hidden, its cells without a fill.
func drawStrip(doc *dom.Document, k StripKind) dom.Elem {
	g := doc.SVG("g", "class", "strip "+k.class, "transform", "translate("+F1(app.StripX)+" "+F1(k.y)+")", "visibility", "hidden")
	g.AppendChild(SVGText(doc, "strip-label mono", app.StripLabelPx, 0, app.StripTextY, k.label))
	if k.size == 1 {
		g.AppendChild(SVGText(doc, "strip-num mono", app.StripNumPx, app.StripLabelW, app.StripTextY+0.5, ""))
		return g
	}
	n := len(app.StripSample(k.size))
	cw := (k.w - app.StripLabelW) / float64(n)
	for i := range n {
		g.AppendChild(doc.SVG("rect", "x", F1(app.StripLabelW+float64(i)*cw), "y", "1", "width", F1(math.Max(cw-1, 1)), "height", F1(app.StripCellH)))
	}
	return g
}

// Group is the strip's SVG group, to place in a box.
func (st *Strip) Group() dom.Elem { return st.g }

// Show draws t, or hides the strip when t is nil.
func (st *Strip) Show(t *tensor.Tensor) {
	if t == nil {
		if st.shown {
			st.g.SetAttribute("visibility", "hidden")
			st.shown = false
		}
		return
	}
	if st.num.OK() {
		if text := app.Num(t.Data[0]); text != st.text {
			st.num.SetTextContent(text)
			st.text = text
		}
	}
	for k, i := range st.idx {
		if fill := st.sc.Colour(t.Data[i]); fill != st.fills[k] {
			st.w.Attr(k, "fill", fill)
			st.fills[k] = fill
		}
	}
	st.doc.Write(st.cells, &st.w)
	if !st.shown {
		st.g.SetAttribute("visibility", "visible")
		st.shown = true
	}
}
