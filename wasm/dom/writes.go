//go:build js && wasm

package dom

import (
	"strconv"
	"strings"
	"syscall/js"
)

// Writes collects Writes to the elements of one list (elems), which document.write then applies in one
// call into JavaScript: a step changes dozens of cells in a tensor's
// table or a strip, and each write made alone is a call of its own, with
// its strings converted one by one. A view keeps its Writes and reuses
// them from one step to the next.
type Writes struct{ ops []Write }

// Write is one Write: what is "text", "style:" and a property, or an
// attribute's name.
type Write struct {
	K        int
	What, To string
}

// Attr sets element k's attribute name to v.
func (w *Writes) Attr(k int, name, v string) { w.ops = append(w.ops, Write{k, name, v}) }

// Text sets element k's Text to v.
func (w *Writes) Text(k int, v string) { w.ops = append(w.ops, Write{k, "text", v}) }

// Style sets element k's Style property prop to v.
func (w *Writes) Style(k int, prop, v string) { w.ops = append(w.ops, Write{k, "style:" + prop, v}) }

// Write applies w to the elements of list and empties w: one call to the
// loader's tapelabWrite (static/loader.js), or, without it or when a
// value holds the NUL that packing separates them by, a call per Write.
func (d *Document) Write(list Elems, w *Writes) {
	if len(w.ops) == 0 {
		return
	}
	defer func() { w.ops = w.ops[:0] }()
	if d.writer.Type() != js.TypeFunction || w.hasNUL() {
		for _, o := range w.ops {
			e := wrap(list.v.Index(o.K))
			switch {
			case o.What == "text":
				e.SetTextContent(o.To)
			case strings.HasPrefix(o.What, "style:"):
				e.SetStyle(o.What[len("style:"):], o.To)
			default:
				e.SetAttribute(o.What, o.To)
			}
		}
		return
	}
	var b strings.Builder
	for i, o := range w.ops {
		if i > 0 {
			b.WriteByte(0)
		}
		b.WriteString(strconv.Itoa(o.K))
		b.WriteByte(0)
		b.WriteString(o.What)
		b.WriteByte(0)
		b.WriteString(o.To)
	}
	d.writer.Invoke(list.v, b.String())
}

func (w *Writes) hasNUL() bool {
	for _, o := range w.ops {
		if strings.IndexByte(o.To, 0) >= 0 {
			return true
		}
	}
	return false
}

// Elems is a fixed list of elements, which writes address by index.
type Elems struct{ v js.Value }

// NewElems returns an empty list, which push fills.
func NewElems() Elems { return Elems{js.Global().Get("Array").New()} }

// Push appends es to the list (one made by newElems) and returns the index
// of the first.
func (l Elems) Push(es ...Elem) int {
	args := make([]any, len(es))
	for k, e := range es {
		args[k] = e.js()
	}
	return l.v.Call("push", args...).Int() - len(es)
}

// All returns the elements inside e that match sel, in document order.
func (e Elem) All(sel string) Elems { return Elems{e.js().Call("querySelectorAll", sel)} }

// Kids returns e's child elements as a live list: it follows the
// children added and removed.
func (e Elem) Kids() Elems { return Elems{e.js().Get("children")} }

// Clone returns a deep copy of e, not in the document.
func (e Elem) Clone() Elem { return wrap(e.js().Call("cloneNode", true)) }
