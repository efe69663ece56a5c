//go:build js && wasm

// Package dom is the page's one door to the browser: the only package of
// the playground that imports syscall/js and honnef.co/go/js/dom/v2.
//
// The views hold its handles: a Document that makes elements (with their
// attributes and text in one call, through the loader's tapelabElement)
// and adds listeners that survive panics (Recovered); an Elem, which is
// dom/v2's HTML element; an Event, which is dom/v2's event; Writes, a
// step's writes to many elements applied in one call through the
// loader's tapelabWrite (the redraw path: one call into JavaScript per
// step instead of one per cell); and the bridge (bridge.go) to what dom/v2
// does not cover: canvas, clipboard, fetch, files, frames, resize,
// location. Elem and Event say where they leave dom/v2 and why.
package dom
