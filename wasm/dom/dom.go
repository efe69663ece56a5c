//go:build js && wasm

package dom

import (
	"strings"
	"syscall/js"
)

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
		return wrap(d.maker.Invoke(d.name(tag), b.String(), svg, hasText))
	}
	var e Elem
	if svg {
		e = wrap(d.v.Call("createElementNS", d.name(svgNS), d.name(tag)))
	} else {
		e = wrap(d.v.Call("createElement", d.name(tag)))
	}
	for i := 0; i+1 < len(attrs); i += 2 {
		e.js().Call("setAttribute", d.name(attrs[i]), attrs[i+1])
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
	return wrap(t.Get("content").Get("firstElementChild"))
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
type Parts []Part

// Part is one element of a skeleton: the selector that finds it and where
// Find puts it.
type Part struct {
	Sel string
	To  *Elem
}

// Find finds each part inside e. A part missing from the skeleton is a
// mistake in the view's code: it panics, naming the selector.
func (e Elem) Find(ps Parts) {
	for _, p := range ps {
		*p.To = e.QuerySelector(p.Sel)
		if !p.To.OK() {
			panic("skeleton without " + p.Sel)
		}
	}
}

// Fill puts c in place of the <slot name=name> inside e.
func (e Elem) Fill(name string, c Elem) {
	e.QuerySelector(`slot[name="`+name+`"]`).js().Call("replaceWith", c.js())
}

// OnClick calls fn when b is clicked, through the panic-safe listener.
func (d *Document) OnClick(b Elem, fn func()) {
	d.Listen(b, "click", "button "+b.TextContent(), func(Event) { fn() })
}

// TextNode returns a text node holding s.
func (d *Document) TextNode(s string) Elem { return wrap(d.v.Call("createTextNode", s)) }

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
		Recovered(what, d.report, func() { fn(event(args[0])) })
		return nil
	})
	t.jsValue().Call("addEventListener", name, f, capture)
}

func (d *Document) jsValue() js.Value { return d.v }

// ByID finds an element by id (none when absent).
func (d *Document) ByID(id string) Elem { return wrap(d.v.Call("getElementById", id)) }

// Active returns the focused element.
func (d *Document) Active() Elem { return wrap(d.v.Get("activeElement")) }

// Root returns the <html> element.
func (d *Document) Root() Elem { return wrap(d.v.Get("documentElement")) }

// Body returns the <Body> element.
func (d *Document) Body() Elem { return wrap(d.v.Get("body")) }

// Report shows msg in the page as an internal error, as a listener's
// panic is shown.
func (d *Document) Report(msg string) { d.report(msg) }
