//go:build js && wasm

// Command wasm is TapeLab's playground compiled to WebAssembly. The page's
// loader (static/loader.js) starts it; it renders every view into #app and
// then waits for events.
package main

import (
	"tapelab/wasm/dom"

	"fmt"
	"runtime"
	"strconv"
	"syscall"
)

// version is TapeLab's version, shown in the page.
const version = "0.1.0-dev"

func main() {
	dom.Mark("go-main")
	p, err := newPage()
	if err != nil {
		fmt.Fprintln(dom.Stderr{}, "tapelab:", err)
		syscall.Exit(1)
	}
	// The Go runtime's start ran in the task that instantiated the wasm:
	// the views are built in tasks of their own.
	p.pace()
	pv := newPlayground(p)
	dom.Mark("playground-built")
	// The views are built off screen while the loading screen or the
	// server's first view stays on it. Between the parts of start-up the
	// browser runs its own tasks (paint, input), so that start-up is not
	// one long task.
	p.yield()
	// Share links, classroom, lessons; the training view is built when
	// first shown.
	sh := newShell(p, pv)
	dom.Mark("shell-built")
	p.yield()
	// The page's plain link is opened, its step recorded and laid out in
	// a task of its own, before anything is drawn (start announces it).
	sh.load()
	dom.Mark("link-loaded")
	p.yield()
	// The page replaces what is on screen in one task, taking the first
	// view's tape over: nothing half-built is painted.
	pv.tape.TakeFirstView()
	p.app.SetInnerHTML("")
	pv.mount(p.app)
	// Opening the page's link draws the step, once, but for the editor's
	// cards and the inspector: the first view shows those columns empty
	// too, and they follow once the page is painted and usable (Step
	// works), so that neither task is long and a first click need not
	// wait for them.
	pv.steps.HoldColumns()
	sh.start() // the views have drawn the state the link opened when it returns
	p.afterPaint()
	pv.drawColumns()
	dom.Mark("first-render")
	p.app.RemoveAttribute("aria-busy")
	// When Go finished rendering, in ms since navigation: the end-to-end
	// test reads it to measure start-up.
	p.app.SetAttribute("data-rendered-ms", fmt.Sprintf("%.0f", dom.Now()))
	dom.Mark("go-idle")
	recordStartup(p.app)
	select {} // keep the program alive for the views' event listeners
}

// recordStartup writes what Go allocated during its start-up (objects,
// bytes, collections) into app's data-go-mallocs, data-go-alloc-bytes and
// data-go-gcs, for the end-to-end start-up benchmark.
func recordStartup(app dom.Elem) {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	app.SetAttribute("data-go-mallocs", strconv.FormatUint(m.Mallocs, 10))
	app.SetAttribute("data-go-alloc-bytes", strconv.FormatUint(m.TotalAlloc, 10))
	app.SetAttribute("data-go-gcs", strconv.FormatUint(uint64(m.NumGC), 10))
}
