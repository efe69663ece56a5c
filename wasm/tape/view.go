//go:build js && wasm

// Package tape is the tape's screen: the tape drawn as SVG (a box per node,
// edges from parents to children, zoom, pan and fit, the dots a step sends
// along the edges) and the same tape as a text list for a screen reader.
// The page builds it with New and tells it every change of its state
// (Changed); it draws the recorded step of the state's source.
package tape

import (
	"strconv"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/layout"
	"tapelab/wasm/state"
	"tapelab/wasm/tapesvg"
	"tapelab/wasm/ui"
)

// Deps is what the tape needs of the page and of the other screens.
type Deps struct {
	// Doc is the page's document the tape draws into.
	Doc *dom.Document
	// Scale is the colour scale of values and gradients.
	Scale *app.Scale
	// State is the page's state: the tape draws the recorded step of its
	// source, pins the node a person clicks (Select) and marks the node
	// pinned (Selected).
	State *state.State
	// Grad is node i's gradient as the views show it: the step's, or for
	// an image input the saliency map once it is known.
	Grad func(s *app.Stepper, i int) *tensor.Tensor
	// Reads reports whether the step of node k changes what node i shows
	// beside its own (an image input, whose saliency map node k's VJP
	// may complete), so that i is redrawn with k.
	Reads func(s *app.Stepper, k, i int) bool
	// Tangent is node i's tangent as its box shows it in forward mode, or
	// "" (no forward mode, or no value yet).
	Tangent func(s *app.Stepper, i int) string
	// Example is the example of the batch that the tape's images show.
	Example func() int
	// Rate is the stepper's speed in steps a second: the dots a step
	// sends along the edges take the time of a step.
	Rate func() int
	// EditorWidth is the width the editor's column would give the tape if
	// it were folded away, or 0 when it cannot be (it is closed, or a
	// drawer on a narrow screen). The Fit button asks it only when the
	// tape is too long for its region.
	EditorWidth func() float64
	// FoldEditor folds the editor's column away and fits the tape again,
	// in the next frame, to the room it leaves.
	FoldEditor func()
}

// View draws the tape as SVG: one box per node, edges from parents to
// children. It is built once per recorded step; each step then only changes
// the classes and strips of the nodes whose state changed. It keeps the
// tape's text list (List) in step with the drawing.
type View struct {
	deps  Deps
	list  *listView
	root  dom.Elem // the region: toolbar and drawing
	frame dom.Elem // the drawing's frame, under the toolbar
	svg   dom.Elem
	world dom.Elem // the <g> that zoom and pan transform
	// base is the tape laid out in one row; lay is what is drawn: base,
	// or base folded into rows to fill a tall region (fit chooses).
	base, lay *layout.Layout
	// folds are base's sizes folded into 1, 2, … rows (RowSizes), which
	// every fit compares with the region.
	folds [][2]float64
	boxes []boxEls
	edges []dom.Elem
	// nodeEls and edgeEls are the boxes' and the edges' elements as lists
	// for document.write, and classes the changes of their classes that a
	// step queues (update, highlight) and flush applies in one call each.
	nodeEls, edgeEls     dom.Elems
	nodeClass, edgeClass dom.Writes
	// badgeEls lists the state badges' parts as badgeFor makes them (see
	// boxEls.badge), and badgeW the writes a step queues to them.
	badgeEls dom.Elems
	badgeW   dom.Writes
	// edgesOf lists, per node, the edges that end or start at it; edgeAt
	// finds the edge into a node's operand slot.
	edgesOf [][]int
	edgeAt  map[[2]int]int
	view    layout.View
	// zoomed is set once the user zooms or pans; until then the drawing
	// refits when the region changes size, and does not follow the steps.
	zoomed bool
	// overflow is set when the tape, fitted at its smallest readable
	// scale, is larger than the region: then the view follows the steps
	// along the chain even though the user has not zoomed.
	overflow bool
	focus    int // the node the last step ran (-1: none)
	// vw and vh are the drawing region's size in CSS pixels, measured
	// when it is fitted or resized: a step reads them without forcing
	// the browser to lay out the page mid-redraw.
	vw, vh float64
	// presenting fits the tape no smaller than presenter mode's titles;
	// drawer, when drawerOn, is the explain panel, which may cover part
	// of the region (see measure). The shell sets both (SetRoom).
	presenting, drawerOn bool
	drawer               dom.Elem
	// leastScale is the stylesheet's --tape-min-scale where it sets one
	// (a phone: every text of the drawing at its own size), read with
	// the region's size; 0 elsewhere.
	leastScale float64
	// loss points at the loss when the view does not show it.
	loss *lossPointer
	// selected is the node the inspector shows (-1: none): the view
	// keeps it in view, as it does the node a step ran.
	selected int
	hot      []int // edges currently highlighted
	// stripProtos are the strips drawn for this tape, one of each kind,
	// which its boxes' strips copy (ui.NewStrip).
	stripProtos map[ui.StripKind]dom.Elem
	// first is the tape of the page's first view until the first build
	// adopts it or draws another.
	first *firstTape
	gesture
	travels
}

