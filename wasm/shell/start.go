//go:build js && wasm

package shell

import (
	"runtime"
	"strconv"

	"tapelab/wasm/dom"
)

// version is TapeLab's version, shown in the page.
const version = "0.1.0-dev"

// New builds the page's screens and the shell around them, off screen,
// in slices of start-up (p.Pace): the step view and the tape first, then
// the share bar, the classroom and the lessons; the training view is
// built when first shown. It draws nothing.
func New(p *Page) *Shell {
	pv := newPlayground(p)
	dom.Mark("playground-built")
	// Between the parts of start-up the browser runs its own tasks
	// (paint, input), so that start-up is not one long task.
	p.Yield()
	sh := newShell(p, pv)
	dom.Mark("shell-built")
	return sh
}

// Load opens the page's plain link, records its step and lays its tape
// out, before any screen follows the state (see load).
func (sh *Shell) Load() { sh.load() }

// Mount replaces what is on screen (the loading screen or the server's
// first view) by the page, in one task, taking the first view's tape
// drawing over: nothing half-built is painted. The editor's cards and the
// inspector are held back until DrawColumns.
func (sh *Shell) Mount() {
	pv := sh.pv
	pv.tape.TakeFirstView()
	pv.p.app.SetInnerHTML("")
	pv.mount(pv.p.app)
	pv.steps.HoldColumns()
}

// Start follows the page's state and draws the step the link opened (see
// start): the screens have drawn it when Start returns.
func (sh *Shell) Start() { sh.start() }

// DrawColumns draws the editor's cards and the inspector that Mount held
// back, each in a task of its own.
func (sh *Shell) DrawColumns() { sh.pv.drawColumns() }

// Ready marks the page usable: #app is no longer busy, and carries when Go
// finished rendering (data-rendered-ms, ms since navigation) and what Go
// allocated during its start-up, for the start-up benchmarks.
func (sh *Shell) Ready() {
	app := sh.pv.p.app
	app.RemoveAttribute("aria-busy")
	app.SetAttribute("data-rendered-ms", strconv.FormatFloat(dom.Now(), 'f', 0, 64))
	dom.Mark("go-idle")
	recordStartup(app)
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
