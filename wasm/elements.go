//go:build js && wasm

package main

import (
	"syscall/js"
)

// The views talk to the DOM through the small handles below, written on
// syscall/js. honnef.co/go/js/dom/v2 wraps every element it returns with a
// type switch over all HTML element types, which links every one of them
// and their methods into the binary: about 150 KB of the brotli'd wasm,
// which the 1 MB budget does not have room for.

const svgNS = "http://www.w3.org/2000/svg"

// document creates and finds elements.
type document struct {
	v js.Value
	// names holds tag and attribute names as JavaScript strings, made
	// once: each string passed to JavaScript otherwise becomes a new value
	// with a finalizer, and drawing a tape sets thousands of attributes.
	names map[string]js.Value
}

// newDocument returns the page's document.
func newDocument() document {
	return document{v: js.Global().Get("document"), names: map[string]js.Value{}}
}

// name returns s as a JavaScript string, made once per name.
func (d document) name(s string) js.Value {
	v, ok := d.names[s]
	if !ok {
		v = js.ValueOf(s)
		d.names[s] = v
	}
	return v
}

// elem is an element handle; the zero elem (or one holding null) is "none".
type elem struct{ v js.Value }

// event is a DOM event.
type event struct{ v js.Value }

// ok reports whether e refers to an element.
func (e elem) ok() bool { return e.v.Truthy() }

// CreateElement returns a new element of tag.
func (d document) CreateElement(tag string) elem { return elem{d.v.Call("createElement", tag)} }

// CreateElementNS returns a new element of tag in namespace ns.
func (d document) CreateElementNS(ns, tag string) elem {
	return elem{d.v.Call("createElementNS", ns, tag)}
}

// CreateTextNode returns a text node holding s.
func (d document) CreateTextNode(s string) elem { return elem{d.v.Call("createTextNode", s)} }

// GetElementByID finds an element by id (none when absent).
func (d document) GetElementByID(id string) elem { return elem{d.v.Call("getElementById", id)} }

// ActiveElement returns the focused element.
func (d document) ActiveElement() elem { return elem{d.v.Get("activeElement")} }

// Underlying returns the document's js.Value.
func (d document) Underlying() js.Value { return d.v }

// Underlying returns the element's js.Value.
func (e elem) Underlying() js.Value { return e.v }

// SetAttribute sets an attribute.
func (e elem) SetAttribute(k, v string) { e.v.Call("setAttribute", k, v) }

// GetAttribute returns an attribute ("" when absent).
func (e elem) GetAttribute(k string) string {
	a := e.v.Call("getAttribute", k)
	if a.IsNull() {
		return ""
	}
	return a.String()
}

// RemoveAttribute removes an attribute.
func (e elem) RemoveAttribute(k string) { e.v.Call("removeAttribute", k) }

// HasAttribute reports whether the attribute is set.
func (e elem) HasAttribute(k string) bool { return e.v.Call("hasAttribute", k).Bool() }

// SetTextContent replaces the content by text.
func (e elem) SetTextContent(s string) { e.v.Set("textContent", s) }

// TextContent returns the text content.
func (e elem) TextContent() string { return e.v.Get("textContent").String() }

// SetInnerHTML replaces the content by markup (only ever constant markup).
func (e elem) SetInnerHTML(s string) { e.v.Set("innerHTML", s) }

// AppendChild appends c.
func (e elem) AppendChild(c elem) { e.v.Call("appendChild", c.v) }

// SetID sets the id.
func (e elem) SetID(id string) { e.v.Set("id", id) }

// ID returns the id.
func (e elem) ID() string { return e.v.Get("id").String() }

// Focus focuses the element.
func (e elem) Focus() { e.v.Call("focus") }

// Value returns an input's or select's value.
func (e elem) Value() string { return e.v.Get("value").String() }

// SetValue sets an input's or select's value.
func (e elem) SetValue(s string) { e.v.Set("value", s) }

// Checked reports whether a checkbox is checked.
func (e elem) Checked() bool { return e.v.Get("checked").Bool() }

