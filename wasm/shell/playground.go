//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"strconv"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/stepview"
	"tapelab/wasm/tape"
)

// playground wires the page's state (wasm/state) to the tape's views. The
// views change the state through its methods; each change comes back, with
// a step's event, through the shell's one dispatcher (shell.follow), which
// calls changed at once; every view redraws what changed.
type playground struct {
	p       *Page
	doc     *dom.Document
	st      *state.State
	root    dom.Elem
	bar     *barView
	tape    *tape.View     // the tape's drawing and its text list
	steps   *stepview.View // the step view: the editors, the inspector, the stepper's bar, the listing, the explain panel
	panels  *panels        // which of the editor and the inspector are open
	notice  dom.Elem       // why the tape is not the current model's
	linkErr dom.Elem       // what of the page's link could not be opened or applied
	regions regions        // the regions each classroom control governs, as the views build them
	// work is the row of the editor, the centre and the inspector; centre
	// holds the tape and the listing. Other views add their regions there.
	// bottom is the bar of the stepper and the tape's text list.
	work, centre, bottom dom.Elem

	files    dataFiles // the datasets read from data files, once fetched
	example  int       // the batch example the images show, shared by the tape and the step view
	t0       float64   // when the current step was asked for (performance.now)
	redraws  int
	onStop   func(delta int) bool // the lesson's next (+1) or previous (-1) stop, from the keyboard; false without a lesson
	inLesson func() bool          // whether a lesson is open: its stop says what of its state did not apply
}

func newPlayground(p *Page) *playground {
	doc := p.doc
	st := state.New(link.DefaultDataset)
	pv := &playground{p: p, doc: doc, st: st, files: dataFiles{st}, regions: regions{}, onStop: func(int) bool { return false }, inLesson: func() bool { return false }}
	pv.root = doc.El("div", "class", "playground", "id", "playground")
	pv.linkErr = doc.Txt("p", "", "id", "link-error", "class", "link-error", "role", "alert", "hidden", "")
	// Start-up builds the views in slices (p.pace), off screen.
	pv.bar = newBarView(pv)
	p.Pace()
	pv.panels = newPanels(pv)
	pv.steps = stepview.New(pv.stepDeps())
	pv.bar.main.Prepend(pv.steps.ModeSwitch())
	p.Pace()
	pv.tape = tape.New(pv.tapeDeps())
	p.Pace()
	pv.notice = doc.El("p", "class", "notice", "id", "tape-notice", "hidden", "")
	pv.tape.Root().AppendChild(pv.notice)
	pv.centre = dom.Add(doc.El("div", "class", "centre"), pv.tape.Root(), pv.steps.Listing())
	pv.work = dom.Add(doc.El("div", "class", "workspace"), pv.steps.Editor(), pv.steps.Program(), pv.centre, pv.steps.Inspector())
	pv.bottom = doc.El("div", "class", "bottom")
	dom.Add(pv.bottom, pv.steps.Stepper(), pv.tape.List())
	dom.Add(pv.root, pv.linkErr, pv.bar.root, pv.work, pv.bottom) // the shortcuts' dialog is made when first shown
	return pv
}

// tapeDeps is what the tape needs of the page and of the other views.
func (pv *playground) tapeDeps() tape.Deps {
	return tape.Deps{
		Doc:     pv.doc,
		Scale:   pv.p.scale,
		State:   pv.st,
		Grad:    func(s *app.Stepper, i int) *tensor.Tensor { return pv.steps.GradOf(s, i) },
		Reads:   func(s *app.Stepper, k, i int) bool { return pv.steps.Reads(s, k, i) },
		Tangent: func(s *app.Stepper, i int) string { return pv.steps.Tangent(s, i) },
		Example: func() int { return pv.example },
		Rate:    pv.steps.Rate,
		EditorWidth: func() float64 {
			ps := pv.panels
			if !ps.wide || ps.editorBtn.GetAttribute("aria-expanded") != "true" {
				return 0
			}
			return max(pv.steps.Editor().Rect().Width, pv.steps.Program().Rect().Width)
		},
		FoldEditor: func() { pv.panels.set(pv.panels.editorBtn, "editor-open", false) },
	}
}

// model is the model playground, to read.
func (pv *playground) model() *app.Playground { return pv.st.Model() }

// src is the source on screen: the program in Program mode, else the model.
func (pv *playground) src() state.Source { return pv.st.Source() }

// mount puts the playground into parent. It does not draw the step: the
// shell draws it once, when it opens the page's link (see shell.start),
// and tells it every change from then on.
func (pv *playground) mount(parent dom.Elem) {
	parent.AddClass("wide")
	parent.AppendChild(pv.root)
	pv.doc.Listen(pv.doc, "keydown", "keyboard", pv.onKey)
	pv.doc.Listen(pv.doc, "pointerdown", "closing the menu", pv.bar.closeMenuOutside)
	pv.panels.fitScreen()
	dom.OnResize(pv.doc, pv.root, "the screen's layout", pv.panels.fitScreen)
	pv.doc.Listen(pv.doc, "keyup", "keyboard", func(ev dom.Event) {
		if ev.Key() == " " && !typing(ev) {
			ev.PreventDefault() // a focused button must not also be clicked
		}
	})
}

