//go:build js && wasm

package ui

import (
	"tapelab/wasm/app"

	"tapelab/wasm/dom"
)

// Legend draws the colour scale shared by values and gradients.
func Legend(doc *dom.Document, sc *app.Scale) dom.Elem {
	l := doc.El("div", "class", "legend", "aria-label", "Colour scale: blue is negative, white zero, orange positive")
	dom.Add(l, doc.Txt("span", "scale", "class", "legend-title"))
	for _, t := range app.LegendTicks() {
		l.AppendChild(OnScale(doc, sc, "span", app.Num(t), t, "class", "swatch mono"))
	}
	return l
}

// OnScale returns a new element of tag holding text, with attributes,
// on the colour of x and in the ink readable on it.
func OnScale(doc *dom.Document, sc *app.Scale, tag, text string, x float64, attrs ...string) dom.Elem {
	e := doc.Txt(tag, text, attrs...)
	e.SetStyle("background", sc.Colour(x))
	e.SetStyle("color", sc.InkOn(x))
	return e
}
