//go:build js && wasm

package main

import (
	"strings"
	"syscall/js"
)

// The views talk to the DOM through the small handles below: a document
// that makes elements and listeners, elements, and events. They are the
// page's one DOM idiom; everything else that needs JavaScript (canvas
// drawing, the clipboard, fetch, timers, the location) is in bridge.go.
//
// They are written on syscall/js rather than honnef.co/go/js/dom/v2:
// dom/v2 wraps every element it returns with a type switch over all HTML
// element types, which links all of them and their methods into the
// binary. Linking it costs about 91 KB of the brotli'd wasm (measured with
// bench/cmd/wasmsize: 1,225,143 bytes with it, 1,134,363 without).

const svgNS = "http://www.w3.org/2000/svg"

// document creates and finds elements and adds listeners that survive
// panics.
type document struct {
	v js.Value
	// names holds tag and attribute names as JavaScript strings, made
	// once: each string passed to JavaScript otherwise becomes a new value
	// with a finalizer, and drawing a tape sets thousands of attributes.
	names map[string]js.Value
	// report shows an error in the page (the listeners' panics).
	report func(string)
	// maker is the loader's tapelabElement (static/loader.js), which
	// makes an element with its attributes and text in one call; where it
	// is missing, elements are made a call per attribute.
	maker js.Value
	// writer is the loader's tapelabWrite, which applies a list of writes
	// in one call (see writes).
	writer js.Value
}

// newDocument returns the page's document; report shows a listener's
// panic in the page.
func newDocument(report func(string)) *document {
	return &document{v: js.Global().Get("document"), names: map[string]js.Value{}, report: report,
		maker: js.Global().Get("tapelabElement"), writer: js.Global().Get("tapelabWrite")}
}

// name returns s as a JavaScript string, made once per name.
func (d *document) name(s string) js.Value {
	v, ok := d.names[s]
	if !ok {
		v = js.ValueOf(s)
		d.names[s] = v
	}
	return v
}

// el returns a new element of tag with attributes given as name, value
// pairs ("class" included).
func (d *document) el(tag string, attrs ...string) elem {
	return d.newElem(false, tag, "", false, attrs)
}

// svg returns a new SVG element of tag with attributes.
func (d *document) svg(tag string, attrs ...string) elem {
	return d.newElem(true, tag, "", false, attrs)
}

// txt returns a new element of tag holding the text s, with attributes.
func (d *document) txt(tag, s string, attrs ...string) elem {
	return d.newElem(false, tag, s, true, attrs)
}

// newElem returns a new element of tag (in the SVG namespace when svg) with
// the attributes attrs (name, value pairs) and, when hasText, the text
// text. With the loader's tapelabElement that is two calls into
// JavaScript (the packed string, then the call), whatever the number of
// attributes; without it, or when a string holds the NUL that packing
// separates them by, one call makes the element and two more set each
// attribute (each value becomes a JavaScript string first).
func (d *document) newElem(svg bool, tag, text string, hasText bool, attrs []string) elem {
	if (len(attrs) >= 2 || hasText) && d.maker.Type() == js.TypeFunction && !hasNUL(text, attrs) {
		n := len(text)
		for _, a := range attrs {
			n += len(a) + 1
		}
		var b strings.Builder
		b.Grow(n)
		b.WriteString(text)
		for _, a := range attrs {
			b.WriteByte(0)
			b.WriteString(a)
		}
		return elem{d.maker.Invoke(d.name(tag), b.String(), svg, hasText)}
	}
	var e elem
	if svg {
		e = elem{d.v.Call("createElementNS", d.name(svgNS), d.name(tag))}
	} else {
		e = elem{d.v.Call("createElement", d.name(tag))}
	}
	for i := 0; i+1 < len(attrs); i += 2 {
		e.v.Call("setAttribute", d.name(attrs[i]), attrs[i+1])
	}
	if hasText {
		e.SetTextContent(text)
	}
	return e
}

