// Package firstview draws the playground page's first view on the server:
// the page's frame (the top bar, the tape's region with its bar, the
// stepper) with the model's tape drawn in it by the same layout code and
// SVG writer as the page's tape view (wasm/layout, wasm/tapesvg), so that
// the page shows its real tape at once and the wasm, when it arrives,
// takes over with every box where it already was.
//
// The frame reproduces the regions whose size places the tape; the
// browser test of the first view checks that the boxes do not move when
// the wasm draws the page.
package firstview

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/wasm/app"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/tapesvg"
)

// Default returns the first view of the playground's own page: the
// default model's tape at the start of its step.
func Default() (string, error) {
	st, err := open(link.Default())
	if err != nil {
		return "", err
	}
	return View(st)
}

// Shared returns the first view of the page of a shared document (a model
// or a program, as the share service stores it), or "" for a document the
// page does not open as a tape at once (a lesson).
func Shared(doc []byte) (string, error) {
	if lesson.IsDocument(doc) {
		return "", nil
	}
	ls, err := sharedLink(doc)
	if err != nil {
		return "", err
	}
	if err := ls.Validate(); err != nil { // the work budget, for a share stored before it
		return "", err
	}
	st, err := open(ls)
	if err != nil {
		return "", err
	}
	return View(st)
}

// sharedLink returns the link state the page opens a shared model or
// program document as.
func sharedLink(doc []byte) (*link.State, error) {
	ls := link.Default()
	if src, _, err := program.DecodeDocument(doc); err == nil {
		ls.Model, ls.Points, ls.Batch, ls.Program = nil, nil, nil, src
	} else if m, err := spec.Decode(doc); err == nil {
		ls.Model = m
	} else {
		return nil, err
	}
	return ls, nil
}

// open returns the page's state after it opened ls.
func open(ls *link.State) (*state.State, error) {
	st := state.New(link.DefaultDataset)
	st.Replace(ls)
	if err := st.Opened(); err != nil {
		return nil, err
	}
	return st, nil
}

// View returns the first view of the page showing st's step: the frame
// with the tape. The tape is <svg id="tape-preview">; firstview.js fits it
// to its region as the tape view does. Its data-sig is the drawing's
// tapesvg.Signature: the page takes the drawing's elements over when the
// tape it opens has the same one, and draws its own otherwise.
//
// A tape whose view would take more than MaxBytes is not drawn: View
// returns "", and the page shows its loading screen until the wasm draws
// the tape.
func View(st *state.State) (string, error) {
	src := st.Source()
	if err := src.Err(); err != nil {
		return "", err
	}
	s := src.Stepper()
	if s == nil {
		return "", errors.New("firstview: the state has no recorded step")
	}
	nodes := s.Nodes()
	if len(nodes)*minNodeBytes > MaxBytes {
		return "", nil // too large to draw, without laying it out
	}
	lay, err := app.Layout(nodes)
	if err != nil {
		return "", err
	}
	states := make([]app.State, len(nodes))
	for i := range nodes {
		states[i] = s.State(i)
	}
	var drawing strings.Builder
	tapesvg.Write(&drawing, nodes, states, lay)
	if drawing.Len() > MaxBytes {
		return "", nil
	}
	c := s.Counts()
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	var b strings.Builder
	b.Grow(drawing.Len() + len(frameTop) + len(frameBottom) + 1024)
	b.WriteString(frameTop)
	b.WriteString(`<svg id="tape-preview" role="img" aria-label="The tape of one training step, drawn left to right." data-w="` + f(lay.Width) + `" data-h="` + f(lay.Height) +
		`" data-sig="` + tapesvg.SignatureOf(drawing.String()) + `" data-min="` + f(app.ReadableScale) + `" data-max="` + f(tapesvg.FitMax) + `" data-pad="` + f(tapesvg.FitPad) + `"><defs>` + tapesvg.Defs + `</defs><g class="world">`)
	b.WriteString(drawing.String())
	b.WriteString(`</g>`)
	writeFolds(&b, lay)
	b.WriteString(`</svg></section></div><section class="inspector"></section></div>`)
	b.WriteString(strings.NewReplacer("{forward}", strconv.Itoa(c.Forward)+"/"+strconv.Itoa(c.ForwardTotal),
		"{backward}", strconv.Itoa(c.Backward)+"/"+strconv.Itoa(c.BackwardTotal)).Replace(frameBottom))
	if b.Len() > MaxBytes {
		return "", nil
	}
	return b.String(), nil
}

