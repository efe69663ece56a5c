//go:build js && wasm

package dom

import (
	"syscall/js"

	"honnef.co/go/js/dom/v2"
)

// Elem is an element of the page: dom/v2's HTML element, whose methods
// read and write its attributes, text, classes, style, focus and place in
// the tree. The zero Elem (or one made from null) is "none".
//
// An Elem is made by wrap, not by dom/v2's WrapHTMLElement: dom/v2 picks
// the concrete type of every element it returns by comparing the element's
// constructor with those of about 70 HTML element types, one call into
// JavaScript each (BenchmarkWrap under node: 75 µs an element, against
// 0.2 µs for wrap; the tape draws thousands), and linking that
// switch links every element type and its methods into the page (about
// 91 KB of the brotli'd wasm). So the page never calls a dom/v2 function
// that returns an element (CreateElement, QuerySelector, ParentElement,
// GetElementByID, an event's Target): those few are written here on
// syscall/js, as are the calls dom/v2 has no method for (append, prepend,
// after, before, replaceChildren, replaceWith, closest, scrollIntoView
// with options, the scroll position).
//
// Nor does the page pass an element to a dom/v2 function that takes its
// Node or Element interface (AppendChild, Contains, GetComputedStyle):
// converting the element to that interface links the interface's whole
// method table (35 more dom/v2 methods) and, through the Event its
// methods take and an event's TimeStamp, time's formatting (57 functions,
// 75 KB of code). Measured with those three calls made through dom/v2:
// 18,086 B more of the brotli'd page. AppendChild, Contains and Style call JavaScript directly instead;
// TestPageLinksNoDomInterface (rooms_test.go) keeps it so.
type Elem struct{ h *dom.BasicHTMLElement }

// handle holds dom/v2's three levels of an HTML element in one allocation.
type handle struct {
	html dom.BasicHTMLElement
	el   dom.BasicElement
	node dom.BasicNode
}

// wrap returns v as an Elem (none for null or undefined).
func wrap(v js.Value) Elem {
	if v.IsNull() || v.IsUndefined() {
		return Elem{}
	}
	h := &handle{node: dom.BasicNode{Value: v}}
	h.el.BasicNode = &h.node
	h.html.BasicElement = &h.el
	return Elem{&h.html}
}

// Wrap returns the element (or element-like object) v as an Elem, for
// code that holds a js.Value: tests, with an object standing in for an
// element.
func Wrap(v js.Value) Elem { return wrap(v) }

// js returns e's JavaScript object (undefined for none).
func (e Elem) js() js.Value {
	if e.h == nil {
		return js.Undefined()
	}
	return e.h.Value
}

func (e Elem) jsValue() js.Value { return e.js() }

// OK reports whether e refers to an element.
func (e Elem) OK() bool { return e.h != nil && e.h.Value.Truthy() }

// input is e as dom/v2's input element (its value, checked state and
// selection).
func (e Elem) input() *dom.HTMLInputElement { return &dom.HTMLInputElement{BasicHTMLElement: e.h} }

// SetAttribute sets an attribute.
func (e Elem) SetAttribute(k, v string) { e.h.SetAttribute(k, v) }

// GetAttribute returns an attribute ("" when absent).
func (e Elem) GetAttribute(k string) string { return e.h.GetAttribute(k) }

// RemoveAttribute removes an attribute.
func (e Elem) RemoveAttribute(k string) { e.h.RemoveAttribute(k) }

// HasAttribute reports whether the attribute is set.
func (e Elem) HasAttribute(k string) bool { return e.h.HasAttribute(k) }

// SetTextContent replaces the content by text.
func (e Elem) SetTextContent(s string) { e.h.SetTextContent(s) }

// TextContent returns the text content.
func (e Elem) TextContent() string { return e.h.TextContent() }

// SetInnerHTML replaces the content by markup (only ever constant markup).
func (e Elem) SetInnerHTML(s string) { e.h.SetInnerHTML(s) }

// AppendChild appends c.
func (e Elem) AppendChild(c Elem) {
	if c.h == nil { // fail as the DOM does, with its message
		e.js().Call("appendChild", js.Null())
	}
	e.js().Call("appendChild", c.js())
}

// Prepend inserts c as the first child.
func (e Elem) Prepend(c Elem) { e.js().Call("prepend", c.js()) }

// After inserts c after e.
func (e Elem) After(c Elem) { e.js().Call("after", c.js()) }

// Before inserts c just before e, in e's parent.
func (e Elem) Before(c Elem) { e.js().Call("before", c.js()) }

// Children returns e's child elements, in order.
func (e Elem) Children() []Elem {
	kids := e.js().Get("children")
	n := kids.Length()
	out := make([]Elem, n)
	for i := range out {
		out[i] = wrap(kids.Index(i))
	}
	return out
}

// Parent returns the element holding e (none when it has no parent element).
func (e Elem) Parent() Elem { return wrap(e.js().Get("parentElement")) }

// Remove takes e out of the document.
func (e Elem) Remove() { e.h.Remove() }

// SetID sets the id.
func (e Elem) SetID(id string) { e.h.SetID(id) }

