//go:build js && wasm

package stepview

import (
	"strconv"

	"tapelab/wasm/dom"
)

// modeSwitch returns the Model/Program switch of the top bar.
func (p *programView) modeSwitch() dom.Elem {
	doc := p.sv.doc
	p.modeModel = doc.Button("Model", "Edit a sequential model and step one training step", func() { p.setMode(false) },
		"id", "edit-model", "aria-pressed", "true")
	p.modeProgram = doc.Button("Program", "Type a small program and step its tape", func() { p.setMode(true) },
		"id", "edit-program", "aria-pressed", "false")
	return dom.Add(doc.El("div", "class", "seg edit-modes", "role", "group", "aria-label", "What to step"), p.modeModel, p.modeProgram)
}

// setMode shows Program mode (on) or the model editor.
func (p *programView) setMode(on bool) { p.sv.st.SetProgramMode(on) }

// showMode shows the controls of the current mode and hides the other's.
func (p *programView) showMode() {
	sv := p.sv
	on := p.ready()
	p.root.Show(on)
	sv.editor.root.Show(!on)
	sv.d.Mark("program-mode", on)
	sv.d.Mark("forward-on", on && p.forward.on)
	p.modeModel.SetAttribute("aria-pressed", strconv.FormatBool(!on))
	p.modeProgram.SetAttribute("aria-pressed", strconv.FormatBool(on))
}