// frameTop is the page's frame down to the tape: the top bar with the
// loader's progress (#loading, #load-progress and #load-label, which
// static/loader.js fills), the editor's column and the tape's bar. Its
// buttons are the page's, inert until the wasm draws the real ones.
var frameTop = `<div class="playground first-view editor-open inspector-open" id="first-view">` +
	`<header class="top-bar"><h1 class="brand">TapeLab</h1>` +
	`<div class="bar-main" inert><div class="seg"><button type="button" aria-pressed="true">Model</button><button type="button">Program</button></div>` +
	`<div class="seg"><button type="button" aria-pressed="true">Step</button><button type="button">Train</button></div></div>` +
	`<section id="loading" class="first-load"><progress id="load-progress" max="1" aria-label="Loading the Go engine" aria-describedby="load-label"></progress>` +
	`<p id="load-label" class="load-label mono">Loading the Go engine&hellip;</p></section></header>` +
	`<div class="workspace" inert><section class="editor"></section><div class="centre"><section class="tape-region">` +
	`<div class="region-bar"><h2>The tape</h2>` + legend + `<span class="badge-key">` + tapesvg.BadgeKey + `</span>` +
	`<div class="zoom-tools"><button type="button">Fit</button><button type="button">−</button><button type="button">+</button></div></div>`

// legend is the colour scale's row, its swatches uncoloured until the
// page's palette colours them.
var legend = func() string {
	var b strings.Builder
	b.WriteString(`<div class="legend"><span class="legend-title">scale</span>`)
	for _, t := range app.LegendTicks() {
		b.WriteString(`<span class="swatch mono">` + app.Num(t) + `</span>`)
	}
	return b.String() + `</div>`
}()

// frameBottom is the stepper's row and the tape list's summary, with the
// counters' {forward} and {backward} to fill in.
const frameBottom = `<div class="bottom" inert><section class="stepper"><div class="controls">` +
	`<button type="button">⟲</button><button type="button">◀</button><button type="button" class="primary">▶</button>` +
	`<button type="button">▶ Play</button><button type="button">⇥ backward</button><button type="button">▶▶ end</button></div>` +
	`<label class="speed">speed <input type="range" min="1" max="20" value="4"></label>` +
	`<div class="counters mono"><span>forward {forward}</span><span class="sep"> · </span><span>backward {backward}</span></div>` +
	`<div class="said"></div><div class="panel-tabs"><button type="button">Editor</button><button type="button">Inspector</button></div>` +
	`<button type="button" class="help">?</button></section>` +
	`<details class="tape-list"><summary>Tape as text</summary></details></div></div>`

// EndID is the id of the element that ends the first view (the script
// that fits it). The page's head expects it before its first paint
// (<link rel="expect" href="#first-view-end" blocking="render">), so that
// the browser does not paint a first view half parsed: a part painted
// small and then whole is two largest contentful paints, and when the
// page's own copy of it came later still, Lighthouse took the wasm's
// download for a cause of the paint.
const EndID = "first-view-end"

// Insert returns the page index with view in place of its loading section
// (<section id="loading" …>…</section>; a view of "" keeps it) and, when
// doc is not nil, the
// shared document in <script type="application/json" id="shared-document">,
// which the page opens instead of asking the share service for it.
func Insert(index []byte, view string, doc []byte) ([]byte, error) {
	start := bytes.Index(index, []byte(`<section id="loading"`))
	if start < 0 {
		return nil, errors.New("firstview: the page has no <section id=\"loading\">")
	}
	n := bytes.Index(index[start:], []byte("</section>"))
	if n < 0 {
		return nil, errors.New("firstview: the page's loading section is not closed")
	}
	end := start + n + len("</section>")
	var b bytes.Buffer
	if view != "" {
		// The playground's page is as wide as the screen (the page adds
		// the class too).
		head := bytes.Replace(index[:start], []byte(`<main id="app"`), []byte(`<main id="app" class="wide"`), 1)
		index = append(head, index[start:]...)
		start, end = len(head), end+len(head)-start
	}
	if view == "" {
		b.Write(index[:end])
	} else {
		b.Write(index[:start])
		b.WriteString(view)
		b.WriteString(`<script id="` + EndID + `" src="firstview.js"></script>`)
	}
	rest := index[end:]
	if doc != nil {
		// At the body's end, outside #app, which the page empties.
		body := bytes.LastIndex(rest, []byte("</body>"))
		if body < 0 {
			return nil, errors.New("firstview: the page has no </body>")
		}
		b.Write(rest[:body])
		b.WriteString(`<script type="application/json" id="shared-document">`)
		b.Write(bytes.ReplaceAll(doc, []byte("<"), []byte(`\u003c`)))
		b.WriteString("</script>\n")
		rest = rest[body:]
	}
	b.Write(rest)
	return b.Bytes(), nil
}

// Page is the page index with its first view drawn in: the default
// model's for the playground's own page (doc nil), the shared model's or
// program's for a shared page, whose document it also embeds. It is
// tapelab/web's FirstViewFunc.
func Page(index, doc []byte) ([]byte, error) {
	var view string
	var err error
	if doc == nil {
		view, err = Default()
	} else {
		view, err = Shared(doc)
	}
	if err != nil {
		return nil, err
	}
	return Insert(index, view, doc)
}
