//go:build js && wasm

package shell

import (
	"strconv"

	"tapelab/wasm/dom"

	"tapelab/wasm/link"
)

// classroomPanel offers TensorFlow Playground's "use it in a classroom"
// checkboxes: hide or lock each control, embed mode, then the link. The
// panel is closed at start-up; its checkboxes are made when it is first
// opened, ticked as the flags are.
func (sh *Shell) classroomPanel() dom.Elem {
	u := sh.u
	pop := u.El("div", "class", "pop")
	panel := dom.Add(u.El("details", "class", "classroom"), u.Txt("summary", "Classroom"), pop)
	u.Listen(panel, "toggle", "classroom", func(dom.Event) {
		if !sh.embedBox.OK() && panel.HasAttribute("open") {
			sh.classroomBoxes(pop)
			sh.tickBoxes(sh.st.Flags())
		}
	})
	return panel
}

// classroomBoxes fills the classroom panel's pop-up: a hide and a lock
// checkbox per control, and the embed mode's.
func (sh *Shell) classroomBoxes(pop dom.Elem) {
	u := sh.u
	table := u.El("table", "class", "classroom-table")
	head := u.El("tr")
	dom.Add(head, u.Txt("th", "Control"), u.Txt("th", "Hide"), u.Txt("th", "Lock"))
	table.AppendChild(head)
	for _, c := range link.Controls() {
		c := c
		hide := u.El("input", "type", "checkbox", "id", "hide-"+c, "aria-label", "Hide "+c)
		lock := u.El("input", "type", "checkbox", "id", "lock-"+c, "aria-label", "Lock "+c)
		sh.boxes[c] = [2]dom.Elem{hide, lock}
		u.Listen(hide, "change", "hide "+c, func(dom.Event) {
			f := sh.st.Flags()
			f.Hide = setIn(f.Hide, c, hide.Checked())
			sh.setFlags(f)
		})
		u.Listen(lock, "change", "lock "+c, func(dom.Event) {
			f := sh.st.Flags()
			f.Lock = setIn(f.Lock, c, lock.Checked())
			sh.setFlags(f)
		})
		row := u.El("tr")
		td1, td2 := u.El("td"), u.El("td")
		td1.AppendChild(hide)
		td2.AppendChild(lock)
		dom.Add(row, u.Txt("td", c, "class", "mono"), td1, td2)
		table.AppendChild(row)
	}
	embed := u.El("input", "type", "checkbox", "id", "flag-embed")
	sh.embedBox = embed
	u.Listen(embed, "change", "embed", func(dom.Event) {
		f := sh.st.Flags()
		f.Embed = embed.Checked()
		sh.setFlags(f)
	})
	dom.Add(pop, u.Txt("p", "Choose what the class sees and may change; the link (Share) carries these settings.", "class", "muted small"),
		table, u.Labelled("Embed mode (only the tape and the stepper, for an iframe)", embed, "class", "check"))
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
func (sh *Shell) setFlags(f link.Flags) { sh.st.SetFlags(f) }

// applyFlags shows the classroom flags: classes on <html> for embed and
// presenter mode, hidden and inert (locked) regions (those the views
// registered in the playground's regions), the explain panel.
func (sh *Shell) applyFlags() {
	u := sh.u
	html := u.Root()
	f := sh.st.Flags()
	html.ToggleClass("embed", f.Embed)
	html.ToggleClass("presenter", f.Presenter)
	html.ToggleClass("explaining", f.Explain)
	sh.showRegions(f)
	sh.tickBoxes(f)
	sh.presenterBtn.SetAttribute("aria-pressed", strconv.FormatBool(f.Presenter))
	sh.explainBtn.SetAttribute("aria-pressed", strconv.FormatBool(f.Explain))
	sh.pv.panels.present(f.Presenter)
	sh.pv.panels.explain(f.Explain)
	sh.pv.steps.ShowExplain(f.Explain)
	// Presenting fits the tape at a larger scale, and the explain drawer
	// may cover part of its region.
	sh.pv.tape.SetRoom(f.Presenter, sh.pv.steps.Explain(), f.Explain)
	// The tape's region or its room changed: fit the drawing to it once
	// the browser has laid the page out again.
	dom.NextFrame(u, "fit", sh.pv.tape.Fit)
}

// showRegions hides and locks the regions (those the views registered in
// the playground's regions) as the classroom flags f say; a view that
// builds a region later calls it again.
func (sh *Shell) showRegions(f link.Flags) {
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
func (sh *Shell) tickBoxes(f link.Flags) {
	for c, b := range sh.boxes {
		b[0].SetChecked(f.Hidden(c))
		b[1].SetChecked(contains(f.Lock, c))
	}
	if sh.embedBox.OK() {
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
