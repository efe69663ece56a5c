//go:build js && wasm

// Command wasm is TapeLab's playground compiled to WebAssembly. The page's
// loader (static/loader.js) starts it; it builds the page (wasm/shell and
// the screens it mounts) into #app, in tasks short enough that the page
// stays responsive, and then waits for events.
package main

import (
	"fmt"
	"syscall"

	"tapelab/wasm/dom"
	"tapelab/wasm/shell"
)

func main() {
	dom.Mark("go-main")
	p, err := shell.NewPage()
	if err != nil {
		fmt.Fprintln(dom.Stderr{}, "tapelab:", err)
		syscall.Exit(1)
	}
	// The Go runtime's start ran in the task that instantiated the wasm:
	// the screens are built in tasks of their own, off screen, while the
	// loading screen or the server's first view stays on it.
	p.Pace()
	sh := shell.New(p)
	p.Yield()
	// The page's plain link is opened, its step recorded and laid out in
	// a task of its own, before anything is drawn.
	sh.Load()
	dom.Mark("link-loaded")
	p.Yield()
	// One task replaces what is on screen by the page and draws the step
	// the link opened, but for the editor's cards and the inspector: the
	// first view shows those columns empty too, and they follow once the
	// page is painted and usable (Step works), so that neither task is
	// long and a first click need not wait for them.
	sh.Mount()
	sh.Start()
	p.AfterPaint()
	sh.DrawColumns()
	dom.Mark("first-render")
	sh.Ready()
	select {} // keep the program alive for the page's event listeners
}