// boxEls are the elements of one node's box. Its value and gradient rows
// and its badge are made when first shown: at the start of a step most
// nodes have neither.
type boxEls struct {
	g         dom.Elem
	node      app.NodeInfo
	w         float64   // the box's width
	valStrip  tensorRow // nil until made (rowsFor)
	gradStrip tensorRow
	// tab is the state badge's group, not ok until made (badgeFor); badge
	// is the index in the tape's badgeEls of the tab, the badge's
	// background and its text, in that order (-1 until made).
	tab      dom.Elem
	badge    int
	selected bool // drawn as the node the inspector shows
	state    app.State
	drawn    bool // the state has been applied at least once
	// tangent is the text of forward mode's tangent, not ok until first
	// shown (drawTangent), and tangentText what it says.
	tangent     dom.Elem
	tangentText string
}

// New makes the tape's screen, with nothing recorded yet: the first change
// of the state (Changed) draws its step.
func New(deps Deps) *View {
	doc := deps.Doc
	v := &View{deps: deps, view: layout.View{Scale: 1, Min: zoomMin, Max: zoomMax}, focus: -1, selected: -1}
	v.motion = dom.NewMediaQuery("(prefers-reduced-motion: reduce)")
	v.root = doc.El("section", "class", "tape-region", "aria-labelledby", "tape-title")
	bar := doc.El("div", "class", "region-bar")
	h := doc.El("h2", "id", "tape-title")
	h.SetTextContent("The tape")
	tools := doc.El("div", "class", "zoom-tools", "role", "group", "aria-label", "Zoom")
	tools.AppendChild(doc.Button("Fit", "Fit the whole tape to the screen", v.FitAll, "id", "fit"))
	tools.AppendChild(doc.Button("−", "Zoom out", func() { v.Zoom(1 / 1.25) }, "id", "zoom-out"))
	tools.AppendChild(doc.Button("+", "Zoom in", func() { v.Zoom(1.25) }, "id", "zoom-in"))
	key := doc.Txt("span", tapesvg.BadgeKey, "class", "badge-key")
	dom.Add(bar, h, ui.Legend(doc, deps.Scale), key, tools)
	v.svg = doc.SVG("svg", "id", "tape", "role", "img", "aria-label", "The tape of one training step, drawn left to right. The text list below reads the same tape.")
	defs := doc.SVG("defs")
	defs.SetInnerHTML(tapesvg.Defs)
	v.world = doc.SVG("g", "class", "world")
	dom.Add(v.svg, defs, v.world)
	// The drawing sits in a frame that takes the region's room, placed
	// absolutely in it: Chromium then lays the drawing out on its own, and
	// only what a step changed. As a flex item it would be laid out again
	// with the region, and an SVG laid out from outside lays out every
	// text in it afresh.
	v.loss = newLossPointer(v)
	v.frame = dom.Add(doc.El("div", "class", "tape-frame"), v.svg, v.loss.btn)
	dom.Add(v.root, bar, v.frame)
	doc.Listen(v.svg, "click", "tape click", v.onClick)
	doc.Listen(v.svg, "wheel", "tape zoom", v.onWheel)
	doc.Listen(v.svg, "pointerdown", "tape pan", v.onDown)
	doc.Listen(v.svg, "pointermove", "tape pan", v.onMove)
	for _, name := range []string{"pointerup", "pointercancel", "pointerleave"} {
		doc.Listen(v.svg, name, "tape pan", v.onUp)
	}
	// Refit when the region changes size (the window, or a bar above it
	// wrapping), unless the user has zoomed.
	dom.OnResize(doc, v.svg, "tape resize", func() {
		v.measure()
		if !v.zoomed {
			v.Fit()
		}
	})
	v.list = newListView(doc, deps.State)
	return v
}

