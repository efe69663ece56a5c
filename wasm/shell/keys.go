//go:build js && wasm

package shell

import (
	"tapelab/wasm/app"

	"tapelab/wasm/dom"
)

// guardKeys stops the playground's keyboard shortcuts for controls the
// classroom flags lock or hide (the Lock of each app.Keys entry).
func (sh *Shell) guardKeys(ev dom.Event) {
	k, ok := app.KeyFor(ev.Key(), ev.Mod("ctrlKey") || ev.Mod("metaKey"))
	if ok && k.Lock != "" && sh.st.Locked(k.Lock) {
		ev.StopImmediatePropagation()
		ev.PreventDefault()
	}
}

// typing reports whether a key event belongs to a text field.
func typing(ev dom.Event) bool {
	tag := ev.Target().TagName()
	return tag == "INPUT" || tag == "SELECT" || tag == "TEXTAREA"
}

// onKey runs the keyboard shortcut of app.Keys that ev presses.
func (pv *playground) onKey(ev dom.Event) {
	k, ok := app.KeyFor(ev.Key(), ev.Mod("ctrlKey"))
	if !ok || !k.Anywhere && (typing(ev) || ev.Mod("altKey") || ev.Mod("metaKey")) {
		return
	}
	if d := stopDelta(k.Action); d != 0 {
		if pv.onStop(d) { // without a lesson the key keeps its default (PageDown scrolls)
			ev.PreventDefault()
		}
		return
	}
	pv.do(k.Action)
	if k.Action != app.ActClose {
		ev.PreventDefault()
	}
}

// stopDelta is +1 for the next lesson stop's action, -1 for the
// previous one's, and 0 for every other action.
func stopDelta(a app.Action) int {
	switch a {
	case app.ActNextStop:
		return 1
	case app.ActPrevStop:
		return -1
	}
	return 0
}

// do runs a keyboard action.
func (pv *playground) do(a app.Action) {
	switch a {
	case app.ActStep:
		pv.steps.Step()
	case app.ActBack:
		pv.steps.Back()
	case app.ActPlay:
		pv.steps.TogglePlay()
	case app.ActToBackward:
		pv.steps.ToBackward()
	case app.ActReset:
		pv.steps.Reset()
	case app.ActFit:
		pv.tape.FitAll()
	case app.ActZoomIn:
		pv.tape.Zoom(1.25)
	case app.ActZoomOut:
		pv.tape.Zoom(1 / 1.25)
	case app.ActUndo:
		pv.undo()
	case app.ActRedo:
		pv.redo()
	case app.ActShortcuts:
		pv.bar.toggleShortcuts()
	case app.ActClose:
		pv.bar.closeShortcuts()
		pv.bar.openMenu(false)
		pv.panels.closeDrawers()
	}
}
