//go:build js && wasm

package main

import (
	"tapelab/wasm/ui"

	"tapelab/wasm/app"

	"tapelab/wasm/dom"
)

// explainPanel walks through the current step in plain words: what the
// node computed going forward, and going backward how the chain rule turns
// its finished gradient into its parents' gradients, with the numbers.
// The words come from the op catalogue's Formula and Rule (through the
// stepper's Card) and from the cursor's position.
type explainPanel struct {
	u    *dom.Document
	pv   *playground
	root dom.Elem
	body dom.Elem
	key  explainKey // what is shown, to redraw only on change
	// followsBar is set once the panel follows the stepper's bar's height.
	followsBar bool
}

// explainKey says which stepper and which place in it the panel shows.
type explainKey struct {
	s                   *app.Stepper
	known, steps, focus int
}

func newExplainPanel(u *dom.Document, pv *playground) *explainPanel {
	e := &explainPanel{u: u, pv: pv}
	// Focusable: a keyboard scrolls it when its words run past its height.
	e.root = u.El("aside", "id", "explain", "class", "explain", "aria-labelledby", "explain-title", "tabindex", "0", "hidden", "")
	e.body = u.El("div", "class", "explain-body", "aria-live", "polite")
	dom.Add(e.root, u.Txt("h2", "What just happened", "id", "explain-title"), e.body)
	return e
}

// show shows or hides the panel. Shown, it ends above the stepper's bar:
// the bar's height is its --bottom-bar, followed from the first time it
// is shown (a page without the panel does not measure the bar).
func (e *explainPanel) show(on bool) {
	e.root.Show(on)
	if on && !e.followsBar {
		e.followsBar = true
		bar := ""
		dom.OnResize(e.u, e.pv.bottom, "the bottom bar", func() {
			if h := ui.F1(e.pv.bottom.Rect().Height) + "px"; h != bar {
				bar = h
				e.root.SetStyle("--bottom-bar", h)
				// The drawer moved: the tape is fitted to what it leaves.
				e.pv.tape.DrawerMoved()
			}
		})
	}
}

// refresh redraws the panel when the stepper moved.
func (e *explainPanel) refresh() {
	if e.root.HasAttribute("hidden") {
		return
	}
	s := e.pv.src().Stepper()
	if s == nil {
		return
	}
	pos := s.Position()
	key := explainKey{s, pos.Known, pos.Steps, s.Focus()}
	if key == e.key {
		return
	}
	e.key = key
	e.body.Clear()
	for _, p := range app.Walkthrough(s) {
		e.body.AppendChild(e.u.Txt("p", p))
	}
}
