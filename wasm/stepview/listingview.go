//go:build js && wasm

package stepview

import (
	"tapelab/wasm/dom"

	"strconv"

	"tapelab/wasm/state"
)

// listingView shows, in compiled mode, the step's SSA listing and its IR
// side by side; every line is a button that inspects the same tape node.
type listingView struct {
	sv    *View
	root  dom.Elem
	ssa   dom.Elem
	ir    dom.Elem
	pipe  *pipelineView // nil until a compiled step is first shown (fill)
	lines [][]dom.Elem  // per tape node, its lines in both listings
	cur   int
}

func newListingView(sv *View) *listingView {
	v := &listingView{sv: sv, cur: -1}
	v.root = sv.doc.El("section", "class", "listing", "id", "listing", "aria-label", "Compiled step: SSA listing and IR", "hidden", "")
	return v
}

// fill makes the listings' columns, the first time a compiled step is
// shown: a page that stays in eager mode never builds them.
func (v *listingView) fill() {
	if v.pipe != nil {
		return
	}
	doc := v.sv.doc
	v.ssa = doc.El("ol", "class", "code mono", "id", "ssa", "aria-label", "SSA listing (graph.Builder, CompileChecked)")
	v.ir = doc.El("ol", "class", "code mono", "id", "ir", "aria-label", "IR (ir.FromGraph)")
	col := func(title string, list dom.Elem) dom.Elem {
		c := doc.El("div", "class", "code-col")
		dom.Add(c, doc.Txt("h3", title), list)
		return c
	}
	v.pipe = newPipelineView(v.sv)
	irCol := doc.El("div", "class", "code-col")
	dom.Add(irCol, doc.Txt("h3", "IR (ir.FromGraph; weights in the payload)"), v.pipe.root, v.ir)
	dom.Add(v.root, col("SSA graph (graph.Builder → CompileChecked)", v.ssa), irCol)
}

// build lists the compiled step, or hides the view in eager mode.
func (v *listingView) build(pg state.Source) {
	v.cur = -1
	v.lines = nil
	if v.pipe != nil {
		v.ssa.Clear()
		v.ir.Clear()
	}
	r := pg.Recording()
	if r == nil || r.Graph == nil {
		v.root.SetAttribute("hidden", "")
		return
	}
	v.fill()
	v.root.RemoveAttribute("hidden")
	v.pipe.build()
	v.lines = make([][]dom.Elem, r.Tape.Len())
	for k, line := range r.Listing() {
		v.ssa.AppendChild(v.line(line, k, "ssa-"+strconv.Itoa(k)))
	}
	irLines, err := pg.IRListing()
	if err != nil {
		v.ir.AppendChild(v.sv.doc.Txt("li", "IR export failed: "+err.Error(), "class", "hint"))
		return
	}
	for k, l := range irLines {
		v.ir.AppendChild(v.line(l.Text, l.Node, "ir-"+strconv.Itoa(k)))
	}
}

func (v *listingView) line(text string, node int, id string) dom.Elem {
	li := v.sv.doc.El("li")
	if node < 0 {
		li.SetTextContent(text)
		return li
	}
	b := v.sv.doc.Button(text, "", func() { v.sv.inspect(node) }, "class", "code-line", "id", id, "data-node", strconv.Itoa(node))
	li.AppendChild(b)
	v.lines[node] = append(v.lines[node], b)
	return li
}

// current marks the lines of node i.
func (v *listingView) current(i int) {
	if v.lines == nil || i == v.cur {
		return
	}
	if v.cur >= 0 && v.cur < len(v.lines) {
		for _, b := range v.lines[v.cur] {
			b.RemoveClass("current")
		}
	}
	v.cur = i
	if i >= 0 && i < len(v.lines) {
		for _, b := range v.lines[i] {
			b.AddClass("current")
			b.ScrollIntoView()
		}
	}
}
