//go:build js && wasm

package main

import (
	"tapelab/wasm/link"
)

// classroomPanel offers TensorFlow Playground's "use it in a classroom"
// checkboxes: hide or lock each control, embed mode, then the link. The
// panel is closed at start-up; its checkboxes are made when it is first
// opened, ticked as the flags are.
func (sh *shell) classroomPanel() elem {
	u := sh.u
	pop := u.el("div", "class", "pop")
	panel := add(u.el("details", "class", "classroom"), u.txt("summary", "Classroom"), pop)
	u.listen(panel, "toggle", "classroom", func(event) {
		if !sh.embedBox.ok() && panel.HasAttribute("open") {
			sh.classroomBoxes(pop)
			sh.tickBoxes(sh.st.Flags())
		}
	})
	return panel
}

// classroomBoxes fills the classroom panel's pop-up: a hide and a lock
// checkbox per control, and the embed mode's.
func (sh *shell) classroomBoxes(pop elem) {
	u := sh.u
	table := u.el("table", "class", "classroom-table")
	head := u.el("tr")
	add(head, u.txt("th", "Control"), u.txt("th", "Hide"), u.txt("th", "Lock"))
	table.AppendChild(head)
	for _, c := range link.Controls() {
		c := c
		hide := u.el("input", "type", "checkbox", "id", "hide-"+c, "aria-label", "Hide "+c)
		lock := u.el("input", "type", "checkbox", "id", "lock-"+c, "aria-label", "Lock "+c)
		sh.boxes[c] = [2]elem{hide, lock}
		u.listen(hide, "change", "hide "+c, func(event) {
			f := sh.st.Flags()
			f.Hide = setIn(f.Hide, c, hide.Checked())
			sh.setFlags(f)
		})
		u.listen(lock, "change", "lock "+c, func(event) {
			f := sh.st.Flags()
			f.Lock = setIn(f.Lock, c, lock.Checked())
			sh.setFlags(f)
		})
		row := u.el("tr")
		td1, td2 := u.el("td"), u.el("td")
		td1.AppendChild(hide)
		td2.AppendChild(lock)
		add(row, u.txt("td", c, "class", "mono"), td1, td2)
		table.AppendChild(row)
	}
	embed := u.el("input", "type", "checkbox", "id", "flag-embed")
	sh.embedBox = embed
	u.listen(embed, "change", "embed", func(event) {
		f := sh.st.Flags()
		f.Embed = embed.Checked()
		sh.setFlags(f)
	})
	add(pop, u.txt("p", "Choose what the class sees and may change; the link (Share) carries these settings.", "class", "muted small"),
		table, u.labelled("Embed mode (only the tape and the stepper, for an iframe)", embed, "class", "check"))
}

// setIn adds or removes s in list.
func setIn(list []string, s string, on bool) []string {
	out := list[:0:0]
	for _, v := range list {
		if v != s {
			out = append(out, v)
		}
	}
	if on {
		out = append(out, s)
	}
	return out
}

// setFlags changes the classroom flags (the state's change shows them).
func (sh *shell) setFlags(f link.Flags) { sh.st.SetFlags(f) }

// applyFlags shows the classroom flags: classes on <html> for embed and
// presenter mode, hidden and inert (locked) regions (those the views
// registered in the playground's regions), the explain panel.
func (sh *shell) applyFlags() {
	u := sh.u
	html := u.root()
	f := sh.st.Flags()
	html.ToggleClass("embed", f.Embed)
	html.ToggleClass("presenter", f.Presenter)
	html.ToggleClass("explaining", f.Explain)
	sh.showRegions(f)
	sh.tickBoxes(f)
	sh.presenterBtn.SetAttribute("aria-pressed", boolStr(f.Presenter))
	sh.explainBtn.SetAttribute("aria-pressed", boolStr(f.Explain))
	sh.pv.panels.present(f.Presenter)
	sh.pv.panels.explain(f.Explain)
	sh.ex.show(f.Explain)
	// Presenting fits the tape at a larger scale, and the explain drawer
	// may cover part of its region.
	sh.pv.tape.setRoom(f.Presenter, sh.ex.root, f.Explain)
	sh.ex.refresh()
	// The tape's region or its room changed: fit the drawing to it once
	// the browser has laid the page out again.
	nextFrame(u, "fit", sh.pv.tape.fit)
}

// showRegions hides and locks the regions (those the views registered in
// the playground's regions) as the classroom flags f say; a view that
// builds a region later calls it again.
func (sh *shell) showRegions(f link.Flags) {
	for c, rs := range sh.pv.regions {
		for _, e := range rs {
			if f.Hidden(c) {
				e.SetAttribute("data-hidden-by", "classroom")
			} else {
				e.RemoveAttribute("data-hidden-by")
			}
			if contains(f.Lock, c) {
				e.SetAttribute("inert", "")
				e.SetAttribute("data-locked", "true")
			} else if e.HasAttribute("data-locked") { // inert for another reason stays
				e.RemoveAttribute("inert")
				e.RemoveAttribute("data-locked")
			}
		}
	}
}

// tickBoxes ticks the classroom panel's checkboxes as f says (there are
// none until the panel is first opened).
func (sh *shell) tickBoxes(f link.Flags) {
	for c, b := range sh.boxes {
		b[0].SetChecked(f.Hidden(c))
		b[1].SetChecked(contains(f.Lock, c))
	}
	if sh.embedBox.ok() {
		sh.embedBox.SetChecked(f.Embed)
	}
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func boolStr(b bool) string {
	if b {
		return "true"
	}
	return "false"
}
