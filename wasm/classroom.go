//go:build js && wasm

package main

import (
	"syscall/js"

	"tapelab/wasm/link"
)

// controlSelectors maps each classroom control (link.Controls) to the page
// elements it hides or locks: the playground's regions by their classes
// and ids, the training view's by data-control.
var controlSelectors = map[string]string{
	"dataset":   `#playground .top-bar label.dataset, [data-control="dataset"]`,
	"model":     `#playground .editor`,
	"modes":     `#playground .top-bar .modes`,
	"stepper":   `#playground .stepper`,
	"train":     `[data-control="train"]`,
	"lr":        `[data-control="lr"]`,
	"batch":     `[data-control="batch"]`,
	"optimizer": `[data-control="optimizer"]`,
	"l2":        `[data-control="l2"]`,
	"noise":     `[data-control="noise"]`,
	"split":     `[data-control="split"]`,
	"points":    `[data-control="points"]`,
	"share":     `[data-control="share"]`,
	"export":    `[data-control="export"]`,
	"views":     `[data-control="views"]`,
}

// buildBar adds the shell's bar to the playground's top bar: the view
// switch, sharing, presenter and explain toggles, the classroom settings
// and the downloads.
func (sh *shell) buildBar() {
	u := sh.u
	sh.bar = u.el("div", "class", "shell-bar", "id", "shell-bar")
	sh.viewStep = u.btn("Step", "Step through the tape of one training step", func() { sh.setView(link.ViewStep) }, "id", "view-step", "aria-pressed", "true")
	sh.viewTrain = u.btn("Train", "Train the model and watch it learn", func() { sh.setView(link.ViewTrain) }, "id", "view-train", "aria-pressed", "false")
	views := appendAll(u.el("div", "class", "seg views", "role", "group", "aria-label", "View", "data-control", "views"), sh.viewStep, sh.viewTrain)

	sh.shareURL = u.el("input", "type", "text", "id", "share-url", "readonly", "", "aria-label", "Link to this state", "class", "mono")
	copyBtn := u.btn("Copy link", "Copy a link that reopens exactly this state", sh.copyLink, "id", "copy-link", "class", "primary")
	sh.shortBtn = u.btn("Short link", "Store the model on the share service and copy a short link", sh.shorten, "id", "short-link", "hidden", "")
	sh.notes = u.txt("span", "", "id", "share-notes", "class", "muted small", "role", "status")
	share := appendAll(u.el("details", "class", "share", "data-control", "share"), u.txt("summary", "Share"),
		appendAll(u.el("div", "class", "pop"), sh.shareURL, appendAll(u.el("div", "class", "row"), copyBtn, sh.shortBtn), sh.notes))

	presenter := u.btn("Presenter", "Large type, thick strokes and high contrast for a projector", func() {
		sh.flags.Presenter = !sh.flags.Presenter
		sh.applyFlags()
	}, "id", "presenter-toggle", "aria-pressed", "false")
	explain := u.btn("Explain", "Walk through the chain rule of the current step in words", func() {
		sh.flags.Explain = !sh.flags.Explain
		sh.applyFlags()
	}, "id", "explain-toggle", "aria-pressed", "false")

	appendAll(sh.bar, views, share, sh.classroomPanel(), sh.exportPanel(), presenter, explain)
	if top := u.query("#playground .top-bar"); present(top) {
		top.Call("append", sh.bar)
	} else if root := u.query("#playground"); present(root) {
		root.Call("prepend", sh.bar)
	}
}

