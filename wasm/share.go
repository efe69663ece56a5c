//go:build js && wasm

package main

import (
	"tapelab/engine/jsontext"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// copyLink copies the current link to the clipboard.
func (sh *shell) copyLink() {
	sh.syncOnce()
	sh.copyText(sh.shareURL.Value(), "Link copied.")
}

func (sh *shell) copyText(text, done string) {
	sh.shareURL.SetValue(text)
	sh.shareURL.Select()
	copyToClipboard(sh.u, text, func(ok bool) {
		if ok {
			sh.notes.SetTextContent(done)
		} else {
			sh.notes.SetTextContent("Select the link above and copy it (Ctrl+C).")
		}
	})
}

// shorten asks the share service for a short link: the model document
// (with its weights) is stored, and the short link's fragment carries the
// rest of the state. Without a service (a static copy) it says so and the
// long link stays usable.
func (sh *shell) shorten() {
	if sh.st.ProgramMode() {
		sh.shortenProgram()
		return
	}
	st := sh.st.Link()
	doc, err := spec.Encode(st.Model)
	if err != nil {
		sh.notes.SetTextContent("No short link: " + err.Error())
		return
	}
	rest := *st
	rest.Model = cloneWithoutParams(st.Model)
	frag, err := link.Encode(&rest)
	if err != nil {
		sh.notes.SetTextContent("No short link: " + err.Error())
		return
	}
	sh.postShare(doc, frag)
}

// postShare stores doc on the share service and copies the short link,
// followed by #frag when frag is not empty.
func (sh *shell) postShare(doc []byte, frag string) {
	sh.notes.SetTextContent("Asking the share service…")
	go func() {
		status, body, err := fetchText("POST", "api/share", string(doc))
		recovered("short link", sh.u.report, func() {
			url, err := app.CreatedShare(status, body, err)
			if err != nil {
				sh.notes.SetTextContent("Short links need TapeLab's share service, and " + err.Error() + ". The long link above works everywhere: copy it instead.")
				sh.shortBtn.SetAttribute("data-unavailable", "true")
				return
			}
			origin := currentLocation().origin
			short := origin + url
			if frag != "" {
				short += "#" + frag
			}
			sh.copyText(short, "Short link copied.")
			sh.shortBtn.SetAttribute("data-short", short)
		})
	}()
}

// cloneWithoutParams returns m without its parameter values.
func cloneWithoutParams(m *spec.Model) *spec.Model {
	c := *m
	c.Params = nil
	return &c
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
// copies the short link: /s/{id} alone at the start with the default modes,
// in reverse mode and with no classroom flags, else followed by the
// program's link, which holds the position, modes, forward mode and flags (a link has no envelope without a model or
// a program).
func (sh *shell) shortenProgram() {
	st := sh.st.Link()
	doc, err := program.EncodeDocument(st.Program)
	if err != nil {
		sh.notes.SetTextContent("No short link: " + err.Error())
		return
	}
	frag := ""
	if !st.Pos.IsStart() || st.Modes != (app.Modes{}) || !noFlags(st.Flags) || st.Accumulate || st.Forward != nil {
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
