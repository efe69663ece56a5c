//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"tapelab/engine/jsontext"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// copyLink copies the current link to the clipboard.
func (sh *Shell) copyLink() {
	sh.syncOnce()
	sh.copyText(sh.shareURL, sh.shareURL.Value(), "Link copied.")
}

// copyText puts text in field, selects it (so that a person can copy it by
// hand if the clipboard refuses) and copies it, saying done when it did.
func (sh *Shell) copyText(field dom.Elem, text, done string) {
	field.SetValue(text)
	field.Select()
	dom.CopyToClipboard(sh.u, text, func(ok bool) {
		if ok {
			sh.notes.SetTextContent(done)
		} else {
			sh.notes.SetTextContent("Select the text above and copy it (Ctrl+C).")
		}
	})
}

// shorten asks the share service for a short link: the model document
// (with its weights) is stored, and the short link's fragment carries the
// rest of the state. Without a service (a static copy) it says so and the
// long link stays usable.
func (sh *Shell) shorten() {
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

// postShare stores doc on the share service, shows the short link, the
// embed link and the iframe snippet (each followed by #frag when frag is
// not empty) and copies the short link. When the service cannot store it,
// it says why; the long link stays as it was.
func (sh *Shell) postShare(doc []byte, frag string) {
	sh.notes.SetTextContent("Asking the share service…")
	go func() {
		status, body, err := dom.FetchText("POST", "api/share", string(doc))
		dom.Recovered("short link", sh.u.Report, func() {
			url, err := app.CreatedShare(status, body, err)
			var links app.ShareLinks
			if err == nil {
				links, err = app.LinksFor(dom.CurrentLocation().Origin, url, frag)
			}
			if err != nil {
				sh.made.Show(false)
				sh.notes.SetTextContent("Short and embed links need TapeLab's share service, and " + err.Error() + ". The long link above works everywhere: copy it instead.")
				sh.shortBtn.SetAttribute("data-unavailable", "true")
				return
			}
			sh.shortBtn.RemoveAttribute("data-unavailable")
			for i, v := range []string{links.Short, links.Embed, links.IFrame} {
				sh.madeFields[i].SetValue(v)
			}
			sh.made.Show(true)
			sh.copyText(sh.madeFields[0], links.Short, "Short link copied. The embed link and its HTML are below it.")
			sh.shortBtn.SetAttribute("data-short", links.Short)
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
// program's link, which holds the position, modes, forward mode, flags
// and the update phase with its optimizer and weights (a link has no
// envelope without a model or a program).
func (sh *Shell) shortenProgram() {
	st := sh.st.Link()
	doc, err := program.EncodeDocument(st.Program)
	if err != nil {
		sh.notes.SetTextContent("No short link: " + err.Error())
		return
	}
	frag := ""
	if !st.Pos.IsStart() || st.Modes != (app.Modes{}) || !noFlags(st.Flags) || st.Accumulate || st.Forward != nil ||
		st.Optimizer != nil || st.Params != nil || st.Update != nil {
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
