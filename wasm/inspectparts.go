//go:build js && wasm

package main

import (
	"tapelab/wasm/dom"

	"strconv"

	"tapelab/wasm/app"
)

// text is an element (or text node) the inspector keeps, with the text it
// shows: setting the same text again writes nothing.
type text struct {
	el      dom.Elem
	shown   string
	written bool // shown has been written (an empty text too)
}

// set shows s.
func (t *text) set(s string) {
	if t.written && t.shown == s {
		return
	}
	t.el.SetTextContent(s)
	t.shown, t.written = s, true
}

// setAcc shows an accumulation sign ("=" or "+=") with its class.
func (t *text) setAcc(op string) {
	if t.written && t.shown == op {
		return
	}
	t.el.SetAttribute("class", "acc "+accClass(op))
	t.set(op)
}

// item is one <li> of a kept list and its parts.
type item struct {
	li    dom.Elem
	parts []text
}

// items keeps a list's <li>s: showing n makes only those it never had and
// takes off or puts back the rest, in order.
type items struct {
	list  dom.Elem
	all   []item
	shown int
}

// show makes the first n items the list's, making any missing with mk.
func (l *items) show(n int, mk func() item) {
	for len(l.all) < n {
		l.all = append(l.all, mk())
	}
	for ; l.shown > n; l.shown-- {
		l.all[l.shown-1].li.Remove()
	}
	for ; l.shown < n; l.shown++ {
		l.list.AppendChild(l.all[l.shown].li)
	}
}

// linkList is a fact's list of nodes, each a button that inspects it (the
// inspector's one listener reads data-inspect). Its buttons are made as
// needed and kept: showing another node's list writes their texts in one
// call and takes off or puts back the rest.
type linkList struct {
	el      dom.Elem
	key     string // the ids and labels as last shown
	written bool
	buttons []dom.Elem
	shown   int  // the buttons in the list
	none    bool // the list says "none"
	w       dom.Writes
}

// show lists node ids of s, named by names when given.
func (l *linkList) show(doc *dom.Document, s *app.Stepper, ids []int, names []string) {
	labels := make([]string, len(ids))
	key := ""
	for k, id := range ids {
		labels[k] = s.Nodes()[id].Title() + " " + s.Nodes()[id].Shape.String()
		if names != nil {
			labels[k] = names[k] + " = " + labels[k]
		}
		key += strconv.Itoa(id) + "\x00" + labels[k] + "\x00"
	}
	if l.written && key == l.key {
		return
	}
	l.key, l.written = key, true
	if len(ids) == 0 {
		l.el.SetTextContent("none")
		l.shown, l.none = 0, true
		return
	}
	if l.none {
		l.el.Clear()
		l.none = false
	}
	for len(l.buttons) < len(ids) {
		l.buttons = append(l.buttons, doc.El("button", "type", "button", "class", "link"))
	}
	for ; l.shown > len(ids); l.shown-- {
		l.buttons[l.shown-1].Remove()
	}
	for ; l.shown < len(ids); l.shown++ {
		l.el.AppendChild(l.buttons[l.shown])
	}
	for k, id := range ids {
		l.w.Text(k, labels[k])
		l.w.Attr(k, "title", "Inspect "+labels[k])
		l.w.Attr(k, "data-inspect", strconv.Itoa(id))
	}
	doc.Write(l.el.Kids(), &l.w)
}

// ruleCard is the op's chain rule with the numbers of this step
// (#insp-rule): its rule, its terms, and each contribution its VJP made
// (or why it has made none).
type ruleCard struct {
	box          dom.Elem
	rule, why    text
	terms, lines items
	tail         []dom.Elem // what follows the terms, as last set
}

func newRuleCard(doc *dom.Document) ruleCard {
	var c ruleCard
	c.rule.el = doc.El("p", "class", "rule mono")
	c.terms.list = doc.El("ul", "class", "terms mono")
	c.why.el = doc.El("p", "class", "hint")
	c.lines.list = doc.El("ol", "class", "contribs", "id", "insp-contribs")
	c.box = dom.Add(doc.El("div", "class", "rule-card", "id", "insp-rule"), doc.Txt("h3", "chain rule"), c.rule.el, c.terms.list)
	return c
}

// show writes node i's card.
func (c *ruleCard) show(doc *dom.Document, s *app.Stepper, i int) {
	e := s.Explain(i)
	c.rule.set(e.Rule)
	c.terms.show(len(e.Terms), func() item {
		li := doc.El("li")
		return item{li: li, parts: []text{{el: li}}}
	})
	for k, t := range e.Terms {
		c.terms.all[k].parts[0].set(t.Name + " = " + t.Value)
	}
	if len(e.Contribs) == 0 {
		msg := "Its VJP has not run yet."
		switch st := s.State(i); {
		case st.Has(app.Skipped | app.Side):
			msg = "The single-output pass skips it: nothing it computes reaches the loss."
		case st.Has(app.Skipped):
			msg = "The backward pass skips it: it needs no gradient."
		}
		c.why.set(msg)
		c.setTail(c.why.el)
		return
	}
	c.lines.show(len(e.Contribs), func() item {
		clause, value := doc.El("div", "class", "mono"), doc.El("div", "class", "mono")
		grad, acc, rest := doc.TextNode(""), doc.El("span"), doc.TextNode("")
		line := dom.Add(doc.El("div", "class", "mono acc-line"), grad, acc, rest)
		return item{li: dom.Add(doc.El("li"), clause, value, line), parts: []text{{el: clause}, {el: value}, {el: grad}, {el: acc}, {el: rest}}}
	})
	for k, l := range e.Contribs {
		op, before := "=", ""
		if l.Accumulates {
			op, before = "+=", l.Before+" → "
		}
		p := c.lines.all[k].parts
		if l.Numbers == "" {
			p[0].set(l.Clause)
		} else {
			p[0].set(l.Clause + " = " + l.Numbers)
		}
		p[1].set("  = " + l.Value)
		p[2].set("grad #" + strconv.Itoa(l.Parent) + " ")
		p[3].setAcc(op)
		p[4].set(" " + l.Operand + "-contribution: " + before + l.After)
	}
	c.setTail(c.lines.list)
}

// setTail puts el after the terms, in place of what was there.
func (c *ruleCard) setTail(el dom.Elem) {
	if len(c.tail) == 1 && c.tail[0].Same(el) {
		return
	}
	if len(c.tail) == 1 {
		c.tail[0].Remove()
	}
	c.box.AppendChild(el)
	c.tail = []dom.Elem{el}
}
