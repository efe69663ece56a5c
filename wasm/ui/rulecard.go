//go:build js && wasm

package ui

import (
	"strconv"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
)

// RuleCard is an op's chain rule with the numbers of this step
// (#insp-rule): its rule, its terms, and each contribution its VJP made
// (or why it has made none). Its parts are made once and kept.
type RuleCard struct {
	Box          dom.Elem // the card
	rule, why    Text
	terms, lines Items
	tail         []dom.Elem // what follows the terms, as last set
}

// NewRuleCard makes an empty card.
func NewRuleCard(doc *dom.Document) RuleCard {
	var c RuleCard
	c.rule.El = doc.El("p", "class", "rule mono")
	c.terms.List = doc.El("ul", "class", "terms mono")
	c.why.El = doc.El("p", "class", "hint")
	c.lines.List = doc.El("ol", "class", "contribs", "id", "insp-contribs")
	c.Box = dom.Add(doc.El("div", "class", "rule-card", "id", "insp-rule"), doc.Txt("h3", "chain rule"), c.rule.El, c.terms.List)
	return c
}

// Show writes node i's card, as s stands.
func (c *RuleCard) Show(doc *dom.Document, s *app.Stepper, i int) {
	e := s.Explain(i)
	c.rule.Set(e.Rule)
	c.terms.Show(len(e.Terms), func() Item {
		li := doc.El("li")
		return Item{Li: li, Parts: []Text{{El: li}}}
	})
	for k, t := range e.Terms {
		c.terms.All[k].Parts[0].Set(t.Name + " = " + t.Value)
	}
	if len(e.Contribs) == 0 {
		msg := "Its VJP has not run yet."
		switch st := s.State(i); {
		case st.Has(app.Skipped | app.Side):
			msg = "The single-output pass skips it: nothing it computes reaches the loss."
		case st.Has(app.Skipped):
			msg = "The backward pass skips it: it needs no gradient."
		}
		c.why.Set(msg)
		c.setTail(c.why.El)
		return
	}
	c.lines.Show(len(e.Contribs), func() Item {
		clause, value := doc.El("div", "class", "mono"), doc.El("div", "class", "mono")
		grad, acc, rest := doc.TextNode(""), doc.El("span"), doc.TextNode("")
		line := dom.Add(doc.El("div", "class", "mono acc-line"), grad, acc, rest)
		return Item{Li: dom.Add(doc.El("li"), clause, value, line), Parts: []Text{{El: clause}, {El: value}, {El: grad}, {El: acc}, {El: rest}}}
	})
	for k, l := range e.Contribs {
		op, before := "=", ""
		if l.Accumulates {
			op, before = "+=", l.Before+" → "
		}
		p := c.lines.All[k].Parts
		if l.Numbers == "" {
			p[0].Set(l.Clause)
		} else {
			p[0].Set(l.Clause + " = " + l.Numbers)
		}
		p[1].Set("  = " + l.Value)
		p[2].Set("grad #" + strconv.Itoa(l.Parent) + " ")
		p[3].SetAcc(op)
		p[4].Set(" " + l.Operand + "-contribution: " + before + l.After)
	}
	c.setTail(c.lines.List)
}

// setTail puts el after the terms, in place of what was there.
func (c *RuleCard) setTail(el dom.Elem) {
	if len(c.tail) == 1 && c.tail[0].Same(el) {
		return
	}
	if len(c.tail) == 1 {
		c.tail[0].Remove()
	}
	c.Box.AppendChild(el)
	c.tail = []dom.Elem{el}
}