// hasNUL reports whether text or an attribute holds a NUL byte.
func hasNUL(text string, attrs []string) bool {
	if strings.IndexByte(text, 0) >= 0 {
		return true
	}
	for _, a := range attrs {
		if strings.IndexByte(a, 0) >= 0 {
			return true
		}
	}
	return false
}

// html is constant markup: a view's static skeleton. No string converts
// to it implicitly, only an untyped constant does, so user text cannot
// reach markup by accident: it goes into the skeleton's elements as text
// (SetTextContent, textNode).
type html string

// build returns the element that the constant markup h describes, built
// through a <template> (whose content is inert: nothing in it loads or
// runs). h holds one element and may be indented over lines: a line break
// and the indentation after it vanish between two tags and are one space
// elsewhere. A <slot name=…> in h marks where the view puts an element it
// builds itself (fill).
func (d *document) build(h html) elem {
	t := d.v.Call("createElement", d.name("template"))
	t.Set("innerHTML", dropIndent(string(h)))
	return elem{t.Get("content").Get("firstElementChild")}
}

// dropIndent removes each line break and the indentation after it, leaving
// one space unless it lies between a '>' and a '<'.
func dropIndent(s string) string {
	var b strings.Builder
	for {
		i := strings.IndexByte(s, '\n')
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		b.WriteString(s[:i])
		after := i > 0 && s[i-1] == '>'
		s = strings.TrimLeft(s[i+1:], " \t")
		if b.Len() > 0 && s != "" && !(after && s[0] == '<') {
			b.WriteByte(' ')
		}
	}
}

// part is an element of a skeleton, found by a CSS selector, and where
// the view keeps it.
type part struct {
	sel string
	to  *elem
}

// parts finds each part inside e. A part missing from the skeleton is a
// mistake in the view's code: it panics, naming the selector.
func (e elem) parts(ps ...part) {
	for _, p := range ps {
		*p.to = e.QuerySelector(p.sel)
		if !p.to.ok() {
			panic("skeleton without " + p.sel)
		}
	}
}

// fill puts c in place of the <slot name=name> inside e.
func (e elem) fill(name string, c elem) {
	e.QuerySelector(`slot[name="`+name+`"]`).v.Call("replaceWith", c.v)
}

// onClick calls fn when b is clicked, through the panic-safe listener.
func (d *document) onClick(b elem, fn func()) {
	d.listen(b, "click", "button "+b.TextContent(), func(event) { fn() })
}

// textNode returns a text node holding s.
func (d *document) textNode(s string) elem { return elem{d.v.Call("createTextNode", s)} }

// button returns a <button type=button> that calls fn on click, through
// the panic-safe listener. title is its tooltip; a label without words (an
// arrow, a sign) also gets it as its accessible name.
func (d *document) button(label, title string, fn func(), attrs ...string) elem {
	all := make([]string, 0, len(attrs)+6)
	all = append(append(all, "type", "button"), attrs...)
	if title != "" {
		all = append(all, "title", title)
		if !hasLetter(label) {
			all = append(all, "aria-label", title)
		}
	}
	b := d.txt("button", label, all...)
	d.listen(b, "click", "button "+label, func(event) { fn() })
	return b
}

func hasLetter(s string) bool {
	for _, r := range s {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// labelled wraps control in a <label> with caption text before it.
func (d *document) labelled(caption string, control elem, attrs ...string) elem {
	return add(d.el("label", attrs...), d.txt("span", caption, "class", "cap"), control)
}

// options fills the <select> s with the given values and labels (label ""
// means the value itself), value chosen, and returns s.
func (d *document) options(s elem, values, labels []string, value string) elem {
	for i, v := range values {
		l := v
		if i < len(labels) && labels[i] != "" {
			l = labels[i]
		}
		s.AppendChild(d.txt("option", l, "value", v))
	}
	s.SetValue(value)
	return s
}

// target is anything that can receive event listeners.
type target interface{ jsValue() js.Value }

// listen adds a listener to t that survives panics: a panic in fn is shown
// in the page (and its stack logged) instead of stopping the Go program.
// Every listener of the page is added through it; it lives as long as the
// page.
func (d *document) listen(t target, name, what string, fn func(event)) {
	d.listenOpt(t, name, what, false, fn)
}

// listenFirst is listen in the capture phase: fn runs before the
// listeners of the elements inside t.
func (d *document) listenFirst(t target, name, what string, fn func(event)) {
	d.listenOpt(t, name, what, true, fn)
}

func (d *document) listenOpt(t target, name, what string, capture bool, fn func(event)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		recovered(what, d.report, func() { fn(event{args[0]}) })
		return nil
	})
	t.jsValue().Call("addEventListener", name, f, capture)
}

