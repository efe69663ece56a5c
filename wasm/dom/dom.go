//go:build js && wasm

package dom

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

// Document creates and finds elements and adds listeners that survive
// panics.
type Document struct {
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

// NewDocument returns the page's document; report shows a listener's
// panic in the page.
func NewDocument(report func(string)) *Document {
	return &Document{v: js.Global().Get("document"), names: map[string]js.Value{}, report: report,
		maker: js.Global().Get("tapelabElement"), writer: js.Global().Get("tapelabWrite")}
}

// name returns s as a JavaScript string, made once per name.
func (d *Document) name(s string) js.Value {
	v, ok := d.names[s]
	if !ok {
		v = js.ValueOf(s)
		d.names[s] = v
	}
	return v
}

// El returns a new element of tag with attributes given as name, value
// pairs ("class" included).
func (d *Document) El(tag string, attrs ...string) Elem {
	return d.newElem(false, tag, "", false, attrs)
}

// SVG returns a new SVG element of tag with attributes.
func (d *Document) SVG(tag string, attrs ...string) Elem {
	return d.newElem(true, tag, "", false, attrs)
}

// Txt returns a new element of tag holding the text s, with attributes.
func (d *Document) Txt(tag, s string, attrs ...string) Elem {
	return d.newElem(false, tag, s, true, attrs)
}

// newElem returns a new element of tag (in the SVG namespace when svg) with
// the attributes attrs (name, value pairs) and, when hasText, the text
// text. With the loader's tapelabElement that is two calls into
// JavaScript (the packed string, then the call), whatever the number of
// attributes; without it, or when a string holds the NUL that packing
// separates them by, one call makes the element and two more set each
// attribute (each value becomes a JavaScript string first).
func (d *Document) newElem(svg bool, tag, text string, hasText bool, attrs []string) Elem {
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
		return Elem{d.maker.Invoke(d.name(tag), b.String(), svg, hasText)}
	}
	var e Elem
	if svg {
		e = Elem{d.v.Call("createElementNS", d.name(svgNS), d.name(tag))}
	} else {
		e = Elem{d.v.Call("createElement", d.name(tag))}
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

// HTML is constant markup: a view's static skeleton. No string converts
// to it implicitly, only an untyped constant does, so user text cannot
// reach markup by accident: it goes into the skeleton's elements as text
// (SetTextContent, textNode).
type HTML string

// Build returns the element that the constant markup h describes, built
// through a <template> (whose content is inert: nothing in it loads or
// runs). h holds one element and may be indented over lines: a line break
// and the indentation after it vanish between two tags and are one space
// elsewhere. A <slot name=…> in h marks where the view puts an element it
// builds itself (fill).
func (d *Document) Build(h HTML) Elem {
	t := d.v.Call("createElement", d.name("template"))
	t.Set("innerHTML", dropIndent(string(h)))
	return Elem{t.Get("content").Get("firstElementChild")}
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

// Parts names the elements of a skeleton a view keeps: each CSS selector
// with where the view keeps the element it finds.
type Parts map[string]*Elem

// Find finds each part inside e. A part missing from the skeleton is a
// mistake in the view's code: it panics, naming the selector.
func (e Elem) Find(ps Parts) {
	for sel, to := range ps {
		*to = e.QuerySelector(sel)
		if !to.OK() {
			panic("skeleton without " + sel)
		}
	}
}

// Fill puts c in place of the <slot name=name> inside e.
func (e Elem) Fill(name string, c Elem) {
	e.QuerySelector(`slot[name="`+name+`"]`).v.Call("replaceWith", c.v)
}

// OnClick calls fn when b is clicked, through the panic-safe listener.
func (d *Document) OnClick(b Elem, fn func()) {
	d.Listen(b, "click", "button "+b.TextContent(), func(Event) { fn() })
}

// TextNode returns a text node holding s.
func (d *Document) TextNode(s string) Elem { return Elem{d.v.Call("createTextNode", s)} }

// Button returns a <Button type=Button> that calls fn on click, through
// the panic-safe listener. title is its tooltip; a label without words (an
// arrow, a sign) also gets it as its accessible name.
func (d *Document) Button(label, title string, fn func(), attrs ...string) Elem {
	all := make([]string, 0, len(attrs)+6)
	all = append(append(all, "type", "button"), attrs...)
	if title != "" {
		all = append(all, "title", title)
		if !hasLetter(label) {
			all = append(all, "aria-label", title)
		}
	}
	b := d.Txt("button", label, all...)
	d.Listen(b, "click", "button "+label, func(Event) { fn() })
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

// Labelled wraps control in a <label> with caption text before it.
func (d *Document) Labelled(caption string, control Elem, attrs ...string) Elem {
	return Add(d.El("label", attrs...), d.Txt("span", caption, "class", "cap"), control)
}

// Options fills the <select> s with the given values and labels (label ""
// means the value itself), value chosen, and returns s.
func (d *Document) Options(s Elem, values, labels []string, value string) Elem {
	for i, v := range values {
		l := v
		if i < len(labels) && labels[i] != "" {
			l = labels[i]
		}
		s.AppendChild(d.Txt("option", l, "value", v))
	}
	s.SetValue(value)
	return s
}

// Target is anything that can receive event listeners.
type Target interface{ jsValue() js.Value }

// Listen adds a listener to t that survives panics: a panic in fn is shown
// in the page (and its stack logged) instead of stopping the Go program.
// Every listener of the page is added through it; it lives as long as the
// page.
func (d *Document) Listen(t Target, name, what string, fn func(Event)) {
	d.listenOpt(t, name, what, false, fn)
}

// ListenFirst is listen in the capture phase: fn runs before the
// listeners of the elements inside t.
func (d *Document) ListenFirst(t Target, name, what string, fn func(Event)) {
	d.listenOpt(t, name, what, true, fn)
}

func (d *Document) listenOpt(t Target, name, what string, capture bool, fn func(Event)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		Recovered(what, d.report, func() { fn(Event{args[0]}) })
		return nil
	})
	t.jsValue().Call("addEventListener", name, f, capture)
}

func (d *Document) jsValue() js.Value { return d.v }

// ByID finds an element by id (none when absent).
func (d *Document) ByID(id string) Elem { return Elem{d.v.Call("getElementById", id)} }

// Active returns the focused element.
func (d *Document) Active() Elem { return Elem{d.v.Get("activeElement")} }

// Root returns the <html> element.
func (d *Document) Root() Elem { return Elem{d.v.Get("documentElement")} }

// Body returns the <Body> element.
func (d *Document) Body() Elem { return Elem{d.v.Get("body")} }

// Elem is an element handle; the zero Elem (or one holding null) is "none".
type Elem struct{ v js.Value }

func (e Elem) jsValue() js.Value { return e.v }

// OK reports whether e refers to an element.
func (e Elem) OK() bool { return e.v.Truthy() }

// SetAttribute sets an attribute.
func (e Elem) SetAttribute(k, v string) { e.v.Call("setAttribute", k, v) }

// GetAttribute returns an attribute ("" when absent).
func (e Elem) GetAttribute(k string) string {
	a := e.v.Call("getAttribute", k)
	if a.IsNull() {
		return ""
	}
	return a.String()
}

// RemoveAttribute removes an attribute.
func (e Elem) RemoveAttribute(k string) { e.v.Call("removeAttribute", k) }

// HasAttribute reports whether the attribute is set.
func (e Elem) HasAttribute(k string) bool { return e.v.Call("hasAttribute", k).Bool() }

// SetTextContent replaces the content by text.
func (e Elem) SetTextContent(s string) { e.v.Set("textContent", s) }

// TextContent returns the text content.
func (e Elem) TextContent() string { return e.v.Get("textContent").String() }

// SetInnerHTML replaces the content by markup (only ever constant markup).
func (e Elem) SetInnerHTML(s string) { e.v.Set("innerHTML", s) }

// AppendChild appends c.
func (e Elem) AppendChild(c Elem) { e.v.Call("appendChild", c.v) }

// Prepend inserts c as the first child.
func (e Elem) Prepend(c Elem) { e.v.Call("prepend", c.v) }

// After inserts c after e.
func (e Elem) After(c Elem) { e.v.Call("after", c.v) }

// Children returns e's child elements, in order.
func (e Elem) Children() []Elem {
	c := e.v.Get("children")
	out := make([]Elem, c.Length())
	for i := range out {
		out[i] = Elem{c.Index(i)}
	}
	return out
}

// Before inserts c just before e, in e's parent.
func (e Elem) Before(c Elem) { e.v.Call("before", c.v) }

// Parent returns the element holding e (none when it has no parent element).
func (e Elem) Parent() Elem { return Elem{e.v.Get("parentElement")} }

// Remove takes e out of the document.
func (e Elem) Remove() { e.v.Call("remove") }

// SetID sets the id.
func (e Elem) SetID(id string) { e.v.Set("id", id) }

// ID returns the id.
func (e Elem) ID() string { return e.v.Get("id").String() }

// Focus focuses the element.
func (e Elem) Focus() { e.v.Call("focus") }

// Click clicks the element.
func (e Elem) Click() { e.v.Call("click") }

// Select selects an input's text.
func (e Elem) Select() { e.v.Call("select") }

// ScrollIntoView scrolls the least needed to show the element.
func (e Elem) ScrollIntoView() { e.v.Call("scrollIntoView", map[string]any{"block": "nearest"}) }

// Value returns an input's or select's value.
func (e Elem) Value() string { return e.v.Get("value").String() }

// SetValue sets an input's or select's value.
func (e Elem) SetValue(s string) { e.v.Set("value", s) }

// Checked reports whether a checkbox is checked.
func (e Elem) Checked() bool { return e.v.Get("checked").Bool() }

// SetChecked checks or unchecks a checkbox.
func (e Elem) SetChecked(b bool) { e.v.Set("checked", b) }

// QuerySelector returns the first descendant matching sel (none when absent).
func (e Elem) QuerySelector(sel string) Elem { return Elem{e.v.Call("querySelector", sel)} }

// Closest returns e or its nearest ancestor matching sel (none when absent).
func (e Elem) Closest(sel string) Elem {
	if !e.OK() || e.v.Get("closest").IsUndefined() {
		return Elem{}
	}
	return Elem{e.v.Call("closest", sel)}
}

// Contains reports whether c is e or inside it.
func (e Elem) Contains(c Elem) bool { return e.OK() && c.OK() && e.v.Call("contains", c.v).Bool() }

// TagName returns the element's tag in upper case ("" for none).
func (e Elem) TagName() string {
	if !e.OK() {
		return ""
	}
	t := e.v.Get("tagName")
	if t.IsUndefined() {
		return ""
	}
	return t.String()
}

// AddClass and RemoveClass change the element's class list.
func (e Elem) AddClass(name string) { e.v.Get("classList").Call("add", name) }

// RemoveClass removes a class.
func (e Elem) RemoveClass(name string) { e.v.Get("classList").Call("remove", name) }

// ToggleClass turns class c on or off.
func (e Elem) ToggleClass(c string, on bool) {
	if e.OK() {
		e.v.Get("classList").Call("toggle", c, on)
	}
}

// HasClass reports whether the element has class c.
func (e Elem) HasClass(c string) bool { return e.v.Get("classList").Call("contains", c).Bool() }

// SetStyle sets one CSS property through the CSSOM. The page's
// Content-Security-Policy (style-src 'self') ignores style attributes, but
// not properties set from script.
func (e Elem) SetStyle(prop, value string) { e.v.Get("style").Call("setProperty", prop, value) }

// Style returns the computed value of a CSS property (a custom property
// included), trimmed.
func (e Elem) Style(prop string) string {
	s := js.Global().Call("getComputedStyle", e.v).Call("getPropertyValue", prop).String()
	for len(s) > 0 && s[0] == ' ' {
		s = s[1:]
	}
	return s
}

// Rect is a bounding box in CSS pixels.
type Rect struct{ Left, Top, Width, Height float64 }

// Rect returns the element's box.
func (e Elem) Rect() Rect {
	r := e.v.Call("getBoundingClientRect")
	return Rect{r.Get("left").Float(), r.Get("top").Float(), r.Get("width").Float(), r.Get("height").Float()}
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
		args[k] = c.v
	}
	e.v.Call("replaceChildren", args...)
}

// Same reports whether e and o are the Same element (no call into
// JavaScript: a JavaScript object keeps its reference).
func (e Elem) Same(o Elem) bool { return e.v.Equal(o.v) }

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
		args[k] = c.v
	}
	if len(args) > 0 {
		parent.v.Call("append", args...)
	}
	return parent
}

