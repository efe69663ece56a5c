//go:build js && wasm

package ui

import (
	"strconv"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
)

// LinkList is a list of tape nodes, each a button (class "link") that
// carries its node's id in data-inspect, for one listener of the screen
// that shows it to read. Its buttons are made as needed and kept: showing
// another list writes their texts in one call and takes off or puts back
// the rest.
type LinkList struct {
	El      dom.Elem // the element that holds the buttons, or says "none"
	key     string   // the ids and labels as last shown
	written bool
	buttons []dom.Elem
	shown   int  // the buttons in the list
	none    bool // the list says "none"
	w       dom.Writes
}

// Show lists node ids of s, named by names when given ("none" for no
// ids), writing nothing when the same list is shown again.
func (l *LinkList) Show(doc *dom.Document, s *app.Stepper, ids []int, names []string) {
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
		l.El.SetTextContent("none")
		l.shown, l.none = 0, true
		return
	}
	if l.none {
		l.El.Clear()
		l.none = false
	}
	for len(l.buttons) < len(ids) {
		l.buttons = append(l.buttons, doc.El("button", "type", "button", "class", "link"))
	}
	for ; l.shown > len(ids); l.shown-- {
		l.buttons[l.shown-1].Remove()
	}
	for ; l.shown < len(ids); l.shown++ {
		l.El.AppendChild(l.buttons[l.shown])
	}
	for k, id := range ids {
		l.w.Text(k, labels[k])
		l.w.Attr(k, "title", "Inspect "+labels[k])
		l.w.Attr(k, "data-inspect", strconv.Itoa(id))
	}
	doc.Write(l.El.Kids(), &l.w)
}
