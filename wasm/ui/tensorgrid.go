//go:build js && wasm

package ui

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
)

// TensorGrid shows the tensors of one shape as a table of numbers (small
// tensors) or a colour grid (larger ones), each cell carrying its
// full-precision value. It keeps what its cells show, so that showing
// another tensor of its shape writes only the cells that differ, in one
// call into JavaScript.
type TensorGrid struct {
	doc    *dom.Document
	wrap   dom.Elem
	shape  string
	data   []float64 // the numbers shown, and in what colours
	sc     *app.Scale
	small  bool       // a table of numbers, else a colour grid
	k      []int      // each cell's element of the tensor
	cells  dom.Elems  // the <td>s, or the grid's <rect>s, in order
	titles dom.Elems  // the grid's <title>s
	shown  []string   // per cell: its full-precision value, text, background and ink
	w, tw  dom.Writes // the writes to the cells and to the titles
}

// NewTensorGrid makes the element (a div.tensor with the id and
// data-shape) for tensors of t's shape, its cells empty.
func NewTensorGrid(doc *dom.Document, t *tensor.Tensor, id string) *TensorGrid {
	tv := &TensorGrid{doc: doc, shape: t.Shape.String(), small: len(t.Data) <= app.SmallLimit}
	tv.wrap = doc.El("div", "class", "tensor", "id", id, "data-shape", tv.shape)
	rows := app.Rows(t)
	if tv.small {
		table := doc.El("table", "class", "nums mono")
		k := 0
		for _, r := range rows {
			tr := doc.El("tr")
			for range r {
				tr.AppendChild(doc.El("td"))
				tv.k = append(tv.k, k)
				k++
			}
			table.AppendChild(tr)
		}
		tv.wrap.AppendChild(table)
		tv.cells = table.All("td")
		tv.shown = make([]string, 4*len(tv.k))
		return tv
	}
	// A colour grid of at most gridMax × gridMax cells, sampled evenly.
	const gridMax = 48
	nrows, ncols := len(rows), len(rows[0])
	ri, ci := app.Sample(nrows, gridMax), app.Sample(ncols, gridMax)
	cell := 12.0
	if len(ci) > 24 {
		cell = 288 / float64(len(ci))
	}
	svg := doc.SVG("svg", "class", "grid", "width", F1(cell*float64(len(ci))), "height", F1(cell*float64(len(ri))), "role", "img", "aria-label", "colour grid of "+tv.shape)
	for y, r := range ri {
		for x, c := range ci {
			rect := doc.SVG("rect", "x", F1(float64(x)*cell), "y", F1(float64(y)*cell), "width", F1(cell), "height", F1(cell))
			rect.AppendChild(doc.SVG("title"))
			svg.AppendChild(rect)
			tv.k = append(tv.k, r*ncols+c)
		}
	}
	tv.wrap.AppendChild(svg)
	tv.cells, tv.titles = svg.All("rect"), svg.All("title")
	hint := tv.shape + ": hover a cell for its number; colours follow the scale above the tape"
	if len(ri) < nrows || len(ci) < ncols {
		hint += " (a sample: " + strconv.Itoa(len(ri)) + " of " + strconv.Itoa(nrows) + " rows, " +
			strconv.Itoa(len(ci)) + " of " + strconv.Itoa(ncols) + " columns)"
	}
	tv.wrap.AppendChild(doc.Txt("p", hint, "class", "hint"))
	tv.shown = make([]string, 4*len(tv.k))
	return tv
}

// Elem is the grid's element.
func (tv *TensorGrid) Elem() dom.Elem { return tv.wrap }

// Shape is the shape of the tensors the grid shows, as the page writes it.
func (tv *TensorGrid) Shape() string { return tv.shape }

// Cells is how many cells the grid has.
func (tv *TensorGrid) Cells() int { return len(tv.k) }

// sameBits reports whether a and b hold the same numbers, bit for bit (0
// and −0, which show differently, differ; a NaN equals its own bits).
func sameBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for k, x := range a {
		if math.Float64bits(x) != math.Float64bits(b[k]) {
			return false
		}
	}
	return true
}

// Show writes t (of the grid's shape), coloured on sc, into the cells
// that differ; the same numbers on the same scale write nothing.
func (tv *TensorGrid) Show(t *tensor.Tensor, sc *app.Scale) {
	if tv.sc != nil && sc == tv.sc && sameBits(t.Data, tv.data) {
		return // the same numbers (a node shown again, or a value that did not change)
	}
	tv.data, tv.sc = append(tv.data[:0], t.Data...), sc
	tv.wrap.SetAttribute("data-values", TensorValues(t))
	var text []string
	if tv.small {
		for _, r := range app.Rows(t) {
			text = append(text, r...)
		}
	}
	set := func(c, part int, s string) bool {
		if tv.shown[4*c+part] == s {
			return false
		}
		tv.shown[4*c+part] = s
		return true
	}
	for c, k := range tv.k {
		x := t.Data[k]
		full := app.Full(x)
		if !tv.small {
			if set(c, 0, full) {
				tv.tw.Text(c, full)
			}
			if col := sc.Colour(x); set(c, 2, col) {
				tv.w.Attr(c, "fill", col)
			}
			continue
		}
		if set(c, 0, full) {
			tv.w.Attr(c, "title", full)
		}
		if set(c, 1, text[c]) {
			tv.w.Text(c, text[c])
		}
		if col := sc.Colour(x); set(c, 2, col) {
			tv.w.Style(c, "background", col)
		}
		if ink := sc.InkOn(x); set(c, 3, ink) {
			tv.w.Style(c, "color", ink)
		}
	}
	tv.doc.Write(tv.cells, &tv.w)
	tv.doc.Write(tv.titles, &tv.tw)
}

// TensorValues is every element of t at full precision, comma-separated
// (what a tensor's data-values attribute holds).
func TensorValues(t *tensor.Tensor) string {
	full := make([]string, len(t.Data))
	for k, x := range t.Data {
		full[k] = app.Full(x)
	}
	return strings.Join(full, ",")
}
