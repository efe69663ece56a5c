//go:build js && wasm

package shell

import (
	"strconv"
	"tapelab/wasm/dom"
)

// wideScreen is the breakpoint of static/style.css: from it up, the
// editor and the inspector are columns beside the tape; below, each opens
// as a drawer (a sheet on a phone) over the tape, so that the tape stays
// the main region.
const wideScreen = "(min-width: 1240px)"

// phoneScreen is the phone breakpoint of static/style.css, where the
// panels are sheets under the tape and a lesson fills the stepper's
// second row.
const phoneScreen = "(max-width: 599px)"

// panels are the regions beside the tape a person opens and closes: the
// model or program editor and the inspector. Each has a toggle in the
// stepper's row; the open ones are classes on the playground
// (editor-open, inspector-open), and the stylesheet shows an open panel as
// a column or a drawer, by the screen's width.
type panels struct {
	pv                 *playground
	editorBtn, inspBtn dom.Elem
	wide               bool // the screen has room for columns
	fitted             bool // wide has been set once
	presenting         bool
	explaining         bool
	// quiet leaves the inspector closed the next time a node is chosen
	// (showInspector): a lesson's verdict on a phone shows its node on
	// the tape, beside the lesson, not in a sheet over the lesson.
	quiet bool
}

// newPanels makes the toggles; mount puts them in place.
func newPanels(pv *playground) *panels {
	doc := pv.doc
	ps := &panels{pv: pv}
	ps.editorBtn = doc.Button("Editor", "Show or hide the model or program editor", func() { ps.toggle(ps.editorBtn, "editor-open") },
		"id", "panel-editor", "aria-controls", "editor program-editor", "aria-expanded", "false")
	ps.inspBtn = doc.Button("Inspector", "Show or hide the inspector: the node's numbers and its chain rule", func() { ps.toggle(ps.inspBtn, "inspector-open") },
		"id", "panel-inspector", "aria-controls", "inspector", "aria-expanded", "false")
	return ps
}

// tabs is the group of toggles.
func (ps *panels) tabs() dom.Elem {
	return dom.Add(ps.pv.doc.El("div", "class", "panel-tabs", "role", "group", "aria-label", "Panels"), ps.editorBtn, ps.inspBtn)
}

// fitScreen opens the panels the screen has room for, when the page first
// shows and whenever the screen changes from one layout to another (a
// phone turned, a window resized): the choices a person made stay while
// the layout does.
func (ps *panels) fitScreen() {
	wide := dom.MediaMatches(wideScreen)
	if ps.fitted && wide == ps.wide {
		return
	}
	ps.wide, ps.fitted = wide, true
	ps.set(ps.editorBtn, "editor-open", wide)
	ps.set(ps.inspBtn, "inspector-open", wide)
}

// toggle opens or closes a panel. Drawers open one at a time.
func (ps *panels) toggle(btn dom.Elem, open string) {
	on := btn.GetAttribute("aria-expanded") != "true"
	if on {
		ps.closeDrawers()
	}
	ps.set(btn, open, on)
}

// set opens (on) or closes a panel, then fits the tape to its new room.
func (ps *panels) set(btn dom.Elem, open string, on bool) {
	btn.SetAttribute("aria-expanded", strconv.FormatBool(on))
	ps.pv.root.ToggleClass(open, on)
	dom.NextFrame(ps.pv.doc, "fit", ps.pv.tape.Fit)
}

// closeDrawers closes the panels when they are drawers (on a screen
// without room for columns).
func (ps *panels) closeDrawers() {
	if !ps.wide {
		ps.set(ps.editorBtn, "editor-open", false)
		ps.set(ps.inspBtn, "inspector-open", false)
	}
}

// showInspector opens the inspector (a node was chosen to inspect).
func (ps *panels) showInspector() {
	if ps.quiet {
		ps.quiet = false
		return
	}
	if ps.inspBtn.GetAttribute("aria-expanded") != "true" {
		ps.toggle(ps.inspBtn, "inspector-open")
	}
}

// present follows presenter mode: when it starts, the editor steps aside
// (the tape gets the room; its toggle opens it again).
func (ps *panels) present(on bool) {
	if on && !ps.presenting {
		ps.set(ps.editorBtn, "editor-open", false)
	}
	ps.presenting = on
}

// explainWide is the breakpoint of static/style.css from which the
// explain panel is a column of its own; below it, it is a drawer over the
// tape's region.
const explainWide = "(min-width: 1600px)"

// explain follows the explain panel: when it opens as a drawer over the
// tape, the editor steps aside, as when presenting, so that the tape keeps
// room beside the drawer (its toggle opens it again).
func (ps *panels) explain(on bool) {
	if on && !ps.explaining && ps.wide && !dom.MediaMatches(explainWide) {
		ps.set(ps.editorBtn, "editor-open", false)
	}
	ps.explaining = on
}
