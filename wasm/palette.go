//go:build js && wasm

package main

import "tapelab/wasm/dom"

// palette holds the page's colours for canvas drawing, read from the
// stylesheet's custom properties (static/style.css) at each draw, so that
// the canvas follows the page's palette, presenter mode included.
type palette struct {
	surface, ink, muted, frame, neg, pos, test, outline string
	// stroke is 1.5 in presenter mode (thicker strokes), else 1.
	stroke float64
}

func readPalette(u *dom.Document) palette {
	r := u.Root()
	k := 1.0
	if r.HasClass("presenter") {
		k = 1.5
	}
	return palette{surface: r.Style("--surface"), ink: r.Style("--ink"), muted: r.Style("--muted"),
		frame: r.Style("--field-line"), neg: r.Style("--scale-neg"), pos: r.Style("--scale-pos"),
		test: r.Style("--test-ink"), outline: r.Style("--point-outline"), stroke: k}
}
