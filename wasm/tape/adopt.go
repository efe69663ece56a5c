//go:build js && wasm

package tape

import (
	"strconv"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/layout"
	"tapelab/wasm/tapesvg"
)

// firstTape is the tape the server drew into the page's first view
// (web/firstview: <svg id="tape-preview">), kept when the page replaces
// the first view so that the tape view can take its elements over
// instead of drawing them again.
type firstTape struct {
	sig          string   // the drawing's tapesvg.Signature (data-sig)
	rows         string   // the rows firstview.js folded it into (data-rows), "" for one
	edges, nodes dom.Elem // its two layers, <g class="edges"> and <g class="nodes">
	// vw and vh are its region's size as firstview.js last measured it
	// (data-vw, data-vh; 0 when it did not), the size of the tape view's
	// region too.
	vw, vh float64
}

// TakeFirstView keeps the first view's tape, if the page has one, for the
// tape's first build, which takes its elements over when they draw the
// same tape. Its layers live on when the first view is removed from the
// page: the tape holds them. The page calls it before it removes the
// first view.
func (v *View) TakeFirstView() {
	svg := v.deps.Doc.ByID("tape-preview")
	if !svg.OK() {
		return
	}
	edges, nodes := svg.QuerySelector(".world > .edges"), svg.QuerySelector(".world > .nodes")
	if !edges.OK() || !nodes.OK() {
		return
	}
	num := func(name string) float64 {
		x, _ := strconv.ParseFloat(svg.GetAttribute(name), 64)
		return x
	}
	v.first = &firstTape{sig: svg.GetAttribute("data-sig"), rows: svg.GetAttribute("data-rows"), edges: edges, nodes: nodes,
		vw: num("data-vw"), vh: num("data-vh")}
}

// adoptFirstView makes the first view's tape the drawing of s laid out in
// lay (one row; v.lay is what is shown) when the server drew exactly the
// tape the page would draw (the same signature: nodes, texts, shapes,
// boxes, edges and states), and reports whether it did. The boxes keep
// their elements and places; each gets the page's id, and the boxes and
// edges move to v.lay's fold when that is not the one the first view
// shows. It is tried once, at the first build.
func (v *View) adoptFirstView(s *app.Stepper, lay *layout.Layout) bool {
	f := v.first
	v.first = nil
	if f == nil {
		return false
	}
	nodes := s.Nodes()
	states := make([]app.State, len(nodes))
	for i := range nodes {
		states[i] = s.State(i)
	}
	if f.sig == "" || f.sig != tapesvg.Signature(nodes, states, lay) {
		return false
	}
	gs, es := f.nodes.Children(), f.edges.Children()
	if len(gs) != len(nodes) || len(es) != len(lay.Edges) {
		return false
	}
	for i, g := range gs {
		g.SetAttribute("id", "node-"+strconv.Itoa(i))
		// The server drew the state's classes; a badge it does not draw.
		st := states[i]
		v.boxes[i] = boxEls{g: g, node: nodes[i], w: lay.Boxes[i].W, badge: -1, state: st, drawn: badgeText(s, i, st) == ""}
	}
	v.edges = append(v.edges, es...)
	dom.Add(v.world, f.edges, f.nodes)
	if rows := strconv.Itoa(v.lay.Rows); rows != f.rows && !(rows == "1" && f.rows == "") {
		v.place()
	}
	return true
}
