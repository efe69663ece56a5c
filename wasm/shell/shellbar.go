//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"strings"

	"tapelab/wasm/link"
)

// buildBar adds the shell's bar to the playground's top bar: the view
// switch, sharing, presenter and explain toggles, the classroom settings
// and the downloads.
func (sh *Shell) buildBar() {
	u := sh.u
	sh.bar = u.El("div", "class", "shell-bar", "id", "shell-bar")
	sh.viewStep = u.Button("Step", "Step through the tape of one training step", func() { sh.setView(link.ViewStep) }, "id", "view-step", "aria-pressed", "true")
	sh.viewTrain = u.Button("Train", "Train the model and watch it learn", func() { sh.setView(link.ViewTrain) }, "id", "view-train", "aria-pressed", "false")
	views := dom.Add(sh.pv.regions.own("views", u.El("div", "class", "seg views", "role", "group", "aria-label", "View")), sh.viewStep, sh.viewTrain)

	sh.shareURL = u.El("input", "type", "text", "id", "share-url", "readonly", "", "aria-label", "Link to this state", "class", "mono")
	copyBtn := u.Button("Copy link", "Copy a link that reopens exactly this state", sh.copyLink, "id", "copy-link", "class", "primary")
	sh.shortBtn = u.Button("Short & embed links", "Store the model on the share service: a short link, an embed link and the snippet that frames it on another site", sh.shorten, "id", "short-link")
	sh.notes = u.Txt("span", "", "id", "share-notes", "class", "muted small", "role", "status")
	share := dom.Add(sh.pv.regions.own("share", u.El("details", "class", "share")), u.Txt("summary", "Share"),
		dom.Add(u.El("div", "class", "pop"), sh.shareURL, dom.Add(u.El("div", "class", "row"), copyBtn, sh.shortBtn), sh.notes, sh.buildMade()))

	sh.presenterBtn = u.Button("Presenter", "Large type, thick strokes and high contrast for a projector", func() {
		f := sh.st.Flags()
		f.Presenter = !f.Presenter
		sh.setFlags(f)
	}, "id", "presenter-toggle", "aria-pressed", "false")
	sh.explainBtn = u.Button("Explain", "Walk through the chain rule of the current step in words", func() {
		f := sh.st.Flags()
		f.Explain = !f.Explain
		sh.setFlags(f)
	}, "id", "explain-toggle", "aria-pressed", "false")

	dom.Add(sh.bar, share, sh.classroomPanel(), sh.exportPanel(), sh.presenterBtn, sh.explainBtn)
	sh.pv.bar.main.AppendChild(views)
	sh.pv.bar.more.AppendChild(sh.bar)
}

// buildMade builds the links a stored share gives (hidden until the share
// service made them): the short link, the embed link and the iframe
// snippet, each with its copy button.
func (sh *Shell) buildMade() dom.Elem {
	u := sh.u
	sh.made = u.El("div", "class", "share-made", "id", "share-made", "hidden", "")
	for _, f := range []struct{ id, label, copyLabel, done string }{
		{"share-short", "Short link", "Copy short link", "Short link copied."},
		{"share-embed", "Embed link", "Copy embed link", "Embed link copied."},
		{"share-iframe", "Embed on a web page (HTML)", "Copy HTML", "HTML copied."},
	} {
		field := u.El("input", "type", "text", "id", f.id, "readonly", "", "class", "mono share-field")
		copyBtn := u.Button(f.copyLabel, "Copy the "+strings.ToLower(f.label), func() { sh.copyText(field, field.Value(), f.done) }, "id", f.id+"-copy")
		dom.Add(sh.made, u.Txt("label", f.label, "for", f.id, "class", "small"), dom.Add(u.El("div", "class", "share-line"), field, copyBtn))
		sh.madeFields = append(sh.madeFields, field)
	}
	return sh.made
}
