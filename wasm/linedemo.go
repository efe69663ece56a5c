//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"

	"tapelab/engine/autograd"
)

// lineDemo is the live element that proves the engine runs in the page: it
// evaluates y = 2·x + 1 for the x the user types and shows y, dy/dx and the
// tape node by node.
type lineDemo struct {
	p       *page
	session *autograd.Session
	grads   autograd.Grads

	input   *dom.HTMLInputElement
	y, dydx dom.Element
	message dom.Element
	rows    dom.Element // the tape table's tbody
}

func newLineDemo(p *page) *lineDemo {
	return &lineDemo{p: p, session: autograd.NewSession()}
}

// mount renders the demo into parent and evaluates it once.
func (d *lineDemo) mount(parent dom.Element) {
	doc := d.p.doc
	card := doc.CreateElement("section")
	card.SetAttribute("class", "card")
	card.SetAttribute("aria-labelledby", "demo-title")
	title := text(doc, "h2", "", "Try the engine")
	title.SetID("demo-title")
	card.AppendChild(title)
	card.AppendChild(text(doc, "p", "hint",
		"Go records y = 2·x + 1 on an eager tape, then runs the reverse pass to get dy/dx."))

	form := doc.CreateElement("form")
	form.SetAttribute("class", "row")
	label := text(doc, "label", "", "x")
	label.SetAttribute("for", "x")
	d.input = doc.CreateElement("input").(*dom.HTMLInputElement)
	d.input.SetID("x")
	d.input.SetAttribute("type", "number")
	d.input.SetAttribute("step", "any")
	d.input.SetAttribute("inputmode", "decimal")
	d.input.SetValue("3")
	button := text(doc, "button", "", "Evaluate")
	button.SetID("evaluate")
	button.SetAttribute("type", "submit")
	form.AppendChild(label)
	form.AppendChild(d.input)
	form.AppendChild(button)
	card.AppendChild(form)

	results := doc.CreateElement("div")
	results.SetAttribute("class", "results")
	d.y = d.result(results, "y", "y")
	d.dydx = d.result(results, "dydx", "dy/dx")
	card.AppendChild(results)
	d.message = text(doc, "p", "message", "")
	d.message.SetAttribute("role", "status")
	card.AppendChild(d.message)

	table := doc.CreateElement("table")
	table.SetAttribute("class", "tape")
	table.AppendChild(text(doc, "caption", "", "The tape: one node per op, id = index; grad = dy/d(node) from the reverse pass"))
	head := doc.CreateElement("tr")
	for _, h := range []string{"#", "node", "value", "grad", "chain rule"} {
		th := text(doc, "th", "", h)
		th.SetAttribute("scope", "col")
		head.AppendChild(th)
	}
	thead := doc.CreateElement("thead")
	thead.AppendChild(head)
	table.AppendChild(thead)
	d.rows = doc.CreateElement("tbody")
	d.rows.SetID("tape-rows")
	table.AppendChild(d.rows)
	card.AppendChild(table)
	parent.AppendChild(card)

	d.p.listen(form, "submit", "evaluate", func(ev dom.Event) {
		ev.PreventDefault()
		d.evaluate()
	})
	d.p.listen(d.input, "input", "evaluate as you type", func(dom.Event) { d.evaluate() })
	d.evaluate()
}

// result adds one labelled number to parent and returns its <output>.
func (d *lineDemo) result(parent dom.Element, id, name string) dom.Element {
	box := d.p.doc.CreateElement("div")
	box.SetAttribute("class", "result")
	box.AppendChild(text(d.p.doc, "span", "label", name))
	out := text(d.p.doc, "output", "mono", "")
	out.SetID(id)
	box.AppendChild(out)
	parent.AppendChild(box)
	return out
}

// evaluate reads x, runs the engine and shows the result or what is wrong.
func (d *lineDemo) evaluate() {
	x, err := parseX(d.input.Value())
	if err == nil {
		var r lineResult
		r, err = evalLine(d.session, &d.grads, x)
		if err == nil {
			d.show(r)
			return
		}
	}
	d.y.SetTextContent("–")
	d.dydx.SetTextContent("–")
	d.rows.SetInnerHTML("")
	d.message.SetTextContent(err.Error())
	d.message.Class().Add("bad")
}

func (d *lineDemo) show(r lineResult) {
	d.y.SetTextContent(formatNumber(r.y))
	d.dydx.SetTextContent(formatNumber(r.dydx))
	d.message.SetTextContent("")
	d.message.Class().Remove("bad")
	d.rows.SetInnerHTML("")
	for _, n := range r.nodes {
		tr := d.p.doc.CreateElement("tr")
		grad := "none"
		if n.hasGrad {
			grad = formatNumber(n.grad)
		}
		for _, cell := range []struct{ class, s string }{
			{"mono", "#" + formatNumber(float64(n.id))},
			{"", n.what},
			{"mono num", formatNumber(n.value)},
			{"mono num", grad},
			{"mono rule", n.rule},
		} {
			tr.AppendChild(text(d.p.doc, "td", cell.class, cell.s))
		}
		d.rows.AppendChild(tr)
	}
}
