//go:build js && wasm

package main

import (
	"honnef.co/go/js/dom/v2"
)

const svgNS = "http://www.w3.org/2000/svg"

// el returns a new element of tag with attributes given as name, value
// pairs ("class" included).
func el(doc dom.HTMLDocument, tag string, attrs ...string) dom.Element {
	e := doc.CreateElement(tag)
	setAttrs(e, attrs)
	return e
}

// svgEl returns a new SVG element of tag with attributes.
func svgEl(doc dom.HTMLDocument, tag string, attrs ...string) dom.Element {
	e := doc.CreateElementNS(svgNS, tag)
	setAttrs(e, attrs)
	return e
}

func setAttrs(e dom.Element, attrs []string) {
	for i := 0; i+1 < len(attrs); i += 2 {
		e.SetAttribute(attrs[i], attrs[i+1])
	}
}

// add appends children to parent and returns parent.
func add(parent dom.Element, children ...dom.Element) dom.Element {
	for _, c := range children {
		parent.AppendChild(c)
	}
	return parent
}

// button returns a <button type=button> that calls fn on click, through the
// page's panic-safe listener.
func (p *page) button(label, title string, fn func(), attrs ...string) dom.Element {
	b := el(p.doc, "button", append([]string{"type", "button"}, attrs...)...)
	b.SetTextContent(label)
	if title != "" {
		b.SetAttribute("title", title)
		b.SetAttribute("aria-label", title)
	}
	p.listen(b, "click", "button "+label, func(dom.Event) { fn() })
	return b
}

// setClass turns class name on or off on e.
func setClass(e dom.Element, name string, on bool) {
	if on {
		e.Class().Add(name)
	} else {
		e.Class().Remove(name)
	}
}

// clear removes every child of e.
func clearEl(e dom.Element) { e.SetInnerHTML("") }