func (d *document) jsValue() js.Value { return d.v }

// byID finds an element by id (none when absent).
func (d *document) byID(id string) elem { return elem{d.v.Call("getElementById", id)} }

// active returns the focused element.
func (d *document) active() elem { return elem{d.v.Get("activeElement")} }

// root returns the <html> element.
func (d *document) root() elem { return elem{d.v.Get("documentElement")} }

// body returns the <body> element.
func (d *document) body() elem { return elem{d.v.Get("body")} }

// elem is an element handle; the zero elem (or one holding null) is "none".
type elem struct{ v js.Value }

func (e elem) jsValue() js.Value { return e.v }

// ok reports whether e refers to an element.
func (e elem) ok() bool { return e.v.Truthy() }

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

// Prepend inserts c as the first child.
func (e elem) Prepend(c elem) { e.v.Call("prepend", c.v) }

// After inserts c after e.
func (e elem) After(c elem) { e.v.Call("after", c.v) }

// Children returns e's child elements, in order.
func (e elem) Children() []elem {
	c := e.v.Get("children")
	out := make([]elem, c.Length())
	for i := range out {
		out[i] = elem{c.Index(i)}
	}
	return out
}

// Before inserts c just before e, in e's parent.
func (e elem) Before(c elem) { e.v.Call("before", c.v) }

// Parent returns the element holding e (none when it has no parent element).
func (e elem) Parent() elem { return elem{e.v.Get("parentElement")} }

// Remove takes e out of the document.
func (e elem) Remove() { e.v.Call("remove") }

// SetID sets the id.
func (e elem) SetID(id string) { e.v.Set("id", id) }

// ID returns the id.
func (e elem) ID() string { return e.v.Get("id").String() }

// Focus focuses the element.
func (e elem) Focus() { e.v.Call("focus") }

// Click clicks the element.
func (e elem) Click() { e.v.Call("click") }

// Select selects an input's text.
func (e elem) Select() { e.v.Call("select") }

// ScrollIntoView scrolls the least needed to show the element.
func (e elem) ScrollIntoView() { e.v.Call("scrollIntoView", map[string]any{"block": "nearest"}) }

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

// Closest returns e or its nearest ancestor matching sel (none when absent).
func (e elem) Closest(sel string) elem {
	if !e.ok() || e.v.Get("closest").IsUndefined() {
		return elem{}
	}
	return elem{e.v.Call("closest", sel)}
}

// Contains reports whether c is e or inside it.
func (e elem) Contains(c elem) bool { return e.ok() && c.ok() && e.v.Call("contains", c.v).Bool() }

// TagName returns the element's tag in upper case ("" for none).
func (e elem) TagName() string {
	if !e.ok() {
		return ""
	}
	t := e.v.Get("tagName")
	if t.IsUndefined() {
		return ""
	}
	return t.String()
}

// AddClass and RemoveClass change the element's class list.
func (e elem) AddClass(name string) { e.v.Get("classList").Call("add", name) }

// RemoveClass removes a class.
func (e elem) RemoveClass(name string) { e.v.Get("classList").Call("remove", name) }

// ToggleClass turns class c on or off.
func (e elem) ToggleClass(c string, on bool) {
	if e.ok() {
		e.v.Get("classList").Call("toggle", c, on)
	}
}

// HasClass reports whether the element has class c.
func (e elem) HasClass(c string) bool { return e.v.Get("classList").Call("contains", c).Bool() }

