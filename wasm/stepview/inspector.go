//go:build js && wasm

package stepview

import (
	"tapelab/wasm/dom"

	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/ui"
)

// inspectorView explains one node: what it is, its value and gradient, its
// neighbours, and its op's chain rule with the actual numbers. Its parts
// are made once and kept: showing another node (every step shows one)
// writes only the texts that differ and puts the parts the node has in
// their order.
type inspectorView struct {
	sv   *View
	root dom.Elem
	bar  dom.Elem // the title's row, where a view may add a button
	body dom.Elem
	head dom.Elem // the node's heading (#insp-node), when a node is shown

	hint                  dom.Elem // shown when no node is
	name, kind            ui.Text
	node                  string // the heading's data-node
	kindShown             bool
	facts                 dom.Elem
	op, shape             ui.Text
	opRow                 []dom.Elem // the op's <dt> and <dd>
	opShown               bool
	parents, children     ui.LinkList
	from                  dom.Elem // #insp-from: which grad and VJP rule recorded the node
	fromText, fromRule    ui.Text
	fromNode              ui.LinkList
	rule                  ui.RuleCard
	vg, vcol, gcol        dom.Elem
	vhead, ghead, pending dom.Elem // the columns' headings; "not computed yet"
	status                ui.Text
	recv                  dom.Elem // #insp-received
	recvTitle             ui.Text
	recvItems             ui.Items
	nan                   *nanNote               // a NaN or ∞ explained (inspectnan.go)
	order, vorder, gorder []dom.Elem             // the body's and the columns' children as last set
	sections              []dom.Elem             // what other views added (addSection), removed on the next show
	tensors               map[string][]*keptGrid // per place (an element id), the grids of the shapes last shown there, the latest first
	upd                   *updateCard            // the update phase's part, once shown
}

func newInspectorView(sv *View) *inspectorView {
	doc := sv.doc
	v := &inspectorView{sv: sv}
	v.root = doc.El("aside", "class", "inspector", "aria-labelledby", "insp-title", "id", "inspector")
	h := doc.El("h2", "id", "insp-title")
	h.SetTextContent("Inspector")
	v.bar = dom.Add(doc.El("div", "class", "region-bar"), h)
	v.body = doc.El("div", "class", "insp-body", "aria-live", "polite")
	dom.Add(v.root, v.bar, v.body)
	// The links to other nodes change with every node shown: one listener
	// serves them all.
	doc.Listen(v.body, "click", "inspector link", func(ev dom.Event) {
		if b := ev.Target().Closest("button[data-inspect]"); b.OK() {
			if id, err := strconv.Atoi(b.GetAttribute("data-inspect")); err == nil {
				sv.inspect(id)
			}
		}
	})
	v.hint = doc.Txt("p", "Press → to evaluate the tape node by node, or click a node to inspect it.", "class", "hint")
	v.name.El = doc.El("span", "class", "insp-name")
	v.kind.El = doc.El("span", "class", "insp-kind")
	v.head = dom.Add(doc.El("div", "class", "insp-head", "id", "insp-node"), v.name.El)
	v.op.El, v.shape.El = doc.El("span", "class", "mono"), doc.El("span", "class", "mono")
	v.parents.El, v.children.El = doc.El("span", "class", "links"), doc.El("span", "class", "links")
	row := func(k string, val dom.Elem) []dom.Elem {
		return []dom.Elem{doc.Txt("dt", k), dom.Add(doc.El("dd"), val)}
	}
	v.opRow = row("op", v.op.El)
	v.facts = doc.El("dl", "class", "facts")
	dom.Add(v.facts, v.opRow...)
	v.opShown = true
	dom.Add(v.facts, row("shape", v.shape.El)...)
	dom.Add(v.facts, row("parents", v.parents.El)...)
	dom.Add(v.facts, row("children", v.children.El)...)
	v.rule = ui.NewRuleCard(doc)
	v.fromText.El, v.fromRule.El = doc.El("span"), doc.El("code", "class", "rule-text")
	v.fromNode.El = doc.El("span", "class", "links")
	v.from = dom.Add(doc.El("p", "class", "insp-from", "id", "insp-from"), v.fromText.El, v.fromNode.El, v.fromRule.El)
	v.vhead, v.ghead = doc.Txt("h3", "value"), doc.Txt("h3", "gradient")
	v.pending = doc.Txt("p", "not computed yet", "class", "hint")
	v.status.El = doc.El("p", "class", "grad-status", "id", "insp-grad-status")
	v.vcol, v.gcol = doc.El("div", "class", "vg-col"), doc.El("div", "class", "vg-col")
	v.vg = dom.Add(doc.El("div", "class", "vg"), v.vcol, v.gcol)
	v.recvTitle.El = doc.El("p")
	v.recvItems.List = doc.El("ol", "class", "mono")
	v.recv = dom.Add(doc.El("div", "class", "received", "id", "insp-received"), v.recvTitle.El, v.recvItems.List)
	v.nan = newNaNNote(doc)
	return v
}

// addSection puts box right under the shown node's heading (at the top
// when no node is shown); a view that explains more of the node, such as
// forward mode's tangent, adds its part with it. The next show removes it.
func (v *inspectorView) addSection(box dom.Elem) {
	v.sections = append(v.sections, box)
	if len(v.order) > 0 && v.order[0].Same(v.head) {
		v.head.After(box)
		return
	}
	v.body.Prepend(box)
}

// place makes parts the children of parent unless they already are, in
// that order (last holds them as last set).
func place(parent dom.Elem, last *[]dom.Elem, parts ...dom.Elem) {
	if len(parts) == len(*last) {
		same := true
		for k, p := range parts {
			same = same && p.Same((*last)[k])
		}
		if same {
			return
		}
	}
	parent.SetChildren(parts...)
	*last = parts
}