// Root is the tape's region: its toolbar and its drawing.
func (v *View) Root() dom.Elem { return v.root }

// Notice places e between the toolbar and the drawing: where a notice
// about the tape on screen is read before the tape.
func (v *View) Notice(e dom.Elem) { v.frame.Before(e) }

// List is the tape's text list, a closed <details> for the page's bottom
// bar.
func (v *View) List() dom.Elem { return v.list.root }

// Drawing is the tape's <svg>.
func (v *View) Drawing() dom.Elem { return v.svg }

// Nodes is the number of nodes the tape draws.
func (v *View) Nodes() int { return len(v.boxes) }

// Box is node i's group in the drawing (0 <= i < Nodes()), which holds
// its box and its texts; another view may add to it, until the step is
// recorded again and the tape drawn anew.
func (v *View) Box(i int) dom.Elem { return v.boxes[i].g }

// build draws a freshly recorded step. When the page's first view drew
// this very tape (see adoptFirstView), its elements become the tape's.
func (v *View) build(s *app.Stepper, lay *layout.Layout) {
	doc := v.deps.Doc
	v.stopTravels() // before the boxes it lit are dropped
	v.world.Clear()
	v.base, v.folds = lay, lay.RowSizes()
	if f := v.first; f != nil && f.vw >= 10 && f.vh >= 10 {
		// The first view's script measured the same region: reading it
		// here would make the browser lay out the page just mounted in
		// the middle of start-up (the resize observer measures it once
		// it is laid out).
		v.vw, v.vh = f.vw, f.vh
		v.readLeastScale()
	} else {
		v.measure()
	}
	w, h := v.size()
	v.lay = lay.Wrap(layout.PickRows(v.folds, w, h, v.readable(w, h), fitMax))
	v.svg.SetAttribute("data-rows", strconv.Itoa(v.lay.Rows))
	nodes := s.Nodes()
	v.loss.follow(nodes, s.Output())
	v.boxes = make([]boxEls, len(nodes))
	v.edges = v.edges[:0]
	v.edgesOf = make([][]int, len(nodes))
	v.edgeAt = make(map[[2]int]int, len(lay.Edges))
	v.hot, v.focus, v.selected = nil, -1, -1
	v.stripProtos = map[ui.StripKind]dom.Elem{}
	v.badgeEls = dom.NewElems()
	for k, e := range lay.Edges {
		v.edgesOf[e.From] = append(v.edgesOf[e.From], k)
		v.edgesOf[e.To] = append(v.edgesOf[e.To], k)
		v.edgeAt[[2]int{e.To, e.Operand}] = k
	}
	if !v.adoptFirstView(s, lay) {
		v.draw(nodes)
	}
	v.nodeEls, v.edgeEls = v.world.All(".nodes > g"), v.world.All(".edges > path")
	v.movers, v.dots, v.dotEls = doc.SVG("g", "class", "movers"), nil, dom.Elems{}
	v.world.AppendChild(v.movers)
	v.fitMeasured()
}

