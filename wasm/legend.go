//go:build js && wasm

package main

import "tapelab/wasm/app"

// legend draws the colour scale shared by values and gradients.
func legend(doc *document, sc *app.Scale) elem {
	l := doc.el("div", "class", "legend", "aria-label", "Colour scale: blue is negative, white zero, orange positive")
	add(l, doc.txt("span", "scale", "class", "legend-title"))
	for _, t := range app.LegendTicks() {
		s := doc.txt("span", app.Num(t), "class", "swatch mono")
		s.SetStyle("background", sc.Colour(t))
		s.SetStyle("color", sc.InkOn(t))
		l.AppendChild(s)
	}
	return l
}
