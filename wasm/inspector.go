//go:build js && wasm

package main

import (
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// inspectorView explains one node: what it is, its value and gradient, its
// neighbours, and its op's chain rule with the actual numbers.
type inspectorView struct {
	pv   *playground
	root elem
	bar  elem // the title's row, where a view may add a button
	body elem
	head elem // the shown node's heading (#insp-node), or none
	// tensors holds, per element id, the tensor view last shown under it.
	tensors map[string]*tensorView
}

func newInspectorView(pv *playground) *inspectorView {
	doc := pv.doc
	v := &inspectorView{pv: pv}
	v.root = doc.el("aside", "class", "inspector", "aria-labelledby", "insp-title", "id", "inspector")
	h := doc.el("h2", "id", "insp-title")
	h.SetTextContent("Inspector")
	v.bar = add(doc.el("div", "class", "region-bar"), h)
	v.body = doc.el("div", "class", "insp-body", "aria-live", "polite")
	add(v.root, v.bar, v.body)
	// The links to other nodes are remade with every node shown: one
	// listener serves them all (a listener each would outlive its button).
	doc.listen(v.body, "click", "inspector link", func(ev event) {
		if b := ev.Target().Closest("button[data-inspect]"); b.ok() {
			if id, err := strconv.Atoi(b.GetAttribute("data-inspect")); err == nil {
				pv.inspect(id)
			}
		}
	})
	return v
}

// addSection puts box right under the shown node's heading (at the top
// when no node is shown); a view that explains more of the node, such as
// forward mode's tangent, adds its part with it.
func (v *inspectorView) addSection(box elem) {
	if v.head.ok() {
		v.head.After(box)
		return
	}
	v.body.Prepend(box)
}

// show explains node i of s (i < 0: a hint).
func (v *inspectorView) show(s *app.Stepper, i int) {
	doc := v.pv.doc
	v.body.clear()
	v.head = elem{}
	if s == nil || i < 0 || i >= len(s.Nodes()) {
		v.body.AppendChild(doc.txt("p", "Press → to evaluate the tape node by node, or click a node to inspect it.", "class", "hint"))
		return
	}
	n := s.Nodes()[i]
	st := s.State(i)
	head := doc.el("div", "class", "insp-head", "id", "insp-node", "data-node", strconv.Itoa(i))
	// An op node's kind is said by its "op" fact below; only a role is news.
	kind := n.Kind.String()
	if n.Op != nil {
		kind = ""
	}
	if n.Role != "" && n.Role != kind {
		kind = strings.TrimPrefix(kind+" · "+n.Role, " · ")
	}
	add(head, doc.txt("span", n.Title(), "class", "insp-name"))
	if kind != "" {
		head.AppendChild(doc.txt("span", kind, "class", "insp-kind"))
	}
	v.body.AppendChild(head)
	v.head = head

	dl := doc.el("dl", "class", "facts")
	fact := func(k string, val elem) {
		add(dl, doc.txt("dt", k), add(doc.el("dd"), val))
	}
	if n.Op != nil {
		fact("op", doc.txt("span", n.Op.Formula, "class", "mono"))
	}
	fact("shape", doc.txt("span", n.Shape.String(), "class", "mono"))
	fact("parents", v.links(s, n.Parents, n.Operands))
	fact("children", v.links(s, n.Children, nil))
	v.body.AppendChild(dl)

	// While backward runs, the chain rule of the step just taken comes first.
	ranHere := n.Op != nil && s.Contribs(i) != nil
	if ranHere {
		v.pv.img.window(v.body, s, i)
		v.body.AppendChild(v.card(s, i))
	}
	vg := doc.el("div", "class", "vg")
	vcol, gcol := doc.el("div", "class", "vg-col"), doc.el("div", "class", "vg-col")
	add(vg, vcol, gcol)
	v.body.AppendChild(vg)
	vcol.AppendChild(doc.txt("h3", "value"))
	if val := s.Value(i); val == nil {
		vcol.AppendChild(doc.txt("p", "not computed yet", "class", "hint"))
	} else {
		vcol.AppendChild(v.pv.img.tensorEl(n, val, "insp-value"))
	}
	gcol.AppendChild(doc.txt("h3", "gradient"))
	g := v.pv.img.gradOf(s, i)
	status := "not reached yet"
	switch {
	case st.Has(app.Skipped | app.Side):
		status = "skipped: the loss does not depend on it (single-output pass)"
	case st.Has(app.Skipped):
		status = "skipped: it needs no gradient"
	case st.Has(app.Extra):
		status = s.VisitReason(i)
	case st.Has(app.Side):
		status = "dY = 0: the loss does not depend on it; the dense pass still runs its VJP on the zero"
	case st.Has(app.Final):
		status = "✓ final"
	case g != nil:
		status = "partial: more to come"
	case s.Position().Phase == autograd.PhaseForward:
		status = "backward not started"
	}
	if g != nil && s.Grad(i) == nil {
		status = "dL/dx, the saliency map (computed for you: training needs no input gradient)"
	}
	p := doc.txt("p", status, "class", "grad-status")
	p.SetID("insp-grad-status")
	gcol.AppendChild(p)
	if g != nil {
		gcol.AppendChild(v.pv.img.tensorEl(n, g, "insp-grad"))
	}
	if rs := s.Received(i); len(rs) > 0 {
		v.body.AppendChild(v.received(rs))
	}
	if n.Op != nil && !ranHere {
		v.pv.img.window(v.body, s, i)
		v.body.AppendChild(v.card(s, i))
	}
}

// links lists node ids as buttons that inspect them.
func (v *inspectorView) links(s *app.Stepper, ids []int, names []string) elem {
	doc := v.pv.doc
	span := doc.el("span", "class", "links")
	if len(ids) == 0 {
		span.SetTextContent("none")
	}
	for k, id := range ids {
		label := s.Nodes()[id].Title() + " " + s.Nodes()[id].Shape.String()
		if names != nil {
			label = names[k] + " = " + label
		}
		span.AppendChild(doc.txt("button", label, "type", "button", "class", "link", "title", "Inspect "+label, "data-inspect", strconv.Itoa(id)))
	}
	return span
}

// received lists the contributions a node's gradient was summed from.
func (v *inspectorView) received(rs []app.Received) elem {
	doc := v.pv.doc
	box := doc.el("div", "class", "received", "id", "insp-received")
	title := "gradient = the contribution from #" + strconv.Itoa(rs[0].From)
	if len(rs) > 1 {
		title = "gradient = sum of " + strconv.Itoa(len(rs)) + " contributions (this value feeds several nodes)"
	}
	box.AppendChild(doc.txt("p", title))
	ol := doc.el("ol", "class", "mono")
	for _, r := range rs {
		op := "="
		if r.Before != nil {
			op = "+="
		}
		li := doc.el("li")
		li.AppendChild(doc.txt("span", op, "class", "acc "+accClass(op)))
		li.AppendChild(doc.textNode(" " + app.Inline(r.Value) + "  from #" + strconv.Itoa(r.From)))
		ol.AppendChild(li)
	}
	box.AppendChild(ol)
	return box
}

func accClass(op string) string {
	if op == "+=" {
		return "plus"
	}
	return "set"
}

// card shows the op's chain rule with the numbers of this step.
func (v *inspectorView) card(s *app.Stepper, i int) elem {
	doc := v.pv.doc
	c := s.Explain(i)
	box := doc.el("div", "class", "rule-card", "id", "insp-rule")
	box.AppendChild(doc.txt("h3", "chain rule"))
	box.AppendChild(doc.txt("p", c.Rule, "class", "rule mono"))
	terms := doc.el("ul", "class", "terms mono")
	for _, t := range c.Terms {
		terms.AppendChild(doc.txt("li", t.Name+" = "+t.Value))
	}
	box.AppendChild(terms)
	if len(c.Contribs) == 0 {
		msg := "Its VJP has not run yet."
		switch st := s.State(i); {
		case st.Has(app.Skipped | app.Side):
			msg = "The single-output pass skips it: nothing it computes reaches the loss."
		case st.Has(app.Skipped):
			msg = "The backward pass skips it: it needs no gradient."
		}
		box.AppendChild(doc.txt("p", msg, "class", "hint"))
		return box
	}
	ol := doc.el("ol", "class", "contribs", "id", "insp-contribs")
	for _, l := range c.Contribs {
		li := doc.el("li")
		li.AppendChild(doc.txt("div", l.Clause+" = "+l.Numbers, "class", "mono"))
		li.AppendChild(doc.txt("div", "  = "+l.Value, "class", "mono"))
		op, before := "=", ""
		if l.Accumulates {
			op, before = "+=", l.Before+" → "
		}
		line := doc.el("div", "class", "mono acc-line")
		line.AppendChild(doc.textNode("grad #" + strconv.Itoa(l.Parent) + " "))
		line.AppendChild(doc.txt("span", op, "class", "acc "+accClass(op)))
		line.AppendChild(doc.textNode(" " + l.Operand + "-contribution: " + before + l.After))
		li.AppendChild(line)
		ol.AppendChild(li)
	}
	box.AppendChild(ol)
	return box
}

// tensorEl shows t as a table of numbers (small tensors) or a colour grid
// (larger ones), each cell carrying its full-precision value. The element
// of id is made once per shape: while the tensors shown under id keep
// their shape (the nodes of a layer, one step after the other), it is
// updated in place, and only the cells whose number or colour changed are
// written.
func (v *inspectorView) tensorEl(t *tensor.Tensor, id string) elem {
	shape := t.Shape.String()
	tv := v.tensors[id]
	if tv == nil || tv.shape != shape {
		tv = v.newTensorView(t, id)
		if v.tensors == nil {
			v.tensors = map[string]*tensorView{}
		}
		v.tensors[id] = tv
	}
	tv.show(t, v.pv.p.scale)
	return tv.wrap
}

// tensorView is the inspector's element for the tensors of one shape,
// and what its cells show, so that showing another tensor writes only the
// cells that differ.
type tensorView struct {
	wrap   elem
	shape  string
	values string   // data-values as set
	small  bool     // a table of numbers, else a colour grid
	k      []int    // each cell's element of the tensor
	cells  []elem   // <td>s, or the grid's <rect>s
	titles []elem   // the grid's <title>s
	shown  []string // per cell: its full-precision value, text, background and ink
}

// newTensorView makes the element for tensors of t's shape, its cells
// empty.
func (v *inspectorView) newTensorView(t *tensor.Tensor, id string) *tensorView {
	doc := v.pv.doc
	tv := &tensorView{shape: t.Shape.String(), small: len(t.Data) <= app.SmallLimit}
	tv.wrap = doc.el("div", "class", "tensor", "id", id, "data-shape", tv.shape)
	rows := app.Rows(t)
	if tv.small {
		table := doc.el("table", "class", "nums mono")
		k := 0
		for _, r := range rows {
			tr := doc.el("tr")
			for range r {
				td := doc.el("td")
				tr.AppendChild(td)
				tv.cells = append(tv.cells, td)
				tv.k = append(tv.k, k)
				k++
			}
			table.AppendChild(tr)
		}
		tv.wrap.AppendChild(table)
		tv.shown = make([]string, 4*len(tv.cells))
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
	svg := doc.svg("svg", "class", "grid", "width", f1(cell*float64(len(ci))), "height", f1(cell*float64(len(ri))), "role", "img", "aria-label", "colour grid of "+tv.shape)
	for y, r := range ri {
		for x, c := range ci {
			rect := doc.svg("rect", "x", f1(float64(x)*cell), "y", f1(float64(y)*cell), "width", f1(cell), "height", f1(cell))
			tt := doc.svg("title")
			rect.AppendChild(tt)
			svg.AppendChild(rect)
			tv.cells = append(tv.cells, rect)
			tv.titles = append(tv.titles, tt)
			tv.k = append(tv.k, r*ncols+c)
		}
	}
	tv.wrap.AppendChild(svg)
	hint := tv.shape + ": hover a cell for its number; colours follow the scale above the tape"
	if len(ri) < nrows || len(ci) < ncols {
		hint += " (a sample: " + strconv.Itoa(len(ri)) + " of " + strconv.Itoa(nrows) + " rows, " +
			strconv.Itoa(len(ci)) + " of " + strconv.Itoa(ncols) + " columns)"
	}
	tv.wrap.AppendChild(doc.txt("p", hint, "class", "hint"))
	tv.shown = make([]string, 4*len(tv.cells))
	return tv
}

// show writes t (of the view's shape) into the cells that differ.
func (tv *tensorView) show(t *tensor.Tensor, sc *app.Scale) {
	if values := tensorValues(t); values != tv.values {
		tv.wrap.SetAttribute("data-values", values)
		tv.values = values
	}
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
				tv.titles[c].SetTextContent(full)
			}
			if col := sc.Colour(x); set(c, 2, col) {
				tv.cells[c].SetAttribute("fill", col)
			}
			continue
		}
		td := tv.cells[c]
		if set(c, 0, full) {
			td.SetAttribute("title", full)
		}
		if set(c, 1, text[c]) {
			td.SetTextContent(text[c])
		}
		if col := sc.Colour(x); set(c, 2, col) {
			td.SetStyle("background", col)
		}
		if ink := sc.InkOn(x); set(c, 3, ink) {
			td.SetStyle("color", ink)
		}
	}
}