// ID returns the id.
func (e Elem) ID() string { return e.h.ID() }

// Focus focuses the element.
func (e Elem) Focus() { e.h.Focus() }

// Click clicks the element.
func (e Elem) Click() { e.h.Click() }

// Select selects an input's text.
func (e Elem) Select() { e.input().Select() }

// ScrollIntoView scrolls the least needed to show the element.
func (e Elem) ScrollIntoView() { e.js().Call("scrollIntoView", map[string]any{"block": "nearest"}) }

// Value returns an input's or select's value.
func (e Elem) Value() string { return e.input().Value() }

// SetValue sets an input's or select's value.
func (e Elem) SetValue(s string) { e.input().SetValue(s) }

// Checked reports whether a checkbox is checked.
func (e Elem) Checked() bool { return e.input().Checked() }

// SetChecked checks or unchecks a checkbox.
func (e Elem) SetChecked(b bool) { e.input().SetChecked(b) }

// QuerySelector returns the first descendant matching sel (none when absent).
func (e Elem) QuerySelector(sel string) Elem { return wrap(e.js().Call("querySelector", sel)) }

// Closest returns e or its nearest ancestor matching sel (none when absent).
func (e Elem) Closest(sel string) Elem {
	if !e.OK() || e.js().Get("closest").IsUndefined() {
		return Elem{}
	}
	return wrap(e.js().Call("closest", sel))
}

// Contains reports whether c is e or inside it.
func (e Elem) Contains(c Elem) bool {
	return e.OK() && c.OK() && e.js().Call("contains", c.js()).Bool()
}

// TagName returns the element's tag in upper case ("" for none).
func (e Elem) TagName() string {
	if !e.OK() || e.h.Get("tagName").IsUndefined() {
		return ""
	}
	return e.h.TagName()
}

// AddClass adds class c.
func (e Elem) AddClass(c string) { e.h.Class().Add(c) }

// RemoveClass removes class c.
func (e Elem) RemoveClass(c string) { e.h.Class().Remove(c) }

// ToggleClass turns class c on or off.
func (e Elem) ToggleClass(c string, on bool) {
	if !e.OK() {
		return
	}
	if on {
		e.AddClass(c)
	} else {
		e.RemoveClass(c)
	}
}

// HasClass reports whether the element has class c.
func (e Elem) HasClass(c string) bool { return e.h.Class().Contains(c) }

// SetStyle sets one CSS property through the CSSOM. The page's
// Content-Security-Policy (style-src 'self') ignores style attributes, but
// not properties set from script.
func (e Elem) SetStyle(prop, value string) { e.h.Style().SetProperty(prop, value, "") }

// Style returns the computed value of a CSS property (a custom property
// included), trimmed.
func (e Elem) Style(prop string) string {
	s := js.Global().Call("getComputedStyle", e.js()).Call("getPropertyValue", prop).String()
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// Rect is a bounding box in CSS pixels.
type Rect struct{ Left, Top, Width, Height float64 }

// Rect returns the element's box.
func (e Elem) Rect() Rect {
	r := e.h.GetBoundingClientRect()
	return Rect{r.Left(), r.Top(), r.Width(), r.Height()}
}

// Scroll returns how far e's content is scrolled, in CSS pixels.
func (e Elem) Scroll() (top, left float64) {
	return e.js().Get("scrollTop").Float(), e.js().Get("scrollLeft").Float()
}

// SetScroll scrolls e's content to top and left, in CSS pixels.
func (e Elem) SetScroll(top, left float64) {
	e.js().Set("scrollTop", top)
	e.js().Set("scrollLeft", left)
}

// Show sets or clears the hidden attribute.
func (e Elem) Show(on bool) {
	if !e.OK() {
		return
	}
	if on {
		e.RemoveAttribute("hidden")
	} else {
		e.SetAttribute("hidden", "")
	}
}

// SetDisabled sets or clears the disabled attribute.
func (e Elem) SetDisabled(off bool) {
	if off {
		e.SetAttribute("disabled", "")
	} else {
		e.RemoveAttribute("disabled")
	}
}

// SetChildren makes cs, in order, e's only children, in one call: those
// already in e are moved, not made again.
func (e Elem) SetChildren(cs ...Elem) {
	args := make([]any, len(cs))
	for k, c := range cs {
		args[k] = c.js()
	}
	e.js().Call("replaceChildren", args...)
}

// Same reports whether e and o are the same element (no call into
// JavaScript: a JavaScript object keeps its reference).
func (e Elem) Same(o Elem) bool { return e.js().Equal(o.js()) }

// Clear removes every child.
func (e Elem) Clear() { e.SetInnerHTML("") }

// Add appends children to parent, in one call into JavaScript, and
// returns parent.
func Add(parent Elem, children ...Elem) Elem {
	args := make([]any, len(children))
	for k, c := range children {
		if !c.OK() { // append would add the text "null": fail as appendChild does
			parent.AppendChild(c)
		}
		args[k] = c.js()
	}
	if len(args) > 0 {
		parent.js().Call("append", args...)
	}
	return parent
}
