//go:build js && wasm

package main

import (
	"strconv"

	"github.com/teivah/broadcast"

	"tapelab/engine/autograd"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// playground wires the state (app.Playground) to the views. Steps go to the
// engine's cursor; the cursor's events come back through its broadcast
// relay, and every view redraws what changed.
type playground struct {
	p       *page
	doc     *document
	pg      *app.Playground
	root    elem
	bar     *barView
	editor  *editorView
	tape    *tapeView
	list    *listView
	insp    *inspectorView
	stepper *stepperView
	listing *listingView
	prog    *programView // Program mode: the program editor, gallery and forward mode
	img     *imageView   // image models: the selected example, saliency, window card, drawing
	notice  elem         // why the tape is not the current model's
	// work is the row of the editor, the centre and the inspector; centre
	// holds the tape and the listing. Other views add their regions there.
	work, centre elem

	selected int // the node the user chose to inspect, or -1 to follow the cursor
	listener *broadcast.Listener[autograd.Event]
	dataset  string
	data     *train.Dataset
	files    dataFiles // the datasets read from data files, once fetched
	t0       float64   // when the current step was asked for (performance.now)
	redraws  int
	onChange func() // after every redraw: the stepper moved or the step was recorded again
}

// batchSize is the mini-batch of one recorded step: small enough that every
// number fits on screen.
const batchSize = 4

func newPlayground(p *page) (*playground, error) {
	doc := p.doc
	pv := &playground{p: p, doc: doc, selected: -1, dataset: "reg-plane", onChange: func() {}}
	pv.root = doc.el("div", "class", "playground", "id", "playground")
	pv.bar = newBarView(pv)
	pv.editor = newEditorView(pv)
	pv.tape = newTapeView(pv)
	pv.list = newListView(pv)
	pv.insp = newInspectorView(pv)
	pv.stepper = newStepperView(pv)
	pv.listing = newListingView(pv)
	pv.prog = newProgramView(pv)
	pv.img = newImageView(pv)
	pv.notice = doc.el("p", "class", "notice", "id", "tape-notice", "hidden", "")
	pv.tape.root.AppendChild(pv.notice)
	pv.centre = add(doc.el("div", "class", "centre"), pv.tape.root, pv.listing.root)
	pv.work = add(doc.el("div", "class", "workspace"), pv.editor.root, pv.prog.root, pv.centre, pv.insp.root)
	bottom := doc.el("div", "class", "bottom")
	add(bottom, pv.stepper.root, pv.list.root)
	add(pv.root, pv.bar.root, pv.work, bottom, shortcutsDialog(pv))

	b, err := pv.loadBatch(app.DefaultDoc())
	if err != nil {
		return nil, err
	}
	pg, err := app.New(app.DefaultDoc(), b)
	if err != nil {
		return nil, err
	}
	pv.pg = pg
	return pv, nil
}

// mount puts the playground into parent. It does not draw the step: the
// shell draws it once, when it opens the page's link (see mountShell).
func (pv *playground) mount(parent elem) {
	parent.AddClass("wide")
	parent.AppendChild(pv.root)
	pv.doc.listen(pv.doc, "keydown", "keyboard", pv.onKey)
	pv.doc.listen(pv.doc, "keyup", "keyboard", func(ev event) {
		if ev.Key() == " " && !typing(ev) {
			ev.PreventDefault() // a focused button must not also be clicked
		}
	})
}

// useDataset makes name the dataset the next batch is taken from; the
// current step stays until the batch is loaded.
func (pv *playground) useDataset(name string) {
	if pv.dataset != name {
		pv.dataset, pv.data = name, nil
	}
}

// loadBatch generates the chosen dataset and takes the first examples.
func (pv *playground) loadBatch(d app.Doc) (app.Batch, error) {
	if pv.data == nil {
		tr, err := pv.files.generate(pv.dataset)
		if err != nil {
			return app.Batch{}, err
		}
		pv.data = tr
	}
	return app.MiniBatch(pv.data.X, pv.data.Y, batchSize, d.Loss)
}

// rebuilt redraws everything after the model, the modes or the data changed.
func (pv *playground) rebuilt() {
	pv.editor.render()
	pv.prog.render()
	pv.bar.update()
	if err := pv.src().Err(); err != nil {
		pv.notice.SetTextContent(pv.prog.brokenNotice())
		pv.notice.RemoveAttribute("hidden")
	} else {
		pv.notice.SetAttribute("hidden", "")
	}
	s := pv.src().Stepper()
	if s == nil {
		return
	}
	if pv.listener != nil {
		pv.listener.Close()
	}
	lay, err := app.Layout(s.Nodes())
	if err != nil {
		pv.p.showError("laying out the tape: " + err.Error())
		return
	}
	pv.selected = -1
	pv.img.rebuilt()
	pv.tape.build(s, lay)
	pv.list.build(s)
	pv.listing.build(pv.src())
	pv.bar.showPasses()
	l := s.Cursor().Listen(64)
	pv.listener = l
	go func() {
		for e := range l.Ch() {
			recovered("redraw", pv.p.showError, func() { pv.refresh(&e) })
		}
	}()
	pv.refresh(nil)
}

// refresh redraws what a step changed: node classes and strips, counters,
// the inspector and the listing's current line.
func (pv *playground) refresh(e *autograd.Event) {
	s := pv.src().Stepper()
	all := e == nil || e.Kind == autograd.EventReset
	touched := func(i int) bool {
		if all || e.Node == i || pv.img.reads(s, e.Node, i) {
			return true
		}
		for _, c := range e.Contribs {
			if c.Parent == i {
				return true
			}
		}
		return false
	}
	for i := range s.Nodes() {
		st := s.State(i)
		pv.tape.update(s, i, st, touched(i))
		pv.list.update(i, st)
	}
	focus := s.Focus()
	pv.tape.highlight(focus)
	if e != nil {
		pv.tape.follow(focus)
	}
	pv.stepper.update(s, e)
	pv.listing.current(focus)
	show := pv.selected
	if show < 0 {
		show = focus
		if show < 0 {
			show = s.Position().Node
		}
	}
	pv.insp.show(s, show)
	pv.prog.refresh(s, show)
	pv.redraws++
	pv.root.SetAttribute("data-redraws", strconv.Itoa(pv.redraws))
	if pv.t0 > 0 {
		pv.root.SetAttribute("data-redraw-ms", strconv.FormatFloat(now()-pv.t0, 'f', 2, 64))
		pv.t0 = 0
	}
	pv.onChange()
}

// inspect pins node i in the inspector until the next step.
func (pv *playground) inspect(i int) {
	pv.tape.selectNode(pv.selected, i)
	pv.list.selectNode(pv.selected, i)
	pv.selected = i
	pv.listing.current(i)
	pv.insp.show(pv.src().Stepper(), i)
	pv.prog.inspected(i)
}

// unpin lets the inspector follow the cursor again.
func (pv *playground) unpin() {
	pv.tape.selectNode(pv.selected, -1)
	pv.list.selectNode(pv.selected, -1)
	pv.selected = -1
}

// stepOnce takes one step and reports whether there was one.
func (pv *playground) stepOnce() bool {
	pv.unpin()
	pv.t0 = now()
	ok := pv.prog.step(pv.src().Stepper())
	if !ok {
		pv.t0 = 0
	}
	return ok
}

func (pv *playground) step() { pv.stepOnce() }

func (pv *playground) back() {
	pv.stepper.pause()
	pv.unpin()
	pv.t0 = now()
	if _, ok := pv.src().Stepper().Back(); !ok {
		pv.t0 = 0
	}
}

func (pv *playground) reset() {
	pv.stepper.pause()
	pv.unpin()
	pv.src().Stepper().Reset()
}

// toBackward finishes the forward pass so that the next step is the first VJP.
func (pv *playground) toBackward() {
	pv.stepper.pause()
	pv.unpin()
	pv.src().Stepper().ForwardToEnd()
}

func (pv *playground) toEnd() {
	pv.stepper.pause()
	pv.unpin()
	pv.prog.toEnd(pv.src().Stepper())
}

// edit applies a model edit and redraws.
func (pv *playground) edit(d app.Doc) {
	pv.stepper.pause()
	// The errors are shown on the layer at fault.
	if cur := pv.pg.Doc(); d.Loss != cur.Loss || !d.Input.Equal(cur.Input) {
		if b, err := pv.loadBatch(d); err == nil { // the batch changes shape
			_ = pv.pg.EditOn(d, b)
			pv.rebuilt()
			return
		}
	}
	_ = pv.pg.Edit(d)
	pv.rebuilt()
}

func (pv *playground) undo() {
	pv.stepper.pause()
	if ok, _ := pv.src().Undo(); ok {
		pv.editor.forget()
		pv.prog.forget()
		pv.rebuilt()
	}
}

func (pv *playground) redo() {
	pv.stepper.pause()
	if ok, _ := pv.src().Redo(); ok {
		pv.editor.forget()
		pv.prog.forget()
		pv.rebuilt()
	}
}

// setModes switches modes and records the step again.
func (pv *playground) setModes(m app.Modes) {
	pv.stepper.pause()
	if err := pv.src().SetModes(m); err != nil {
		pv.p.showError(err.Error())
	}
	pv.rebuilt()
}

// setDataset switches the dataset and records the step again.
func (pv *playground) setDataset(name string) {
	pv.stepper.pause()
	if pv.files.missing(name) {
		pv.files.loadThen(name, pv.doc.report, func(err error) {
			if err != nil {
				pv.p.showError(err.Error())
				pv.bar.update()
				return
			}
			pv.setDataset(name)
		})
		return
	}
	old, oldData := pv.dataset, pv.data
	pv.dataset, pv.data = name, nil
	b, err := pv.loadBatch(pv.pg.Doc())
	if err != nil {
		pv.dataset, pv.data = old, oldData
		pv.p.showError("dataset " + name + ": " + err.Error())
		return
	}
	_ = pv.pg.SetBatch(b)
	pv.rebuilt()
}