// SetStyle sets one CSS property through the CSSOM. The page's
// Content-Security-Policy (style-src 'self') ignores style attributes, but
// not properties set from script.
func (e elem) SetStyle(prop, value string) { e.v.Get("style").Call("setProperty", prop, value) }

// Style returns the computed value of a CSS property (a custom property
// included), trimmed.
func (e elem) Style(prop string) string {
	s := js.Global().Call("getComputedStyle", e.v).Call("getPropertyValue", prop).String()
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// rect is a bounding box in CSS pixels.
type rect struct{ Left, Top, Width, Height float64 }

// Rect returns the element's box.
func (e elem) Rect() rect {
	r := e.v.Call("getBoundingClientRect")
	return rect{r.Get("left").Float(), r.Get("top").Float(), r.Get("width").Float(), r.Get("height").Float()}
}

// show sets or clears the hidden attribute.
func (e elem) show(on bool) {
	if !e.ok() {
		return
	}
	if on {
		e.RemoveAttribute("hidden")
	} else {
		e.SetAttribute("hidden", "")
	}
}

// setDisabled sets or clears the disabled attribute.
func (e elem) setDisabled(off bool) {
	if off {
		e.SetAttribute("disabled", "")
	} else {
		e.RemoveAttribute("disabled")
	}
}

// setChildren makes cs, in order, e's only children, in one call: those
// already in e are moved, not made again.
func (e elem) setChildren(cs ...elem) {
	args := make([]any, len(cs))
	for k, c := range cs {
		args[k] = c.v
	}
	e.v.Call("replaceChildren", args...)
}

// same reports whether e and o are the same element (no call into
// JavaScript: a JavaScript object keeps its reference).
func (e elem) same(o elem) bool { return e.v.Equal(o.v) }

// clear removes every child.
func (e elem) clear() { e.SetInnerHTML("") }

// add appends children to parent, in one call into JavaScript, and
// returns parent.
func add(parent elem, children ...elem) elem {
	args := make([]any, len(children))
	for k, c := range children {
		if !c.ok() { // append would add the text "null": fail as appendChild does
			parent.AppendChild(c)
		}
		args[k] = c.v
	}
	if len(args) > 0 {
		parent.v.Call("append", args...)
	}
	return parent
}

// event is a DOM event.
type event struct{ v js.Value }

// PreventDefault cancels the default action.
func (ev event) PreventDefault() { ev.v.Call("preventDefault") }

// StopImmediatePropagation keeps the event from every further listener.
func (ev event) StopImmediatePropagation() { ev.v.Call("stopImmediatePropagation") }

// Target returns the element the event was dispatched to.
func (ev event) Target() elem { return elem{ev.v.Get("target")} }

// Key returns a keyboard event's key.
func (ev event) Key() string { return ev.v.Get("key").String() }

// Mod reports whether a modifier key is held: "ctrlKey", "metaKey",
// "altKey" or "shiftKey".
func (ev event) Mod(name string) bool { return ev.v.Get(name).Bool() }

// Client returns a pointer event's position in the viewport.
func (ev event) Client() (x, y float64) {
	return ev.v.Get("clientX").Float(), ev.v.Get("clientY").Float()
}

// Button returns the pointer button that changed (0: the main one).
func (ev event) Button() int { return ev.v.Get("button").Int() }

// DeltaY returns a wheel event's vertical delta in pixels (deltas in lines
// count 16 pixels a line, in pages 400 a page).
func (ev event) DeltaY() float64 {
	d := ev.v.Get("deltaY").Float()
	switch ev.v.Get("deltaMode").Int() {
	case 1:
		d *= 16
	case 2:
		d *= 400
	}
	return d
}

// PointerID returns a pointer event's pointer: a mouse, a pen, or one
// finger from touching the screen until it lifts.
func (ev event) PointerID() int { return ev.v.Get("pointerId").Int() }

// PointerType returns a pointer event's device: "mouse", "pen" or "touch".
func (ev event) PointerType() string { return ev.v.Get("pointerType").String() }
