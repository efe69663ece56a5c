//go:build js && wasm

package main

import (
	"tapelab/engine/jsontext"
	"tapelab/engine/program"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
)

// src is the source on screen: the program in Program mode, else the model.
func (pv *playground) src() state.Source { return pv.st.Source() }

// modeSwitch returns the Model/Program switch of the top bar.
func (p *programView) modeSwitch() elem {
	doc := p.pv.doc
	p.modeModel = doc.button("Model", "Edit a sequential model and step one training step", func() { p.setMode(false) },
		"id", "edit-model", "aria-pressed", "true")
	p.modeProgram = doc.button("Program", "Type a small program and step its tape", func() { p.setMode(true) },
		"id", "edit-program", "aria-pressed", "false")
	return add(doc.el("div", "class", "seg edit-modes", "role", "group", "aria-label", "What to step"), p.modeModel, p.modeProgram)
}

// setMode shows Program mode (on) or the model editor.
func (p *programView) setMode(on bool) { p.pv.st.SetProgramMode(on) }

// showMode shows the controls of the current mode and hides the other's.
func (p *programView) showMode() {
	pv := p.pv
	on := p.on()
	p.root.show(on)
	pv.editor.root.show(!on)
	pv.root.ToggleClass("program-mode", on)
	pv.root.ToggleClass("forward-on", on && p.forward.on)
	p.modeModel.SetAttribute("aria-pressed", boolStr(!on))
	p.modeProgram.SetAttribute("aria-pressed", boolStr(on))
}

// isProgramDocument reports whether a stored document is a program's (a
// JSON object with a "program" member) rather than a model's.
func isProgramDocument(body string) bool {
	v, err := jsontext.Parse([]byte(body), jsontext.Options{})
	return err == nil && v.Kind == jsontext.Object && v.Field("program") != nil
}

// decodeProgramDocument returns the program a stored document holds.
func decodeProgramDocument(body string) (string, error) {
	src, _, err := program.DecodeDocument([]byte(body))
	return src, err
}

// shortenProgram asks the share service to store the program on screen and
// copies the short link: /s/{id} alone at the start with the default modes
// and no classroom flags, else followed by the program's link, which holds
// the position, modes and flags (a link has no envelope without a model or
// a program).
func (sh *shell) shortenProgram() {
	st := sh.st.Link()
	doc, err := program.EncodeDocument(st.Program)
	if err != nil {
		sh.notes.SetTextContent("No short link: " + err.Error())
		return
	}
	frag := ""
	if !st.Pos.IsStart() || st.Modes != (app.Modes{}) || !noFlags(st.Flags) || st.Accumulate {
		if frag, err = link.Encode(st); err != nil {
			sh.notes.SetTextContent("No short link: " + err.Error())
			return
		}
	}
	sh.postShare(doc, frag)
}

// noFlags reports whether f holds no classroom flag.
func noFlags(f link.Flags) bool {
	return len(f.Hide) == 0 && len(f.Lock) == 0 && !f.Embed && !f.Presenter && !f.Explain
}