// draw makes the elements of the tape laid out in v.lay: the edges, and
// per node its group with the ring, the box and the texts. The value and
// gradient rows and the state badge are made when first shown (update).
func (v *View) draw(nodes []app.NodeInfo) {
	doc := v.deps.Doc
	lay := v.lay
	edgeLayer := doc.SVG("g", "class", "edges")
	for _, e := range lay.Edges {
		p := doc.SVG("path", "class", "edge", "d", e.Path(), "marker-end", "url(#arrow)")
		edgeLayer.AppendChild(p)
		v.edges = append(v.edges, p)
	}
	nodeLayer := doc.SVG("g", "class", "nodes")
	for i, n := range nodes {
		b := lay.Boxes[i]
		g := doc.SVG("g", "class", tapesvg.Classes(n), "data-node", strconv.Itoa(i), "id", "node-"+strconv.Itoa(i), "transform", "translate("+ui.F1(b.X)+" "+ui.F1(b.Y)+")")
		w := ui.F1(b.W)
		dom.Add(g,
			doc.SVG("rect", "class", "ring", "x", ui.F1(-app.RingPad), "y", ui.F1(-app.RingPad), "width", ui.F1(b.W+2*app.RingPad), "height", ui.F1(b.H+2*app.RingPad), "rx", ui.F1(app.RingRadius)),
			doc.SVG("rect", "class", "box", "width", w, "height", ui.F1(b.H), "rx", ui.F1(tapesvg.BoxRadius(n.Kind))),
			ui.SVGText(doc, "title-text", app.TitlePx, app.BoxInset, app.TitleY, n.Title()),
			ui.SVGText(doc, "shape-text mono", app.ShapePx, app.BoxInset, app.ShapeY, n.Shape.String()),
		)
		if tag := n.Tag(); tag != "" {
			t := ui.SVGText(doc, "role-text", app.RolePx, b.W-app.BoxInset, app.ShapeY, tag)
			t.SetAttribute("text-anchor", "end")
			g.AppendChild(t)
		}
		nodeLayer.AppendChild(g)
		v.boxes[i] = boxEls{g: g, node: n, w: b.W, badge: -1}
	}
	dom.Add(v.world, edgeLayer, nodeLayer)
}

// rowsFor makes box i's value and gradient rows, the first time it shows
// one of them, before its badge's tab (which stays on top).
func (v *View) rowsFor(i int) {
	b := &v.boxes[i]
	b.valStrip, b.gradStrip = v.rows(b.node, b.w)
	for _, r := range []tensorRow{b.valStrip, b.gradStrip} {
		if b.tab.OK() {
			b.tab.Before(r.Group())
		} else {
			b.g.AppendChild(r.Group())
		}
	}
}

// badgeFor makes box i's state badge, a tab on the box's top edge,
// right-aligned so that it takes none of the title's width, the first
// time the node has one.
func (v *View) badgeFor(i int) {
	doc, b := v.deps.Doc, &v.boxes[i]
	tab := doc.SVG("g", "class", "badge-tab", "transform", "translate("+ui.F1(b.w-app.BadgeRight)+" 0)", "visibility", "hidden")
	bg := doc.SVG("rect", "class", "badge-bg", "y", ui.F1(-app.BadgeH/2), "height", ui.F1(app.BadgeH), "rx", ui.F1(app.BadgeH/2))
	text := ui.SVGText(doc, "badge", app.BadgePx, app.BadgeTextX, app.BadgeTextY, "")
	text.SetAttribute("text-anchor", "end")
	dom.Add(tab, bg, text)
	b.g.AppendChild(tab)
	b.tab, b.badge = tab, v.badgeEls.Push(tab, bg, text)
}

