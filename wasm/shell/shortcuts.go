//go:build js && wasm

package shell

import (
	"tapelab/wasm/app"

	"tapelab/wasm/dom"
)

// toggleShortcuts shows or hides the shortcuts (made when first shown).
func (v *barView) toggleShortcuts() {
	if !v.shortcuts.OK() {
		v.pv.root.AppendChild(shortcutsDialog(v.pv))
	}
	if v.shortcuts.HasAttribute("hidden") {
		v.shortcuts.RemoveAttribute("hidden")
		v.shortcuts.QuerySelector("button").Focus()
	} else {
		v.closeShortcuts()
	}
}

func (v *barView) closeShortcuts() {
	if v.shortcuts.OK() && !v.shortcuts.HasAttribute("hidden") {
		v.shortcuts.SetAttribute("hidden", "")
		if h := v.pv.doc.ByID("help"); h.OK() {
			h.Focus()
		}
	}
}

// shortcutsDialog lists the keys.
func shortcutsDialog(pv *playground) dom.Elem {
	doc := pv.doc
	d := doc.El("div", "class", "shortcuts", "id", "shortcuts", "role", "dialog", "aria-modal", "false", "aria-labelledby", "shortcuts-title", "hidden", "")
	h := doc.El("h2", "id", "shortcuts-title")
	h.SetTextContent("Keyboard shortcuts")
	table := doc.El("table")
	for _, k := range app.Keys() {
		tr := doc.El("tr")
		dom.Add(tr, dom.Add(doc.El("td"), doc.Txt("kbd", k.Shown)), doc.Txt("td", k.Label))
		table.AppendChild(tr)
	}
	dom.Add(d, h, table, pv.doc.Button("Close", "Close the shortcuts", pv.bar.closeShortcuts, "id", "shortcuts-close"))
	pv.bar.shortcuts = d
	return d
}
