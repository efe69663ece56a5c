//go:build js && wasm

package tape

import (
	"strconv"
	"strings"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/state"
)

// listView is the tape as a text table a screen reader can read: id, node,
// parents, shape and what is known about it. It follows the drawing. It
// sits in a closed <details>, whose rows are made when it is first opened
// after a step was recorded: until then there is nothing to follow.
type listView struct {
	doc   *dom.Document
	st    *state.State // pins the node of a row's button
	root  dom.Elem
	body  dom.Elem
	s     *app.Stepper // the recorded step its rows list (made or not)
	rows  []dom.Elem   // nil until made
	cells []dom.Elem   // the state cell of each row
	state []app.State
	drawn []bool
	// pinned is the node marked as the one the inspector shows (-1:
	// none), marked on the rows when they are made.
	pinned int
}

func newListView(doc *dom.Document, st *state.State) *listView {
	v := &listView{doc: doc, st: st, pinned: -1}
	v.root = doc.El("details", "class", "tape-list", "id", "tape-list")
	sum := doc.El("summary")
	sum.SetTextContent("Tape as text")
	table := doc.El("table", "class", "mono")
	cap := doc.El("caption")
	cap.SetTextContent("Every node of the tape in id order, with its parents, shape and state.")
	head := doc.El("thead")
	head.SetInnerHTML("<tr><th scope=col>id</th><th scope=col>node</th><th scope=col>parents</th><th scope=col>shape</th><th scope=col>state</th></tr>")
	v.body = doc.El("tbody")
	dom.Add(table, cap, head, v.body)
	dom.Add(v.root, sum, table)
	// A click on the summary (or Enter or space on it) opens the list
	// after its listeners ran: the rows are there when it opens. Opened
	// otherwise (by a script), it makes them when it says it toggled.
	doc.Listen(sum, "click", "tape list", func(dom.Event) {
		if v.rows == nil && v.s != nil {
			v.draw()
		}
	})
	doc.Listen(v.root, "toggle", "tape list", func(dom.Event) {
		if v.rows == nil && v.s != nil && v.open() {
			v.draw()
		}
	})
	return v
}

// open reports whether the list is open.
func (v *listView) open() bool { return v.root.HasAttribute("open") }

// build lists a freshly recorded step: at once when the list is open,
// else when it is opened.
func (v *listView) build(s *app.Stepper) {
	v.body.Clear()
	v.s, v.rows, v.cells, v.pinned = s, nil, nil, -1
	if v.open() {
		v.draw()
	}
}

// draw makes the rows of v.s, with each node's state and the node the
// inspector shows.
func (v *listView) draw() {
	doc, s := v.doc, v.s
	nodes := s.Nodes()
	v.rows = make([]dom.Elem, len(nodes))
	v.cells = make([]dom.Elem, len(nodes))
	v.state = make([]app.State, len(nodes))
	v.drawn = make([]bool, len(nodes))
	for i, n := range nodes {
		tr := doc.El("tr", "data-node", strconv.Itoa(i), "id", "row-"+strconv.Itoa(i))
		ps := make([]string, len(n.Parents))
		for k, p := range n.Parents {
			ps[k] = "#" + strconv.Itoa(p)
		}
		label := n.Label
		if t := n.Note(); t != "" {
			label += " (" + t + ")"
		}
		td := func(s string) dom.Elem { c := doc.El("td"); c.SetTextContent(s); return c }
		v.cells[i] = td("")
		btn := doc.Button(label, "Inspect node "+strconv.Itoa(i)+" "+label, func() { v.st.Select(i) }, "class", "link")
		nodeCell := doc.El("td")
		nodeCell.AppendChild(btn)
		dom.Add(tr, td(strconv.Itoa(i)), nodeCell, td(strings.Join(ps, " ")), td(n.Shape.String()), v.cells[i])
		v.body.AppendChild(tr)
		v.rows[i] = tr
	}
	for i := range nodes {
		v.update(i, s.State(i))
	}
	if i := v.pinned; i >= 0 && i < len(v.rows) {
		v.rows[i].AddClass("selected")
	}
}

// update writes node i's state in words.
func (v *listView) update(i int, st app.State) {
	if v.rows == nil || v.drawn[i] && v.state[i] == st {
		return
	}
	v.state[i], v.drawn[i] = st, true
	var w []string
	if st.Has(app.Known) {
		w = append(w, "value")
	}
	switch {
	case st.Has(app.Skipped):
		w = append(w, "skipped by backward")
	case st.Has(app.Extra):
		w = append(w, "visited beyond the loss's dependencies")
	case st.Has(app.Side | app.Ran):
		w = append(w, "gradient 0 (beside the loss), VJP ran")
	case st.Has(app.Side):
		w = append(w, "gradient 0 (beside the loss)")
	case st.Has(app.Final):
		w = append(w, "gradient final")
	case st.Has(app.HasGrad):
		w = append(w, "gradient partial")
	}
	if st.Has(app.NonFinite) {
		w = append(w, "holds "+v.s.NaNMark(i)) // "!" marks the first of its pass
	}
	if st.Has(app.Focus) {
		w = append(w, "← last step")
	}
	if st.Has(app.Next) {
		w = append(w, "→ next")
	}
	v.cells[i].SetTextContent(strings.Join(w, ", "))
	if st.Has(app.Focus) {
		v.rows[i].SetAttribute("aria-current", "step")
	} else {
		v.rows[i].RemoveAttribute("aria-current")
	}
}

// selectNode marks row i as the one the inspector shows (-1: none).
func (v *listView) selectNode(i int) {
	if prev := v.pinned; prev >= 0 && prev < len(v.rows) {
		v.rows[prev].RemoveClass("selected")
	}
	if i >= 0 && i < len(v.rows) {
		v.rows[i].AddClass("selected")
	}
	v.pinned = i
}
