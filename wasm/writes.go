//go:build js && wasm

package main

import (
	"strconv"
	"strings"
	"syscall/js"
)

// writes collects writes to the elements of one list (elems), which document.write then applies in one
// call into JavaScript: a step changes dozens of cells in a tensor's
// table or a strip, and each write made alone is a call of its own, with
// its strings converted one by one. A view keeps its writes and reuses
// them from one step to the next.
type writes struct{ ops []write }

// write is one write: what is "text", "style:" and a property, or an
// attribute's name.
type write struct {
	k        int
	what, to string
}

// attr sets element k's attribute name to v.
func (w *writes) attr(k int, name, v string) { w.ops = append(w.ops, write{k, name, v}) }

// text sets element k's text to v.
func (w *writes) text(k int, v string) { w.ops = append(w.ops, write{k, "text", v}) }

// style sets element k's style property prop to v.
func (w *writes) style(k int, prop, v string) { w.ops = append(w.ops, write{k, "style:" + prop, v}) }

// write applies w to the elements of list and empties w: one call to the
// loader's tapelabWrite (static/loader.js), or, without it or when a
// value holds the NUL that packing separates them by, a call per write.
func (d *document) write(list elems, w *writes) {
	if len(w.ops) == 0 {
		return
	}
	defer func() { w.ops = w.ops[:0] }()
	if d.writer.Type() != js.TypeFunction || w.hasNUL() {
		for _, o := range w.ops {
			e := elem{list.v.Index(o.k)}
			switch {
			case o.what == "text":
				e.SetTextContent(o.to)
			case strings.HasPrefix(o.what, "style:"):
				e.SetStyle(o.what[len("style:"):], o.to)
			default:
				e.SetAttribute(o.what, o.to)
			}
		}
		return
	}
	var b strings.Builder
	for i, o := range w.ops {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(strconv.Itoa(o.k))
		b.WriteByte(0)
		b.WriteString(o.what)
		b.WriteByte(0)
		b.WriteString(o.to)
	}
	d.writer.Invoke(list.v, b.String())
}

func (w *writes) hasNUL() bool {
	for _, o := range w.ops {
		if strings.IndexByte(o.to, 0) >= 0 {
			return true
		}
	}
	return false
}

// elems is a fixed list of elements, which writes address by index.
type elems struct{ v js.Value }

// newElems returns an empty list, which push fills.
func newElems() elems { return elems{js.Global().Get("Array").New()} }

// push appends es to the list (one made by newElems) and returns the index
// of the first.
func (l elems) push(es ...elem) int {
	args := make([]any, len(es))
	for k, e := range es {
		args[k] = e.v
	}
	return l.v.Call("push", args...).Int() - len(es)
}

// all returns the elements inside e that match sel, in document order.
func (e elem) all(sel string) elems { return elems{e.v.Call("querySelectorAll", sel)} }

// kids returns e's child elements as a live list: it follows the
// children added and removed.
func (e elem) kids() elems { return elems{e.v.Get("children")} }

// clone returns a deep copy of e, not in the document.
func (e elem) clone() elem { return elem{e.v.Call("cloneNode", true)} }
