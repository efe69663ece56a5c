//go:build js && wasm

package main

import (
	"math"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// strip is a row of coloured cells (or, for a scalar, its number) showing
// a node's value or gradient, labelled v or g. Its elements are made once
// per recorded step; showing a tensor only sets their fills.
type strip struct {
	g     elem
	num   elem   // the scalar's number
	cells []elem // one per sampled element
	idx   []int  // the sampled element of each cell
	sc    *app.Scale
	shown bool
	// fills and text are what the cells and the number show: a step
	// writes only what changed.
	fills []string
	text  string
}

func newStrip(doc *document, sc *app.Scale, class string, y float64, label string, size int, w float64) strip {
	st := strip{sc: sc, g: doc.svg("g", "class", "strip "+class, "transform", "translate("+f1(app.StripX)+" "+f1(y)+")", "visibility", "hidden")}
	st.g.AppendChild(svgText(doc, "strip-label mono", app.StripLabelPx, 0, app.StripTextY, label))
	if size == 1 {
		st.num = svgText(doc, "strip-num mono", app.StripNumPx, app.StripLabelW, app.StripTextY+0.5, "")
		st.g.AppendChild(st.num)
		return st
	}
	st.idx = app.StripSample(size)
	cw := (w - app.StripLabelW) / float64(len(st.idx))
	for k := range st.idx {
		c := doc.svg("rect", "x", f1(app.StripLabelW+float64(k)*cw), "y", "1", "width", f1(math.Max(cw-1, 1)), "height", f1(app.StripCellH))
		st.g.AppendChild(c)
		st.cells = append(st.cells, c)
	}
	return st
}

// show draws t, or hides the strip when t is nil.
func (st *strip) show(t *tensor.Tensor) {
	if t == nil {
		if st.shown {
			st.g.SetAttribute("visibility", "hidden")
			st.shown = false
		}
		return
	}
	if st.num.ok() {
		if text := app.Num(t.Data[0]); text != st.text {
			st.num.SetTextContent(text)
			st.text = text
		}
	}
	if st.fills == nil {
		st.fills = make([]string, len(st.cells))
	}
	for k, c := range st.cells {
		if fill := st.sc.Colour(t.Data[st.idx[k]]); fill != st.fills[k] {
			c.SetAttribute("fill", fill)
			st.fills[k] = fill
		}
	}
	if !st.shown {
		st.g.SetAttribute("visibility", "visible")
		st.shown = true
	}
}