// Event is a DOM Event.
type Event struct{ v js.Value }

// PreventDefault cancels the default action.
func (ev Event) PreventDefault() { ev.v.Call("preventDefault") }

// StopImmediatePropagation keeps the event from every further listener.
func (ev Event) StopImmediatePropagation() { ev.v.Call("stopImmediatePropagation") }

// Target returns the element the event was dispatched to.
func (ev Event) Target() Elem { return Elem{ev.v.Get("target")} }

// Key returns a keyboard event's key.
func (ev Event) Key() string { return ev.v.Get("key").String() }

// Mod reports whether a modifier key is held: "ctrlKey", "metaKey",
// "altKey" or "shiftKey".
func (ev Event) Mod(name string) bool { return ev.v.Get(name).Bool() }

// Client returns a pointer event's position in the viewport.
func (ev Event) Client() (x, y float64) {
	return ev.v.Get("clientX").Float(), ev.v.Get("clientY").Float()
}

// Button returns the pointer button that changed (0: the main one).
func (ev Event) Button() int { return ev.v.Get("button").Int() }

// DeltaY returns a wheel event's vertical delta in pixels (deltas in lines
// count 16 pixels a line, in pages 400 a page).
func (ev Event) DeltaY() float64 {
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
func (ev Event) PointerID() int { return ev.v.Get("pointerId").Int() }

// PointerType returns a pointer event's device: "mouse", "pen" or "touch".
func (ev Event) PointerType() string { return ev.v.Get("pointerType").String() }

// Wrap returns the element (or element-like object) v as an Elem, for
// code that holds a js.Value: tests, with an object standing in for an
// element.
func Wrap(v js.Value) Elem { return Elem{v} }

// Report shows msg in the page as an internal error, as a listener's
// panic is shown.
func (d *Document) Report(msg string) { d.report(msg) }

// Scroll returns how far e's content is scrolled, in CSS pixels.
func (e Elem) Scroll() (top, left float64) {
	return e.v.Get("scrollTop").Float(), e.v.Get("scrollLeft").Float()
}

// SetScroll scrolls e's content to top and left, in CSS pixels.
func (e Elem) SetScroll(top, left float64) {
	e.v.Set("scrollTop", top)
	e.v.Set("scrollLeft", left)
}
