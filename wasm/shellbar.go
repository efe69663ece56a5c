//go:build js && wasm

package main

import (
	"strings"

	"tapelab/wasm/link"
)

// buildBar adds the shell's bar to the playground's top bar: the view
// switch, sharing, presenter and explain toggles, the classroom settings
// and the downloads.
func (sh *shell) buildBar() {
	u := sh.u
	sh.bar = u.el("div", "class", "shell-bar", "id", "shell-bar")
	sh.viewStep = u.button("Step", "Step through the tape of one training step", func() { sh.setView(link.ViewStep) }, "id", "view-step", "aria-pressed", "true")
	sh.viewTrain = u.button("Train", "Train the model and watch it learn", func() { sh.setView(link.ViewTrain) }, "id", "view-train", "aria-pressed", "false")
	views := add(sh.pv.regions.own("views", u.el("div", "class", "seg views", "role", "group", "aria-label", "View")), sh.viewStep, sh.viewTrain)

	sh.shareURL = u.el("input", "type", "text", "id", "share-url", "readonly", "", "aria-label", "Link to this state", "class", "mono")
	copyBtn := u.button("Copy link", "Copy a link that reopens exactly this state", sh.copyLink, "id", "copy-link", "class", "primary")
	sh.shortBtn = u.button("Short & embed links", "Store the model on the share service: a short link, an embed link and the snippet that frames it on another site", sh.shorten, "id", "short-link")
	sh.notes = u.txt("span", "", "id", "share-notes", "class", "muted small", "role", "status")
	share := add(sh.pv.regions.own("share", u.el("details", "class", "share")), u.txt("summary", "Share"),
		add(u.el("div", "class", "pop"), sh.shareURL, add(u.el("div", "class", "row"), copyBtn, sh.shortBtn), sh.notes, sh.buildMade()))

	sh.presenterBtn = u.button("Presenter", "Large type, thick strokes and high contrast for a projector", func() {
		f := sh.st.Flags()
		f.Presenter = !f.Presenter
		sh.setFlags(f)
	}, "id", "presenter-toggle", "aria-pressed", "false")
	sh.explainBtn = u.button("Explain", "Walk through the chain rule of the current step in words", func() {
		f := sh.st.Flags()
		f.Explain = !f.Explain
		sh.setFlags(f)
	}, "id", "explain-toggle", "aria-pressed", "false")

	add(sh.bar, share, sh.classroomPanel(), sh.exportPanel(), sh.presenterBtn, sh.explainBtn)
	sh.pv.bar.main.AppendChild(views)
	sh.pv.bar.more.AppendChild(sh.bar)
}

// buildMade builds the links a stored share gives (hidden until the share
// service made them): the short link, the embed link and the iframe
// snippet, each with its copy button.
func (sh *shell) buildMade() elem {
	u := sh.u
	sh.made = u.el("div", "class", "share-made", "id", "share-made", "hidden", "")
	for _, f := range []struct{ id, label, copyLabel, done string }{
		{"share-short", "Short link", "Copy short link", "Short link copied."},
		{"share-embed", "Embed link", "Copy embed link", "Embed link copied."},
		{"share-iframe", "Embed on a web page (HTML)", "Copy HTML", "HTML copied."},
	} {
		field := u.el("input", "type", "text", "id", f.id, "readonly", "", "class", "mono share-field")
		copyBtn := u.button(f.copyLabel, "Copy the "+strings.ToLower(f.label), func() { sh.copyText(field, field.Value(), f.done) }, "id", f.id+"-copy")
		add(sh.made, u.txt("label", f.label, "for", f.id, "class", "small"), add(u.el("div", "class", "share-line"), field, copyBtn))
		sh.madeFields = append(sh.madeFields, field)
	}
	return sh.made
}
