//go:build js && wasm

package main

import "tapelab/wasm/app"

// toggleShortcuts shows or hides the shortcuts (made when first shown).
func (v *barView) toggleShortcuts() {
	if !v.shortcuts.ok() {
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
	if v.shortcuts.ok() && !v.shortcuts.HasAttribute("hidden") {
		v.shortcuts.SetAttribute("hidden", "")
		if h := v.pv.doc.byID("help"); h.ok() {
			h.Focus()
		}
	}
}

// shortcutsDialog lists the keys.
func shortcutsDialog(pv *playground) elem {
	doc := pv.doc
	d := doc.el("div", "class", "shortcuts", "id", "shortcuts", "role", "dialog", "aria-modal", "false", "aria-labelledby", "shortcuts-title", "hidden", "")
	h := doc.el("h2", "id", "shortcuts-title")
	h.SetTextContent("Keyboard shortcuts")
	table := doc.el("table")
	for _, k := range app.Keys() {
		tr := doc.el("tr")
		add(tr, add(doc.el("td"), doc.txt("kbd", k.Shown)), doc.txt("td", k.Label))
		table.AppendChild(tr)
	}
	add(d, h, table, pv.doc.button("Close", "Close the shortcuts", pv.bar.closeShortcuts, "id", "shortcuts-close"))
	pv.bar.shortcuts = d
	return d
}
