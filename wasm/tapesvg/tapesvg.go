// Package tapesvg writes a laid-out tape as SVG markup: the edges, and per
// node its box, title, shape, role and state classes, as the playground's
// tape view draws them (the stylesheet styles both alike). It is plain Go
// (no DOM), so that the server can draw a page's first view of the tape
// before the page's wasm has arrived; the wasm then draws the same boxes at
// the same places.
package tapesvg

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/layout"
)

// How the tape view fits a drawing to its region: as large as fits, no
// smaller than app.ReadableScale and no larger than FitMax; a drawing
// that does not fit at app.ReadableScale starts FitPad CSS pixels from
// the region's edge and is panned.
const (
	FitMax = 1.6
	FitPad = 12.0
)

// Defs is the content of the drawing's <defs>: the edges' arrowhead
// (#arrow) and the hatching of skipped boxes (#hatch).
const Defs = `<marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0 0 L10 5 L0 10 z" fill="context-stroke"/></marker>` +
	`<pattern id="hatch" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect class="hatch-bg" width="8" height="8"/><line class="hatch-line" x1="0" y1="0" x2="0" y2="8" stroke-width="3"/></pattern>`

// BadgeKey is the key to the state badges, shown in the tape's bar: the
// badges are made of its words (v✓ a value computed, g… a gradient still
// adding up, g✓ one done, g=0 a zero one), short enough for a phone's
// line. The rarer badges of the single-output pass are said in words where
// they show (the step's sentence, the inspector).
const BadgeKey = "v value · g gradient · ✓ done · … still adding up"

// F1 formats a coordinate with at most one decimal, as every coordinate of
// the drawing is written.
func F1(v float64) string { return strconv.FormatFloat(math.Round(v*10)/10, 'f', -1, 64) }

// Classes is the class list of node n's group before its state's classes:
// "node" and its kind (kindClass), and "from-grad" for a node a grad recorded.
func Classes(n app.NodeInfo) string {
	c := "node " + kindClass(n.Kind)
	if n.From.Grad > 0 {
		c += " from-grad"
	}
	return c
}

// kindClass is the class that names a node's kind: "param", "input" (inputs
// and constants) or "op".
func kindClass(k autograd.Kind) string {
	switch k {
	case autograd.Param:
		return "param"
	case autograd.Input, autograd.Const:
		return "input"
	}
	return "op"
}

// StateClasses returns the classes a node in state st carries after its
// kind ("node op"), each with a leading space: known, has-grad, final,
// ran, next, focus, one of skipped, extra or zero, then nonfinite and
// first-nan (a NaN or ∞, and the first of its pass).
func StateClasses(st app.State) string {
	var b strings.Builder
	for _, c := range []struct {
		f    app.State
		name string
	}{{app.Known, "known"}, {app.HasGrad, "has-grad"}, {app.Final, "final"}, {app.Ran, "ran"},
		{app.Next, "next"}, {app.Focus, "focus"}, {app.Updated, "updated"}} {
		if st.Has(c.f) {
			b.WriteString(" " + c.name)
		}
	}
	switch {
	case st.Has(app.Skipped):
		b.WriteString(" skipped")
	case st.Has(app.Extra):
		b.WriteString(" extra")
	case st.Has(app.Side):
		b.WriteString(" zero")
	}
	if st.Has(app.NonFinite) {
		b.WriteString(" nonfinite")
	}
	if st.Has(app.FirstNonFinite) {
		b.WriteString(" first-nan")
	}
	return b.String()
}

// BoxRadius is the corner radius of a node's box: a parameter's is rounder.
func BoxRadius(k autograd.Kind) float64 {
	if k == autograd.Param {
		return app.ParamRadius
	}
	return app.OpRadius
}

// escape appends s to b escaped for an SVG text node or a quoted
// attribute. (strings.Replacer would add its machinery to the page's
// wasm, which links this package for the signature.)
func escape(b *strings.Builder, s string) {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		default:
			b.WriteByte(c)
		}
	}
}

// Write appends to b the drawing's two layers, <g class="edges"> and
// <g class="nodes">, for the nodes laid out by lay (app.Layout) in the
// states given (one per node; a missing state is the empty one). Each
// node is a <g class="node …" data-node="i"> translated to its box, with
// the ring, the box and the three texts of the tape view; the value and
// gradient strips and the state badge are left out (a first view shows
// no values).
func Write(b *strings.Builder, nodes []app.NodeInfo, states []app.State, lay *layout.Layout) {
	b.WriteString(`<g class="edges">`)
	for _, e := range lay.Edges {
		b.WriteString(`<path class="edge" d="` + e.Path() + `" marker-end="url(#arrow)"></path>`)
	}
	b.WriteString(`</g><g class="nodes">`)
	for i, n := range nodes {
		var st app.State
		if i < len(states) {
			st = states[i]
		}
		box := lay.Boxes[i]
		b.WriteString(`<g class="` + Classes(n) + StateClasses(st) + `" data-node="` + strconv.Itoa(i) +
			`" transform="translate(` + F1(box.X) + " " + F1(box.Y) + `)">`)
		p := app.RingPad
		b.WriteString(`<rect class="ring" x="` + F1(-p) + `" y="` + F1(-p) + `" width="` + F1(box.W+2*p) +
			`" height="` + F1(box.H+2*p) + `" rx="` + F1(app.RingRadius) + `"></rect>`)
		b.WriteString(`<rect class="box" width="` + F1(box.W) + `" height="` + F1(box.H) + `" rx="` + F1(BoxRadius(n.Kind)) + `"></rect>`)
		writeText(b, "title-text", app.TitlePx, app.BoxInset, app.TitleY, "", n.Title())
		writeText(b, "shape-text mono", app.ShapePx, app.BoxInset, app.ShapeY, "", n.Shape.String())
		if tag := n.Tag(); tag != "" {
			writeText(b, "role-text", app.RolePx, box.W-app.BoxInset, app.ShapeY, "end", tag)
		}
		b.WriteString(`</g>`)
	}
	b.WriteString(`</g>`)
}

// Signature names the drawing Write makes of nodes in states laid out by
// lay: the 64-bit FNV-1a hash of its markup, in hex. The server writes it
// on the first view's drawing (data-sig), and the page adopts that
// drawing's elements only when the tape it would draw has the same
// signature, so that it never keeps a box, a title or a state the server
// drew of another tape.
func Signature(nodes []app.NodeInfo, states []app.State, lay *layout.Layout) string {
	var b strings.Builder
	Write(&b, nodes, states, lay)
	return SignatureOf(b.String())
}

// SignatureOf returns the signature of a drawing whose markup Write wrote,
// for a writer that has the markup already.
func SignatureOf(markup string) string {
	h := uint64(14695981039346656037)
	for i := 0; i < len(markup); i++ {
		h ^= uint64(markup[i])
		h *= 1099511628211
	}
	return strconv.FormatUint(h, 16)
}

// writeText appends an SVG text of class at (x, y), size px, anchored at
// anchor ("" for the start).
func writeText(b *strings.Builder, class string, px, x, y float64, anchor, s string) {
	b.WriteString(`<text class="` + class + `" font-size="` + F1(px) + `" x="` + F1(x) + `" y="` + F1(y) + `"`)
	if anchor != "" {
		b.WriteString(` text-anchor="` + anchor + `"`)
	}
	b.WriteString(">")
	escape(b, s)
	b.WriteString("</text>")
}
