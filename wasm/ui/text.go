//go:build js && wasm

package ui

import "tapelab/wasm/dom"

// Text is an element (or text node) a widget keeps, with the text it
// shows: setting the same text again writes nothing.
type Text struct {
	El      dom.Elem // the element (or text node) that shows the text
	shown   string
	written bool // shown has been written (an empty text too)
}

// Set shows s, writing nothing when s is already shown.
func (t *Text) Set(s string) {
	if t.written && t.shown == s {
		return
	}
	t.El.SetTextContent(s)
	t.shown, t.written = s, true
}

// SetAcc shows an accumulation sign ("=" or "+=") with its class ("acc
// set" or "acc plus").
func (t *Text) SetAcc(op string) {
	if t.written && t.shown == op {
		return
	}
	t.El.SetAttribute("class", "acc "+AccClass(op))
	t.Set(op)
}

// AccClass is the class of an accumulation sign: "plus" for "+=", else
// "set".
func AccClass(op string) string {
	if op == "+=" {
		return "plus"
	}
	return "set"
}
