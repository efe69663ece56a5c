//go:build js && wasm

package main

import (
	"syscall/js"
)

// jsui builds the training view, the share bar and the classroom panels
// with syscall/js directly: they find the playground's regions by selector,
// so they do not depend on how the playground's views are built.
type jsui struct {
	doc    js.Value
	report func(string) // the page's error box
}

func newJSUI(report func(string)) jsui {
	return jsui{doc: js.Global().Get("document"), report: report}
}

// el returns a new element with attributes given as name, value pairs.
func (u jsui) el(tag string, attrs ...string) js.Value {
	e := u.doc.Call("createElement", tag)
	for i := 0; i+1 < len(attrs); i += 2 {
		e.Call("setAttribute", attrs[i], attrs[i+1])
	}
	return e
}

// txt returns a new element holding text s.
func (u jsui) txt(tag, s string, attrs ...string) js.Value {
	e := u.el(tag, attrs...)
	e.Set("textContent", s)
	return e
}

// on adds a listener that survives panics: a panic in fn is shown in the
// page instead of stopping the Go program. The listener lives as long as
// the page.
func (u jsui) on(target js.Value, event, name string, fn func(ev js.Value)) {
	f := js.FuncOf(func(_ js.Value, args []js.Value) any {
		recovered(name, u.report, func() { fn(args[0]) })
		return nil
	})
	target.Call("addEventListener", event, f)
}

// btn returns a <button type=button> that calls fn when clicked.
func (u jsui) btn(label, title string, fn func(), attrs ...string) js.Value {
	b := u.el("button", append([]string{"type", "button"}, attrs...)...)
	b.Set("textContent", label)
	if title != "" {
		b.Call("setAttribute", "title", title)
	}
	u.on(b, "click", "button "+label, func(js.Value) { fn() })
	return b
}

// labelled wraps control in a <label> with caption text before it.
func (u jsui) labelled(caption string, control js.Value, attrs ...string) js.Value {
	l := u.el("label", attrs...)
	l.Call("append", u.txt("span", caption, "class", "cap"), control)
	return l
}

// sel returns a <select> with the given values and labels (label "" means
// the value itself), value chosen.
func (u jsui) sel(id string, values, labels []string, value string) js.Value {
	s := u.el("select", "id", id)
	for i, v := range values {
		o := u.el("option", "value", v)
		l := v
		if i < len(labels) && labels[i] != "" {
			l = labels[i]
		}
		o.Set("textContent", l)
		s.Call("append", o)
	}
	s.Set("value", value)
	return s
}

// appendAll appends children to parent and returns parent.
func appendAll(parent js.Value, kids ...js.Value) js.Value {
	for _, k := range kids {
		parent.Call("append", k)
	}
	return parent
}

// query returns the first element matching selector, or null.
func (u jsui) query(selector string) js.Value {
	return u.doc.Call("querySelector", selector)
}

// queryAll calls fn for each element matching selector.
func (u jsui) queryAll(selector string, fn func(js.Value)) {
	l := u.doc.Call("querySelectorAll", selector)
	for i := 0; i < l.Length(); i++ {
		fn(l.Index(i))
	}
}

// present reports whether v is an element (not null or undefined).
func present(v js.Value) bool { return !v.IsNull() && !v.IsUndefined() }

// show sets or clears the hidden attribute.
func show(e js.Value, on bool) {
	if !present(e) {
		return
	}
	if on {
		e.Call("removeAttribute", "hidden")
	} else {
		e.Call("setAttribute", "hidden", "")
	}
}

// toggleClass turns class c on or off on e.
func toggleClass(e js.Value, c string, on bool) {
	if present(e) {
		e.Get("classList").Call("toggle", c, on)
	}
}
