//go:build js && wasm

package main

import (
	"errors"

	"tapelab/engine/jsontext"
	"tapelab/engine/program"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// source is what the tape's views step and show: the model's training step
// (app.Playground) or a program (app.ProgramPlayground). Both record into
// the same Recording and Stepper, so the tape, the inspector, the listings,
// the passes and the gradient check serve both.
type source interface {
	Stepper() *app.Stepper
	Recording() *app.Recording
	Modes() app.Modes
	SetModes(app.Modes) error
	Passes() (app.Passes, error)
	GradCheck(yield func()) (app.GradCheck, error)
	IRListing() ([]app.IRLine, error)
	Err() error
	Undo() (bool, error)
	Redo() (bool, error)
}

// src is the source on screen: the program in Program mode, else the model.
func (pv *playground) src() source {
	if pv.prog != nil && pv.prog.on {
		return pv.prog.pg
	}
	return pv.pg
}

// modeSwitch returns the Model/Program switch of the top bar.
func (p *programView) modeSwitch() elem {
	doc := p.pv.doc
	p.modeModel = doc.button("Model", "Edit a sequential model and step one training step", func() { p.setMode(false) },
		"id", "edit-model", "aria-pressed", "true")
	p.modeProgram = doc.button("Program", "Type a small program and step its tape", func() { p.setMode(true) },
		"id", "edit-program", "aria-pressed", "false")
	return add(doc.el("div", "class", "seg edit-modes", "role", "group", "aria-label", "What to step"), p.modeModel, p.modeProgram)
}

// setMode shows Program mode (on) or the model editor, and draws its tape.
func (p *programView) setMode(on bool) {
	pv := p.pv
	if p.on == on {
		return
	}
	pv.stepper.pause()
	p.on = on
	p.showMode()
	pv.rebuilt()
}

// showMode shows the controls of the current mode and hides the other's.
func (p *programView) showMode() {
	pv := p.pv
	on := p.on
	p.root.show(on)
	pv.editor.root.show(!on)
	pv.root.ToggleClass("program-mode", on)
	pv.root.ToggleClass("forward-on", on && p.forward.on)
	p.modeModel.SetAttribute("aria-pressed", boolStr(!on))
	p.modeProgram.SetAttribute("aria-pressed", boolStr(on))
	// A program has no dataset, no layers to put in eval mode and no
	// weights to penalise.
	pv.bar.dataset.Closest("label").show(!on)
	pv.bar.toggles["mode"][0].Closest(".seg").show(!on)
	pv.bar.l2.Closest("label").show(!on)
	p.onMode(on)
}

// programMode hides the Step/Train switch in Program mode (a program is
// stepped, not trained) and shows the stepping view.
func (sh *shell) programMode(on bool) {
	sh.viewStep.Closest(".seg").show(!on)
	if on {
		sh.setView(link.ViewStep)
	}
	sh.linkSync.changed()
}

// applyProgram opens a program link: the program with its modes and
// position, and the link's classroom flags.
func (sh *shell) applyProgram(st *link.State) error {
	c := *st
	c.Model = link.Default().Model // the model side stays the default
	sh.st.Replace(&c)
	sh.pv.hygiene.setZeroing(!st.Accumulate)
	var errs []error
	if err := sh.pv.prog.open(st.Program, st.Modes); err != nil {
		errs = append(errs, err)
	}
	if s := sh.pv.src().Stepper(); s != nil {
		if err := link.Seek(s, st.Pos); err != nil {
			errs = append(errs, err)
		}
	}
	sh.applyFlags()
	sh.setView(link.ViewStep)
	return errors.Join(errs...)
}

// programState is the page's state as a program link carries it.
func (sh *shell) programState() *link.State {
	pg := sh.pv.prog.pg
	st := &link.State{Program: pg.Text(), Modes: pg.Modes(), View: link.ViewStep, Flags: sh.st.Flags(),
		Accumulate: !sh.pv.hygiene.zeroing()}
	if s := pg.Stepper(); s != nil && pg.Recorded() {
		st.Pos = link.PositionOf(s)
	}
	return st
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
	st := sh.programState()
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
