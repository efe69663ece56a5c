//go:build js && wasm

package ui

import "tapelab/wasm/dom"

// Palette holds the page's colours for canvas drawing, read from the
// stylesheet's custom properties (static/style.css) at each draw, so that
// the canvas follows the page's Palette, presenter mode included.
type Palette struct {
	Surface, Ink, Muted, Frame, Neg, Pos, Test, Outline string
	// Runs are the colours of up to three runs compared in one chart.
	Runs [3]string
	// Stroke is 1.5 in presenter mode (thicker strokes), else 1.
	Stroke float64
}

func ReadPalette(u *dom.Document) Palette {
	r := u.Root()
	k := 1.0
	if r.HasClass("presenter") {
		k = 1.5
	}
	return Palette{Surface: r.Style("--surface"), Ink: r.Style("--ink"), Muted: r.Style("--muted"),
		Frame: r.Style("--field-line"), Neg: r.Style("--scale-neg"), Pos: r.Style("--scale-pos"),
		Test: r.Style("--test-ink"), Outline: r.Style("--point-outline"), Stroke: k,
		Runs: [3]string{r.Style("--run-a"), r.Style("--run-b"), r.Style("--run-c")}}
}