// SetChecked checks or unchecks a checkbox.
func (e elem) SetChecked(b bool) { e.v.Set("checked", b) }

// QuerySelector returns the first descendant matching sel (none when absent).
func (e elem) QuerySelector(sel string) elem { return elem{e.v.Call("querySelector", sel)} }

// Class returns the element's class list.
func (e elem) Class() classList { return classList{e.v.Get("classList")} }

// rect is a bounding box in CSS pixels.
type rect struct{ v js.Value }

// GetBoundingClientRect returns the element's box.
func (e elem) GetBoundingClientRect() rect { return rect{e.v.Call("getBoundingClientRect")} }

// Width of the box.
func (r rect) Width() float64 { return r.v.Get("width").Float() }

// Height of the box.
func (r rect) Height() float64 { return r.v.Get("height").Float() }

// Left edge of the box.
func (r rect) Left() float64 { return r.v.Get("left").Float() }

// Top edge of the box.
func (r rect) Top() float64 { return r.v.Get("top").Float() }

// classList is an element's classes.
type classList struct{ v js.Value }

// Add adds a class.
func (c classList) Add(name string) { c.v.Call("add", name) }

// Remove removes a class.
func (c classList) Remove(name string) { c.v.Call("remove", name) }

// Underlying returns the event's js.Value.
func (ev event) Underlying() js.Value { return ev.v }

// PreventDefault cancels the default action.
func (ev event) PreventDefault() { ev.v.Call("preventDefault") }

// Target returns the element the event was dispatched to.
func (ev event) Target() js.Value { return ev.v.Get("target") }

// target is anything that can receive event listeners.
type target interface{ Underlying() js.Value }

// listen adds a listener to t that survives panics: a panic in fn is shown
// in the page (and its stack logged) instead of stopping the Go program.
// Every listener of the playground is added through it.
func (pv *playground) listen(t target, name, what string, fn func(event)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		recovered(what, pv.p.showError, func() { fn(event{args[0]}) })
		return nil
	})
	t.Underlying().Call("addEventListener", name, f)
}

// el returns a new element of tag with attributes given as name, value
// pairs ("class" included).
func el(doc document, tag string, attrs ...string) elem {
	e := elem{doc.v.Call("createElement", doc.name(tag))}
	setAttrs(doc, e, attrs)
	return e
}

// svgEl returns a new SVG element of tag with attributes.
func svgEl(doc document, tag string, attrs ...string) elem {
	e := elem{doc.v.Call("createElementNS", doc.name(svgNS), doc.name(tag))}
	setAttrs(doc, e, attrs)
	return e
}

func setAttrs(doc document, e elem, attrs []string) {
	for i := 0; i+1 < len(attrs); i += 2 {
		e.v.Call("setAttribute", doc.name(attrs[i]), attrs[i+1])
	}
}

// add appends children to parent and returns parent.
func add(parent elem, children ...elem) elem {
	for _, c := range children {
		parent.AppendChild(c)
	}
	return parent
}

// button returns a <button type=button> that calls fn on click, through the
// panic-safe listener.
func (pv *playground) button(label, title string, fn func(), attrs ...string) elem {
	b := el(pv.doc, "button", append([]string{"type", "button"}, attrs...)...)
	b.SetTextContent(label)
	if title != "" {
		b.SetAttribute("title", title)
		b.SetAttribute("aria-label", title)
	}
	pv.listen(b, "click", "button "+label, func(event) { fn() })
	return b
}

// clearEl removes every child of e.
func clearEl(e elem) { e.SetInnerHTML("") }

// textEl returns a new element holding s.
func textEl(doc document, tag, class, s string) elem {
	e := el(doc, tag, "class", class)
	e.SetTextContent(s)
	return e
}

// SetStyle sets one CSS property through the CSSOM. The page's
// Content-Security-Policy (style-src 'self') ignores style attributes, but
// not properties set from script.
func (e elem) SetStyle(prop, value string) { e.v.Get("style").Call("setProperty", prop, value) }