// show explains node i of s (i < 0: a hint).
func (v *inspectorView) show(s *app.Stepper, i int) {
	for _, b := range v.sections {
		b.Remove()
	}
	v.sections = v.sections[:0]
	if s == nil || i < 0 || i >= len(s.Nodes()) {
		place(v.body, &v.order, v.hint)
		return
	}
	n := s.Nodes()[i]
	st := s.State(i)
	if id := strconv.Itoa(i); id != v.node {
		v.head.SetAttribute("data-node", id)
		v.node = id
	}
	// An op node's kind is said by its "op" fact below; only a role is news.
	kind := n.Kind.String()
	if n.Op != nil {
		kind = ""
	}
	if n.Role != "" && n.Role != kind {
		kind = strings.TrimPrefix(kind+" · "+n.Role, " · ")
	}
	v.name.Set(n.Title())
	v.kind.Set(kind)
	if shown := kind != ""; shown != v.kindShown {
		if shown {
			v.head.AppendChild(v.kind.El)
		} else {
			v.kind.El.Remove()
		}
		v.kindShown = shown
	}
	if n.Op != nil {
		v.op.Set(n.Op.Formula)
	}
	if v.opShown != (n.Op != nil) {
		v.opShown = n.Op != nil
		if n.Op != nil {
			v.facts.Prepend(v.opRow[1])
			v.facts.Prepend(v.opRow[0])
		} else {
			v.opRow[0].Remove()
			v.opRow[1].Remove()
		}
	}
	v.shape.Set(n.Shape.String())
	v.parents.Show(v.sv.doc, s, n.Parents, n.Operands)
	v.children.Show(v.sv.doc, s, n.Children, nil)

	order := []dom.Elem{v.head, v.facts}
	if v.nan.show(v.sv.doc, s, i) {
		order = []dom.Elem{v.head, v.nan.root, v.facts}
	}
	if n.From.Grad > 0 {
		v.showFrom(s, n)
		order = append(order, v.from)
	}
	// While backward runs, the chain rule of the step just taken comes first.
	ranHere := n.Op != nil && s.Contribs(i) != nil
	var card []dom.Elem
	if n.Op != nil {
		if w := v.sv.img.window(s, i); w.OK() {
			card = append(card, w)
		}
		v.rule.Show(v.sv.doc, s, i)
		card = append(card, v.rule.Box)
	}
	if ranHere {
		order = append(order, card...)
	}
	order = append(order, v.vg)
	if val := s.Value(i); val == nil {
		place(v.vcol, &v.vorder, v.vhead, v.pending)
	} else {
		place(v.vcol, &v.vorder, v.vhead, v.sv.img.tensorEl(n, val, "insp-value"))
	}
	g := v.sv.img.gradOf(s, i)
	v.status.Set(gradStatus(s, i, st, g != nil))
	if g != nil {
		place(v.gcol, &v.gorder, v.ghead, v.status.El, v.sv.img.tensorEl(n, g, "insp-grad"))
	} else {
		place(v.gcol, &v.gorder, v.ghead, v.status.El)
	}
	if rs := s.Received(i); len(rs) > 0 {
		v.received(rs)
		order = append(order, v.recv)
	}
	if !ranHere {
		order = append(order, card...)
	}
	place(v.body, &v.order, order...)
	v.updateCard(s, i)
}

// showFrom fills #insp-from for node n, which a grad recorded: the
// derivative, the rule, a link to the forward node whose VJP it is, and
// the rule's text.
func (v *inspectorView) showFrom(s *app.Stepper, n app.NodeInfo) {
	words, node, rule := app.Recorded(n.From)
	v.fromText.Set("Recorded by " + words)
	var ids []int
	if node >= 0 && node < len(s.Nodes()) {
		ids = []int{node}
	}
	v.fromNode.Show(v.sv.doc, s, ids, nil)
	if len(ids) == 0 {
		v.fromNode.El.SetTextContent("")
	}
	v.fromRule.Set(rule)
}

// gradStatus says where node i's gradient stands (g: it has one to show).
func gradStatus(s *app.Stepper, i int, st app.State, g bool) string {
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
	case g:
		status = "partial: more to come"
	case s.Position().Phase == autograd.PhaseForward:
		status = "backward not started"
	case s.Position().Phase == autograd.PhaseDone:
		status = "none: no gradient flows to it (the ops that use it pass it none, as with a class-index target)"
	}
	if g && s.Grad(i) == nil {
		status = "dL/dx, the saliency map (computed for you: training needs no input gradient)"
	}
	return status
}

// received lists the contributions a node's gradient was summed from.
func (v *inspectorView) received(rs []app.Received) {
	title := "gradient = the contribution from #" + strconv.Itoa(rs[0].From)
	if len(rs) > 1 {
		title = "gradient = sum of " + strconv.Itoa(len(rs)) + " contributions (this value feeds several nodes)"
	}
	v.recvTitle.Set(title)
	doc := v.sv.doc
	v.recvItems.Show(len(rs), func() ui.Item {
		acc, rest := doc.El("span"), doc.TextNode("")
		return ui.Item{Li: dom.Add(doc.El("li"), acc, rest), Parts: []ui.Text{{El: acc}, {El: rest}}}
	})
	for k, r := range rs {
		op := "="
		if r.Before != nil {
			op = "+="
		}
		it := &v.recvItems.All[k]
		it.Parts[0].SetAcc(op)
		it.Parts[1].Set(" " + app.Inline(r.Value) + "  from #" + strconv.Itoa(r.From))
	}
}
