//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"

	"tapelab/wasm/app"
)

// page is the document the views render into, with the page-wide error box.
type page struct {
	doc    *document
	app    elem       // #app, which the views fill
	errBox elem       // #error, shared with the loader
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

// pace lets the browser run its tasks (yieldToBrowser) when start-up has
// run for startupSlice ms since it last did. Only main's start-up calls
// it (newPlayground, newShell, drawColumns): a listener must never block.
func (p *page) pace() {
	if now()-p.resumed < startupSlice {
		return
	}
	p.yield()
}

// yield lets the browser run its tasks now (yieldToBrowser) and starts
// start-up's next slice.
func (p *page) yield() {
	yieldToBrowser()
	p.resumed = now()
}

// afterPaint returns once the browser has painted (afterPaint) and starts
// start-up's next slice.
func (p *page) afterPaint() {
	afterPaint()
	p.resumed = now()
}

// newPage finds the elements of static/index.html that the views need.
func newPage() (*page, error) {
	p := &page{}
	p.doc = newDocument(p.showError)
	p.app, p.errBox = p.doc.byID("app"), p.doc.byID("error")
	if !p.app.ok() || !p.errBox.ok() {
		return nil, errors.New("the page has no #app or #error element; is this TapeLab's index.html?")
	}
	// The value scale's colours are the stylesheet's; they do not change
	// with presenter mode, so they are read once.
	var c [6]string
	for i, prop := range app.ScaleProperties {
		c[i] = p.doc.root().Style(prop)
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
func (p *page) showError(msg string) {
	p.errBox.clear()
	add(p.errBox,
		p.doc.txt("strong", "TapeLab hit an internal error.", "class", "error-title"),
		p.doc.txt("p", "What you did last may not have finished, but the page still works. If it misbehaves, open the default model; the link in the address bar keeps your work, to try again or to report the problem."),
		add(p.doc.el("p", "class", "error-actions"),
			p.doc.txt("a", "Open the default model", "id", "error-default", "class", "button", "href", "./"),
			p.doc.button("Dismiss", "Hide this message", func() { p.errBox.SetAttribute("hidden", "") }, "id", "error-dismiss", "class", "secondary")),
		add(p.doc.el("details"), p.doc.txt("summary", "Technical details"), p.doc.txt("pre", msg)))
	p.errBox.RemoveAttribute("hidden")
}

// stack returns the calling goroutine's stack trace, as runtime/debug.Stack
// does: runtime/debug, for this one call, would add 1.6 KB (brotli) to the
// page.
func stack() []byte {
	buf := make([]byte, 1024)
	for {
		if n := runtime.Stack(buf, false); n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}

// stderr is the Go program's standard error (file descriptor 2), which
// the page's loader keeps to show a panic: written through syscall, the
// program does without package os and its start-up.
type stderr struct{}

// Write writes p to standard error.
func (stderr) Write(p []byte) (int, error) { return syscall.Write(2, p) }

// recovered calls fn; if fn panics, it reports "name: <panic value>" and
// logs the stack to standard error. Every entry point from JavaScript (event
// listeners, callbacks, goroutines they start) runs its work through it, so
// that a panic is shown in the page instead of stopping the Go program.
func recovered(name string, report func(string), fn func()) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(stderr{}, "panic in %s: %v\n%s", name, r, stack())
			report(fmt.Sprintf("%s: %v", name, r))
		}
	}()
	fn()
}