// update applies node i's new state: classes, strips and badge. values
// forces the strips to be redrawn even when the state flags are unchanged
// (a gradient that grew by +=).
//
// A node the stepper's backward pass leaves out is drawn as skipped ("skip",
// dashed); a side node that the loss does not depend on but the dense pass
// visits is drawn with its zero cotangent ("g=0", final from the start:
// nothing feeds it), and as ran once its VJP step has run. A visit of the
// single-output pass beyond the loss's dependencies is drawn as "extra",
// its badge the reason's short tag (0·∞, fed, −0, dense).
func (v *View) update(s *app.Stepper, i int, st app.State, values bool) {
	b := &v.boxes[i]
	changed := !b.drawn || st != b.state
	if changed {
		v.nodeClass.Attr(i, "class", b.class(st))
		badge := badgeText(s, i, st)
		if badge != "" && b.badge < 0 {
			v.badgeFor(i)
		}
		switch k := b.badge; {
		case k < 0:
		case badge == "":
			v.badgeW.Attr(k, "visibility", "hidden")
		default:
			w := app.BadgeW(badge)
			v.badgeW.Attr(k, "visibility", "visible")
			v.badgeW.Attr(k+1, "x", ui.F1(-w))
			v.badgeW.Attr(k+1, "width", ui.F1(w))
			v.badgeW.Text(k+2, badge)
		}
	}
	if changed || values {
		val, grad := s.Value(i), v.deps.Grad(s, i)
		if b.valStrip == nil && (val != nil || grad != nil) {
			v.rowsFor(i)
		}
		if b.valStrip != nil {
			b.valStrip.Show(val)
			b.gradStrip.Show(grad)
		}
		v.drawTangent(s, i)
	}
	b.state, b.drawn = st, true
}

// drawTangent writes node i's tangent in forward mode under its box's
// gradient row (Deps.Tangent; the text is made when first shown).
func (v *View) drawTangent(s *app.Stepper, i int) {
	b := &v.boxes[i]
	t := v.deps.Tangent(s, i)
	if t == b.tangentText {
		return
	}
	if !b.tangent.OK() {
		b.tangent = ui.SVGText(v.deps.Doc, "tangent-text mono", app.StripNumPx, app.StripX, app.GradY+app.StripTextY, "")
		b.tangent.SetAttribute("id", "tangent-"+strconv.Itoa(i))
		b.g.AppendChild(b.tangent)
	}
	b.tangent.SetTextContent(t)
	b.tangentText = t
}

// badgeText is the state badge of node i in state st, or "" for none.
func badgeText(s *app.Stepper, i int, st app.State) string {
	switch {
	case st.Has(app.Updated):
		return "w←"
	case st.Has(app.Skipped):
		return "skip"
	case st.Has(app.Extra):
		if vis, ok := s.Visit(i); ok {
			return app.ReasonBadge(vis.Reason)
		}
	case st.Has(app.NonFinite): // after a visit's reason, which says 0·∞ already
		return s.NaNMark(i)
	case st.Has(app.Side):
		return "g=0"
	case st.Has(app.Final):
		return "g✓"
	case st.Has(app.HasGrad):
		return "g…"
	case st.Has(app.Known):
		return "v✓"
	}
	return ""
}

// class is the box's class attribute in state st.
func (b *boxEls) class(st app.State) string {
	c := tapesvg.Classes(b.node) + tapesvg.StateClasses(st)
	if b.selected {
		c += " selected"
	}
	return c
}

// highlight makes the edges into node i the saturated ones: the forward
// step read its parents along them, the backward step sent its
// contributions back along them. i = -1 clears.
func (v *View) highlight(i int) {
	v.focus = i
	for _, k := range v.hot {
		v.edgeClass.Attr(k, "class", "edge")
	}
	v.hot = v.hot[:0]
	if i >= 0 && i < len(v.edgesOf) {
		for _, k := range v.edgesOf[i] {
			if v.lay.Edges[k].To == i {
				v.edgeClass.Attr(k, "class", "edge hot")
				v.hot = append(v.hot, k)
			}
		}
	}
	v.deps.Doc.Write(v.edgeEls, &v.edgeClass)
}

// flush applies the boxes' classes and badges that update queued: a step
// calls it once it has updated every box.
func (v *View) flush() {
	v.deps.Doc.Write(v.nodeEls, &v.nodeClass)
	v.deps.Doc.Write(v.badgeEls, &v.badgeW)
}

// selectNode marks node i as the one the inspector shows (-1: none).
func (v *View) selectNode(i int) {
	if prev := v.selected; prev >= 0 && prev < len(v.boxes) {
		v.boxes[prev].g.RemoveClass("selected")
		v.boxes[prev].selected = false
	}
	v.selected = -1
	if i >= 0 && i < len(v.boxes) {
		v.boxes[i].g.AddClass("selected")
		v.boxes[i].selected = true
		v.selected = i
		v.follow(i)
	}
}
