//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"errors"

	"tapelab/wasm/app"
)

// Page is the document the views render into, with the Page-wide error box.
type Page struct {
	doc    *dom.Document
	app    dom.Elem   // #app, which the views fill
	errBox dom.Elem   // #error, shared with the loader
	scale  *app.Scale // the value scale, in the palette's colours
	// resumed is when start-up last came back from the browser
	// (performance.now, ms; see pace).
	resumed float64
}

// startupSlice is how long a part of start-up runs at most before it lets
// the browser run its own tasks, in ms: a task over 50 ms delays input,
// and Lighthouse's mobile preset counts what is beyond 50 ms as blocking
// time after it multiplied each task of the page as it ran by 4 (its
// simulated CPU slowdown): so 10 ms, not 50.
const startupSlice = 10

// Pace lets the browser run its tasks (yieldToBrowser) when start-up has
// run for startupSlice ms since it last did. Only main's start-up calls
// it (newPlayground, newShell, drawColumns): a listener must never block.
func (p *Page) Pace() {
	if dom.Now()-p.resumed < startupSlice {
		return
	}
	p.Yield()
}

// Yield lets the browser run its tasks now (yieldToBrowser) and starts
// start-up's next slice.
func (p *Page) Yield() {
	dom.YieldToBrowser()
	p.resumed = dom.Now()
}

// AfterPaint returns once the browser has painted (AfterPaint) and starts
// start-up's next slice.
func (p *Page) AfterPaint() {
	dom.AfterPaint()
	p.resumed = dom.Now()
}

// NewPage finds the elements of static/index.html that the views need.
func NewPage() (*Page, error) {
	p := &Page{}
	p.doc = dom.NewDocument(p.showError)
	p.app, p.errBox = p.doc.ByID("app"), p.doc.ByID("error")
	if !p.app.OK() || !p.errBox.OK() {
		return nil, errors.New("the page has no #app or #error element; is this TapeLab's index.html?")
	}
	// The value scale's colours are the stylesheet's; they do not change
	// with presenter mode, so they are read once.
	var c [6]string
	for i, prop := range app.ScaleProperties {
		c[i] = p.doc.Root().Style(prop)
	}
	var err error
	if p.scale, err = app.NewScale(c); err != nil {
		return nil, err
	}
	return p, nil
}

// showError shows in the page's error box that TapeLab recovered from an
// internal error: in plain words, with a way back to the default model (the
// page without the document's link or share id, which the address bar
// keeps) and msg, what the panic said and where (see recovered), folded
// away under the technical details. The page goes on working, and the
// message can be dismissed.
func (p *Page) showError(msg string) {
	p.errBox.Clear()
	dom.Add(p.errBox,
		p.doc.Txt("strong", "TapeLab hit an internal error.", "class", "error-title"),
		p.doc.Txt("p", "What you did last may not have finished, but the page still works. If it misbehaves, open the default model; the link in the address bar keeps your work, to try again or to report the problem."),
		dom.Add(p.doc.El("p", "class", "error-actions"),
			p.doc.Txt("a", "Open the default model", "id", "error-default", "class", "button", "href", "./"),
			p.doc.Button("Dismiss", "Hide this message", func() { p.errBox.SetAttribute("hidden", "") }, "id", "error-dismiss", "class", "secondary")),
		dom.Add(p.doc.El("details"), p.doc.Txt("summary", "Technical details"), p.doc.Txt("pre", msg)))
	p.errBox.RemoveAttribute("hidden")
}
