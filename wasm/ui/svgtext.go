//go:build js && wasm

package ui

import "tapelab/wasm/dom"

// SVGText returns a new SVG text of class at (x, y), its font size px,
// reading s.
func SVGText(doc *dom.Document, class string, px, x, y float64, s string) dom.Elem {
	t := doc.SVG("text", "class", class, "font-size", F1(px), "x", F1(x), "y", F1(y))
	t.SetTextContent(s)
	return t
}