// changed draws a change of the state on the playground, in a fixed
// order: its own part before the screens (the link's opening, the bar,
// why the tape is not the current model's, a tape that cannot be laid
// out), the step view, then the tape (each screen's Changed, which draws
// all of that screen's part), then its own part after them (the inspector
// opened for a pinned node, the redraw counted and timed). e is the
// step's event; nil for a jump, a reset or the end.
func (pv *playground) changed(c state.Change, e *autograd.Event, report func(string)) {
	dom.Recovered("redraw", report, func() { pv.before(c) })
	dom.Recovered("redraw", report, func() { pv.steps.Changed(c, e) })
	dom.Recovered("redraw", report, func() { pv.tape.Changed(c, e) })
	dom.Recovered("redraw", report, func() { pv.after(c) })
}

// before is the playground's part of a change before the screens draw
// theirs.
func (pv *playground) before(c state.Change) {
	if c.Has(state.Opened) {
		pv.opened()
	}
	if !c.Has(state.Step | state.Editing) {
		return
	}
	pv.bar.update()
	pv.bar.passesChanged()
	if err := pv.src().Err(); err != nil {
		pv.notice.SetTextContent(pv.steps.BrokenNotice())
		pv.notice.RemoveAttribute("hidden")
	} else {
		pv.notice.SetAttribute("hidden", "")
	}
	if s := pv.src().Stepper(); s != nil {
		if _, err := s.Layout(); err != nil {
			pv.p.showError("laying out the tape: " + err.Error())
		}
	}
}

// after is the playground's part of a change after the screens drew
// theirs: a node pinned opens the inspector, and a redraw of the
// stepper's state is counted (data-redraws) and, for a step, timed
// (data-redraw-ms).
func (pv *playground) after(c state.Change) {
	if c.Has(state.Selection) && pv.st.Selected() >= 0 {
		pv.panels.showInspector()
	}
	if c.Has(state.Step|state.Editing|state.Position) || c.Has(state.Forward) && pv.st.ProgramMode() {
		pv.drawn()
	}
}

// redraw draws the stepper's whole state again on both screens, for a
// change the state does not record (the example the images show, forward
// mode's direction being typed).
func (pv *playground) redraw() {
	pv.steps.Redraw()
	pv.tape.Redraw()
	pv.drawn()
}

// drawn counts a redraw of the stepper's state and times the step that
// asked for it.
func (pv *playground) drawn() {
	s := pv.src().Stepper()
	if s == nil {
		return
	}
	if _, err := s.Layout(); err != nil { // kept: nothing was drawn
		return
	}
	pv.redraws++
	pv.root.SetAttribute("data-redraws", strconv.Itoa(pv.redraws))
	if pv.t0 > 0 {
		pv.root.SetAttribute("data-redraw-ms", strconv.FormatFloat(dom.Now()-pv.t0, 'f', 2, 64))
		pv.t0 = 0
	}
}

// opened records the step of the link the state took (the state records
// it when it is first read) and says what of it did not apply; a link on a
// dataset read from a data file first fetches the file, and the state
// announces the link again once it is in. The page is marked
// data-link-opened when the link's step is the one drawn.
func (pv *playground) opened() {
	if name := pv.st.Waiting(); name != "" {
		pv.files.loadThen(name, pv.doc.Report, func(err error) {
			if err != nil {
				pv.showLinkError("This link could not be opened, so TapeLab shows its default model instead. " + err.Error())
				pv.st.Replace(link.Default())
			}
		})
		return
	}
	if err := pv.st.Opened(); err != nil && !pv.inLesson() {
		pv.showLinkError("Part of this link could not be applied: " + err.Error())
	}
	pv.doc.Root().SetAttribute("data-link-opened", "true")
}

// showLinkError shows msg above the playground (hidden with "").
func (pv *playground) showLinkError(msg string) {
	pv.linkErr.SetTextContent(msg)
	pv.linkErr.Show(msg != "")
}

// drawColumns draws the editor's cards and the inspector, which start-up
// held back while it drew the first step (see main), each in a task of
// its own.
func (pv *playground) drawColumns() { pv.steps.DrawColumns(pv.p.Yield) }

// inspect pins node i in the inspector until the next step.
func (pv *playground) inspect(i int) { pv.st.Select(i) }

// move takes one step of the stepper and times the redraw that follows.
func (pv *playground) move(step func(*app.Stepper) (autograd.Event, bool)) bool {
	pv.t0 = dom.Now()
	_, ok := pv.st.Move(step)
	if !ok {
		pv.t0 = 0
	}
	return ok
}

// edit applies a model edit (its error is shown on the layer at fault).
func (pv *playground) edit(d app.Doc) { _ = pv.st.Edit(d) }

func (pv *playground) undo() { pv.st.Undo() }

func (pv *playground) redo() { pv.st.Redo() }

// setModes switches modes and records the step again.
func (pv *playground) setModes(m app.Modes) {
	if err := pv.st.SetModes(m); err != nil {
		pv.p.showError(err.Error())
	}
}

// setDataset switches the dataset and records the step again.
func (pv *playground) setDataset(name string) {
	pv.steps.Pause()
	if pv.files.missing(name) {
		pv.files.loadThen(name, pv.doc.Report, func(err error) {
			if err != nil {
				pv.p.showError(err.Error())
				pv.bar.update()
				return
			}
			pv.setDataset(name)
		})
		return
	}
	if err := pv.st.SetDataset(name); err != nil {
		pv.p.showError("dataset " + name + ": " + err.Error())
	}
}
