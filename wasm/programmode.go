//go:build js && wasm

package main

import (
	"strconv"

	"tapelab/wasm/state"

	"tapelab/wasm/dom"
)

// src is the source on screen: the program in Program mode, else the model.
func (pv *playground) src() state.Source { return pv.st.Source() }

// modeSwitch returns the Model/Program switch of the top bar.
func (p *programView) modeSwitch() dom.Elem {
	doc := p.pv.doc
	p.modeModel = doc.Button("Model", "Edit a sequential model and step one training step", func() { p.setMode(false) },
		"id", "edit-model", "aria-pressed", "true")
	p.modeProgram = doc.Button("Program", "Type a small program and step its tape", func() { p.setMode(true) },
		"id", "edit-program", "aria-pressed", "false")
	return dom.Add(doc.El("div", "class", "seg edit-modes", "role", "group", "aria-label", "What to step"), p.modeModel, p.modeProgram)
}

// setMode shows Program mode (on) or the model editor.
func (p *programView) setMode(on bool) { p.pv.st.SetProgramMode(on) }

// showMode shows the controls of the current mode and hides the other's.
func (p *programView) showMode() {
	pv := p.pv
	on := p.ready()
	p.root.Show(on)
	pv.editor.root.Show(!on)
	pv.root.ToggleClass("program-mode", on)
	pv.root.ToggleClass("forward-on", on && p.forward.on)
	p.modeModel.SetAttribute("aria-pressed", strconv.FormatBool(!on))
	p.modeProgram.SetAttribute("aria-pressed", strconv.FormatBool(on))
}
