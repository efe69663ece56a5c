//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"fmt"
	"runtime"
	"strconv"
	"strings"
	"time"

	"tapelab/engine/op"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// barView is the top bar: one row with the name, the main switches and a
// menu. The menu holds the dataset, the gradient check, what the shell adds
// (sharing, classroom, export, presenter, explain), the version and the
// comparison of the dense and single-output passes; on a wide screen the
// three mode switches and the L2 penalty stay in the row, on a narrower one
// they go into the menu too (static/style.css), so the bar never wraps.
type barView struct {
	pv      *playground
	root    dom.Elem
	main    dom.Elem // the switches always in the row (what to step, the view)
	more    dom.Elem // the menu's part that is a menu at every width
	menu    dom.Elem // the menu: the mode switches and more
	menuBtn dom.Elem
	dataset dom.Elem
	// choose is what the data menu does with a dataset chosen: the
	// shell's chooseData (the playground's setDataset until it is built).
	choose    func(name string)
	toggles   map[string][2]dom.Elem
	l2        dom.Elem
	check     dom.Elem
	result    dom.Elem
	passes    dom.Elem
	shortcuts dom.Elem
	checking  bool
	open      bool // the menu is open
	// passesStale is set when the step was recorded again and the
	// comparison of its passes not yet worked out (passesChanged).
	passesStale bool
}

func newBarView(pv *playground) *barView {
	doc := pv.doc
	v := &barView{pv: pv, choose: pv.setDataset, toggles: map[string][2]dom.Elem{}}
	v.root = doc.El("header", "class", "top-bar")
	title := doc.El("h1", "class", "brand")
	title.SetTextContent("TapeLab")
	lab := pv.regions.own("dataset", doc.El("label", "class", "dataset"))
	lab.AppendChild(doc.TextNode("data "))
	v.dataset = doc.El("select", "id", "dataset", "aria-label", "Dataset")
	for _, n := range append(train.DatasetNames(), train.ImageDatasetNames()...) {
		o := doc.El("option", "value", n)
		o.SetTextContent(n)
		v.dataset.AppendChild(o)
	}
	pv.doc.Listen(v.dataset, "change", "dataset", func(dom.Event) {
		v.openMenu(false) // show the tape it changed
		v.choose(v.dataset.Value())
	})
	lab.AppendChild(v.dataset)
	modes := pv.regions.own("modes", doc.El("div", "class", "modes"))
	dom.Add(modes,
		v.toggle("exec", "Execution", "eager", "compiled", func(m *app.Modes, b bool) { m.Compiled = b }),
		v.toggle("pass", "Backward pass", "dense", "single-output", func(m *app.Modes, b bool) { m.Single = b }),
		v.toggle("mode", "Layer mode", "train", "eval", func(m *app.Modes, b bool) { m.Eval = b }),
	)
	l2 := doc.El("label", "class", "check", "title", "Adds 0.01·ΣW² to the loss: each weight then feeds two nodes and its gradient is summed with +=")
	v.l2 = doc.El("input", "type", "checkbox", "id", "l2")
	pv.doc.Listen(v.l2, "change", "L2 penalty", func(dom.Event) {
		m := pv.src().Modes()
		m.L2 = 0
		if v.l2.Checked() {
			m.L2 = 0.01
		}
		v.openMenu(false)
		pv.setModes(m)
	})
	l2.AppendChild(v.l2)
	l2.AppendChild(doc.TextNode(" L2 penalty (+=)"))
	modes.AppendChild(l2)
	v.check = pv.doc.Button("Gradient check", "Compare every parameter gradient with central finite differences", v.gradCheck, "id", "gradcheck")
	v.result = doc.El("span", "class", "check-result mono", "id", "gradcheck-result", "role", "status")
	v.passes = doc.El("p", "class", "passes mono", "id", "passes")
	v.main = doc.El("div", "class", "bar-main")
	foot := dom.Add(doc.El("div", "class", "menu-foot"), v.passes, versionLine(doc))
	v.more = dom.Add(doc.El("div", "class", "menu-rest", "id", "bar-more"), lab, dom.Add(doc.El("div", "class", "check-row"), v.check, v.result), foot)
	v.menu = dom.Add(doc.El("div", "class", "bar-menu", "id", "bar-menu"), dom.Add(doc.El("div", "class", "menu-modes"), modes), v.more)
	v.menuBtn = doc.Button("Menu", "The data, the modes, the gradient check, sharing and the classroom settings", v.toggleMenu,
		"id", "menu-toggle", "class", "menu-toggle", "aria-expanded", "false", "aria-controls", "bar-menu bar-more")
	v.menuBtn.SetTextContent("")
	dom.Add(v.menuBtn, doc.Txt("span", "☰", "aria-hidden", "true"), doc.TextNode(" "), doc.Txt("span", "Menu", "class", "word"))
	dom.Add(v.root, title, v.main, v.menu, v.menuBtn)
	return v
}