// classroomPanel offers TensorFlow Playground's "use it in a classroom"
// checkboxes: hide or lock each control, embed mode, then the link.
func (sh *shell) classroomPanel() js.Value {
	u := sh.u
	table := u.el("table", "class", "classroom-table")
	head := u.el("tr")
	appendAll(head, u.txt("th", "Control"), u.txt("th", "Hide"), u.txt("th", "Lock"))
	table.Call("append", head)
	for _, c := range link.Controls() {
		c := c
		hide := u.el("input", "type", "checkbox", "id", "hide-"+c, "aria-label", "Hide "+c)
		lock := u.el("input", "type", "checkbox", "id", "lock-"+c, "aria-label", "Lock "+c)
		u.on(hide, "change", "hide "+c, func(js.Value) {
			sh.flags.Hide = setIn(sh.flags.Hide, c, hide.Get("checked").Bool())
			sh.applyFlags()
		})
		u.on(lock, "change", "lock "+c, func(js.Value) {
			sh.flags.Lock = setIn(sh.flags.Lock, c, lock.Get("checked").Bool())
			sh.applyFlags()
		})
		row := u.el("tr")
		td1, td2 := u.el("td"), u.el("td")
		td1.Call("append", hide)
		td2.Call("append", lock)
		appendAll(row, u.txt("td", c, "class", "mono"), td1, td2)
		table.Call("append", row)
	}
	embed := u.el("input", "type", "checkbox", "id", "flag-embed")
	u.on(embed, "change", "embed", func(js.Value) {
		sh.flags.Embed = embed.Get("checked").Bool()
		sh.applyFlags()
	})
	return appendAll(u.el("details", "class", "classroom"), u.txt("summary", "Classroom"),
		appendAll(u.el("div", "class", "pop"),
			u.txt("p", "Choose what the class sees and may change; the link (Share) carries these settings.", "class", "muted small"),
			table, u.labelled("Embed mode (only the tape and the stepper, for an iframe)", embed, "class", "check")))
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

// applyFlags shows the classroom flags: classes on <html> for embed and
// presenter mode, hidden and inert (locked) regions, the explain panel.
func (sh *shell) applyFlags() {
	u := sh.u
	html := u.doc.Get("documentElement")
	f := sh.flags
	toggleClass(html, "embed", f.Embed)
	toggleClass(html, "presenter", f.Presenter)
	toggleClass(html, "explaining", f.Explain)
	for _, c := range link.Controls() {
		hidden, locked := f.Hidden(c), contains(f.Lock, c)
		u.queryAll(controlSelectors[c], func(e js.Value) {
			if hidden {
				e.Call("setAttribute", "data-hidden-by", "classroom")
			} else {
				e.Call("removeAttribute", "data-hidden-by")
			}
			if locked {
				e.Call("setAttribute", "inert", "")
				e.Call("setAttribute", "data-locked", "true")
			} else if e.Call("getAttribute", "data-locked").Truthy() {
				e.Call("removeAttribute", "inert")
				e.Call("removeAttribute", "data-locked")
			}
		})
		if box := u.query("#hide-" + c); present(box) {
			box.Set("checked", hidden)
		}
		if box := u.query("#lock-" + c); present(box) {
			box.Set("checked", locked)
		}
	}
	if box := u.query("#flag-embed"); present(box) {
		box.Set("checked", f.Embed)
	}
	for id, on := range map[string]bool{"#presenter-toggle": f.Presenter, "#explain-toggle": f.Explain} {
		if b := u.query(id); present(b) {
			b.Call("setAttribute", "aria-pressed", boolStr(on))
		}
	}
	show(sh.ex.root, f.Explain)
	sh.ex.refresh()
	sh.linkSync.changed()
	// The tape's region changed size: fit the drawing to it once the
	// browser has laid the page out again.
	js.Global().Call("requestAnimationFrame", js.FuncOf(func(js.Value, []js.Value) any {
		recovered("fit", sh.u.report, sh.pv.tape.fit)
		return nil
	}))
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

// setView switches between the stepping view and the training view.
func (sh *shell) setView(view string) {
	if view != link.ViewTrain {
		view = link.ViewStep
		if sh.tv.running {
			sh.tv.play() // pause: the stepping view is on screen
		}
	}
	sh.view = view
	sh.linkSync.changed()
	train := view == link.ViewTrain
	toggleClass(sh.u.query("#playground"), "view-train", train)
	show(sh.tv.root, train)
	sh.viewStep.Call("setAttribute", "aria-pressed", boolStr(!train))
	sh.viewTrain.Call("setAttribute", "aria-pressed", boolStr(train))
	if train && sh.tv.sess == nil {
		sh.tv.reset(true)
	}
	if train {
		sh.tv.render()
	}
}
