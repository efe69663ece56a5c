//go:build js && wasm

package main

import (
	"tapelab/wasm/ui"

	"tapelab/wasm/dom"

	"math"
	"strconv"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// tensorEl shows t as a table of numbers (small tensors) or a colour grid
// (larger ones), each cell carrying its full-precision value. The element
// shown under id is made once per shape and kept (see tensorViewFor):
// showing a tensor of a shape shown before updates that element in place,
// writing only the cells whose number or colour changed.
func (v *inspectorView) tensorEl(t *tensor.Tensor, id string) dom.Elem {
	tv := v.tensorViewFor(t, id)
	tv.show(t, v.pv.p.scale)
	return tv.wrap
}

// The inspector keeps, per place, the views of the last tensorViewsKept
// shapes it showed there, holding at most tensorCellsKept cells in all
// beyond the one on screen (a colour grid has up to 48 × 48): stepping
// goes from a node to its neighbours, whose tensors have a few shapes,
// and backward goes back and forth between them.
const (
	tensorViewsKept = 6
	tensorCellsKept = 5000
)

// tensorViewFor returns the view for tensors of t's shape under id: the
// one kept from an earlier step, else a new one.
func (v *inspectorView) tensorViewFor(t *tensor.Tensor, id string) *tensorView {
	if tv := takeView(v.tensors[id], t.Shape.String()); tv != nil {
		return tv
	}
	tv := v.newTensorView(t, id)
	if v.tensors == nil {
		v.tensors = map[string][]*tensorView{}
	}
	v.tensors[id] = keepViews(tv, v.tensors[id])
	return tv
}

// takeView returns the view of shape among kept (the latest shown first),
// moved to the front, or nil.
func takeView(kept []*tensorView, shape string) *tensorView {
	for k, tv := range kept {
		if tv.shape == shape {
			copy(kept[1:k+1], kept[:k])
			kept[0] = tv
			return tv
		}
	}
	return nil
}

// keepViews returns kept with tv in front, less the least recently shown
// beyond tensorViewsKept views or tensorCellsKept cells besides tv.
func keepViews(tv *tensorView, kept []*tensorView) []*tensorView {
	views, cells := []*tensorView{tv}, 0
	for _, old := range kept {
		if cells += len(old.k); len(views) == tensorViewsKept || cells > tensorCellsKept {
			break
		}
		views = append(views, old)
	}
	return views
}

// tensorView is the inspector's element for the tensors of one shape,
// and what its cells show, so that showing another tensor writes only the
// cells that differ, in one call into JavaScript.
type tensorView struct {
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

// newTensorView makes the element for tensors of t's shape, its cells
// empty.
func (v *inspectorView) newTensorView(t *tensor.Tensor, id string) *tensorView {
	doc := v.pv.doc
	tv := &tensorView{doc: doc, shape: t.Shape.String(), small: len(t.Data) <= app.SmallLimit}
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
	svg := doc.SVG("svg", "class", "grid", "width", ui.F1(cell*float64(len(ci))), "height", ui.F1(cell*float64(len(ri))), "role", "img", "aria-label", "colour grid of "+tv.shape)
	for y, r := range ri {
		for x, c := range ci {
			rect := doc.SVG("rect", "x", ui.F1(float64(x)*cell), "y", ui.F1(float64(y)*cell), "width", ui.F1(cell), "height", ui.F1(cell))
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

// show writes t (of the view's shape) into the cells that differ.
func (tv *tensorView) show(t *tensor.Tensor, sc *app.Scale) {
	if tv.sc != nil && sc == tv.sc && sameBits(t.Data, tv.data) {
		return // the same numbers (a node shown again, or a value that did not change)
	}
	tv.data, tv.sc = append(tv.data[:0], t.Data...), sc
	tv.wrap.SetAttribute("data-values", tensorValues(t))
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