// toggleMenu opens or closes the menu.
func (v *barView) toggleMenu() { v.openMenu(!v.open) }

// openMenu opens (on) or closes the menu. Opened, it shows the comparison
// of the passes of the step recorded last (see passesChanged).
func (v *barView) openMenu(on bool) {
	v.open = on
	v.menuBtn.SetAttribute("aria-expanded", strconv.FormatBool(on))
	v.root.ToggleClass("menu-open", on)
	if on && v.passesStale {
		v.showPasses()
	}
}

// closeMenuOutside closes the menu when a press lands outside the top bar.
func (v *barView) closeMenuOutside(ev dom.Event) {
	if v.open && !v.root.Contains(ev.Target()) {
		v.openMenu(false)
	}
}

// passesChanged says that the step was recorded again. Comparing its
// dense and single-output passes runs the backward pass twice more, and
// only the open menu shows the comparison: it is worked out now when the
// menu is open, else when the menu is next opened.
func (v *barView) passesChanged() {
	v.passesStale = true
	if v.open {
		v.showPasses()
	}
}

// toggle returns a two-button switch; set writes the choice into the modes.
func (v *barView) toggle(id, label, off, on string, set func(*app.Modes, bool)) dom.Elem {
	doc := v.pv.doc
	g := doc.El("div", "class", "seg", "role", "group", "aria-label", label)
	mk := func(text string, val bool) dom.Elem {
		return v.pv.doc.Button(text, label+": "+text, func() {
			m := v.pv.src().Modes()
			set(&m, val)
			v.openMenu(false) // show the tape the choice changed
			v.pv.setModes(m)
		}, "id", id+"-"+strings.ReplaceAll(text, "-", ""), "aria-pressed", "false")
	}
	a, b := mk(off, false), mk(on, true)
	v.toggles[id] = [2]dom.Elem{a, b}
	dom.Add(g, a, b)
	return g
}

// update shows the current modes and dataset, and in Program mode hides
// what a program does not have.
func (v *barView) update() {
	m := v.pv.src().Modes()
	for id, on := range map[string]bool{"exec": m.Compiled, "pass": m.Single, "mode": m.Eval} {
		t := v.toggles[id]
		t[0].SetAttribute("aria-pressed", strconv.FormatBool(!on))
		t[1].SetAttribute("aria-pressed", strconv.FormatBool(on))
	}
	v.l2.SetChecked(m.L2 > 0)
	v.dataset.SetValue(v.pv.st.Dataset())
	// A program has no dataset, no layers to put in eval mode and no
	// weights to penalise.
	on := v.pv.st.ProgramMode()
	v.dataset.Closest("label").Show(!on)
	v.toggles["mode"][0].Closest(".seg").Show(!on)
	v.l2.Closest("label").Show(!on)
}

