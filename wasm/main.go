//go:build js && wasm

// Command wasm is TapeLab's playground compiled to WebAssembly. The page's
// loader (static/loader.js) starts it; it renders every view into #app and
// then waits for events.
package main

import (
	"fmt"
	"os"
	"runtime"
	"syscall/js"

	"honnef.co/go/js/dom/v2"

	"tapelab/engine/op"
)

// version is TapeLab's version, shown in the page.
const version = "0.1.0-dev"

func main() {
	mark("go-main")
	p, err := newPage(dom.GetWindow().Document().(dom.HTMLDocument))
	if err != nil {
		fmt.Fprintln(os.Stderr, "tapelab:", err)
		os.Exit(1)
	}
	p.app.SetInnerHTML("")
	pv, err := newPlayground(p)
	if err != nil {
		p.showError(err.Error())
		select {}
	}
	mark("playground-built")
	pv.mount(elem{p.app.Underlying()})
	// The training view, share links and classroom (issue 6); opening the
	// page's link draws the step, once.
	mountShell(p, pv)
	mark("first-render")
	showVersion(p)
	p.app.RemoveAttribute("aria-busy")
	// When Go finished rendering, in ms since navigation: the end-to-end
	// test reads it to measure start-up.
	p.app.SetAttribute("data-rendered-ms", fmt.Sprintf("%.0f", js.Global().Get("performance").Call("now").Float()))
	mark("go-idle")
	select {} // keep the program alive for the views' event listeners
}

// mark records a start-up milestone as performance.mark("tapelab:"+name),
// for the page's performance timeline and the e2e start-up benchmark.
func mark(name string) {
	js.Global().Get("performance").Call("mark", "tapelab:"+name)
}

// showVersion puts the version line (TapeLab's version and the Go
// toolchain that built it; the op count on hover) beside the page's heading.
func showVersion(p *page) {
	v := text(p.doc, "span", "version mono", fmt.Sprintf("v%s · %s %s/%s", version, runtime.Version(), runtime.GOOS, runtime.GOARCH))
	v.SetID("version")
	v.SetAttribute("title", fmt.Sprintf("TapeLab v%s, built with %s for %s/%s; %d ops in the catalogue",
		version, runtime.Version(), runtime.GOOS, runtime.GOARCH, len(op.All())))
	h := p.app.QuerySelector("h1")
	if h == nil {
		p.app.AppendChild(v)
		return
	}
	h.ParentNode().InsertBefore(v, h.NextSibling())
}

// text returns a new element of the given tag and classes holding s.
func text(doc dom.HTMLDocument, tag, class, s string) dom.Element {
	e := doc.CreateElement(tag)
	if class != "" {
		e.SetAttribute("class", class)
	}
	e.SetTextContent(s)
	return e
}