// showPasses compares the dense and single-output passes of the step (none
// when no step is recorded: the model does not build).
func (v *barView) showPasses() {
	v.passesStale = false
	if v.pv.src().Stepper() == nil {
		v.passes.SetTextContent("")
		return
	}
	ps, err := v.pv.src().Passes()
	if err != nil {
		v.passes.SetTextContent("backward passes: " + err.Error())
		return
	}
	nodes := v.pv.src().Stepper().Nodes()
	var sk []string
	for _, i := range ps.Skipped() {
		sk = append(sk, nodes[i].Title())
	}
	skipped := "none"
	if len(sk) > 0 {
		skipped = strings.Join(sk, ", ")
	}
	same := "gradients bit-identical ✓"
	if !ps.Identical {
		same = "gradients DIFFER at node " + strconv.Itoa(ps.Mismatch)
	}
	dense, single := "", ""
	if v.pv.src().Modes().Single {
		single = "▶ stepping "
	} else {
		dense = "▶ stepping "
	}
	var by []string
	for _, vis := range ps.Beyond {
		by = append(by, nodes[vis.Node].Title()+" ("+vis.Reason.String()+")")
	}
	beyond := ""
	if len(by) > 0 {
		beyond = ", visits beyond the loss's dependencies: " + strings.Join(by, "; ")
	}
	v.passes.SetTextContent(dense + "dense pass: " + strconv.Itoa(ps.Dense) + " VJPs · " + single + "single-output: " +
		strconv.Itoa(ps.Single) + " VJPs, skips " + strconv.Itoa(len(sk)) + " (" + skipped + ")" + beyond + " · " + same)
	v.passes.SetAttribute("data-stepping", strconv.Itoa(len(v.pv.src().Stepper().Order())))
	v.passes.SetAttribute("data-dense", strconv.Itoa(ps.Dense))
	v.passes.SetAttribute("data-single", strconv.Itoa(ps.Single))
	v.passes.SetAttribute("data-skipped", strconv.Itoa(len(sk)))
	v.passes.SetAttribute("data-beyond", strconv.Itoa(len(ps.Beyond)))
}

// gradCheck runs the gradient check in a goroutine that yields to the page.
func (v *barView) gradCheck() {
	if v.checking {
		return
	}
	v.checking = true
	v.check.SetDisabled(true)
	v.result.SetAttribute("class", "check-result mono")
	v.result.SetTextContent("checking…")
	go func() {
		defer func() { v.checking = false; v.check.SetDisabled(false) }()
		dom.Recovered("gradient check", v.pv.p.showError, func() {
			res, err := v.pv.src().GradCheck(func() { time.Sleep(time.Millisecond) })
			if err != nil {
				v.result.SetAttribute("class", "check-result mono bad")
				v.result.SetTextContent("✗ " + err.Error())
				return
			}
			mark, class := "✓", "good"
			if !res.OK {
				mark, class = "✗", "bad"
			}
			v.result.SetAttribute("class", "check-result mono "+class)
			v.result.SetAttribute("data-worst", app.Full(res.Worst))
			v.result.SetTextContent(mark + " worst rel. error " + app.Num(res.Worst) + " (" + res.Param + "[" +
				strconv.Itoa(res.Index) + "], " + strconv.Itoa(res.Checked) + " checked)")
		})
	}()
}

// versionLine is the menu's version line: TapeLab's version and the Go
// toolchain that built it, the op count on hover.
func versionLine(doc *dom.Document) dom.Elem {
	v := doc.Txt("span", fmt.Sprintf("v%s · %s %s/%s", version, runtime.Version(), runtime.GOOS, runtime.GOARCH), "class", "version mono", "id", "version")
	v.SetAttribute("title", fmt.Sprintf("TapeLab v%s, built with %s for %s/%s; %d ops in the catalogue",
		version, runtime.Version(), runtime.GOOS, runtime.GOARCH, len(op.All())))
	return v
}
