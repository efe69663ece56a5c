//go:build js && wasm

package main

import (
	"errors"
	"strconv"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
)

// shell is everything around the playground that a link carries: the
// Step/Train switch, the training view, the share bar, the classroom
// flags, the explain panel and the downloads. The page's state lives in the
// URL fragment and follows the user's work.
type shell struct {
	u  *document
	pv *playground
	tv *trainView
	ex *explainPanel

	st *state.State // the view, the classroom flags, the training settings and points

	// custom is the playground model whose weights and batch came from a
	// link or an inspected training step (nil: the seeded model).
	custom      *nn.Model
	customBatch bool

	bar, viewStep, viewTrain  elem
	shareURL, shortBtn, notes elem
	exportMsg                 elem
	presenterBtn, explainBtn  elem
	boxes                     map[string][2]elem // per classroom control, its hide and lock checkboxes
	embedBox                  elem
	linkErr                   elem
	lastLink                  string
	linkSync                  *debouncer // re-encodes the link after the state changed
	linkEncodes               int
}

// mountShell adds the training view, the share bar and the classroom
// features to a mounted playground and opens the link the page was loaded
// with.
func mountShell(p *page, pv *playground) *shell {
	u := p.doc
	sh := &shell{u: u, pv: pv, st: state.New(state.DefaultTraining(pv.dataset)), boxes: map[string][2]elem{}}
	sh.linkSync = newDebouncer(linkQuiet, linkMaxWait, func() { recovered("share link", u.report, sh.syncOnce) })
	// Every change of the state re-encodes the link.
	changes := sh.st.Listen(1)
	go func() {
		for range changes.Ch() {
			sh.linkSync.changed()
		}
	}()
	sh.tv = newTrainView(u, pv, sh.st)
	sh.tv.showStep = func() { // after "inspect this step": the weights and batch are the training's
		sh.custom, sh.customBatch = pv.pg.Model(), true
		sh.setView(link.ViewStep)
	}
	sh.ex = newExplainPanel(u, pv)
	pv.prog.onMode = sh.programMode
	pv.onChange = func() {
		sh.ex.refresh()
		sh.linkSync.changed()
	}
	sh.tv.onChange = sh.linkSync.changed
	sh.buildBar()
	pv.centre.After(sh.tv.root)
	pv.work.AppendChild(sh.ex.root)
	sh.linkErr = u.txt("p", "", "id", "link-error", "class", "link-error", "role", "alert", "hidden", "")
	pv.root.Prepend(sh.linkErr)
	sh.exposeExports()
	// Locked or hidden controls stay locked from the keyboard too: the
	// playground's shortcuts are stopped before they reach it.
	u.listenFirst(u, "keydown", "classroom keys", sh.guardKeys)

	loc := currentLocation()
	frag := loc.hash
	if id, embed, ok := app.SharedPage(loc.path); ok {
		pv.rebuilt() // the default model, until the share service answers
		go sh.openShared(id, embed, frag)
	} else {
		st, err := link.Open(frag)
		sh.open(st, err) // draws the playground
	}
	return sh
}

// open applies a decoded state; err (a broken link) is shown above the
// playground, which then shows st (the default model).
func (sh *shell) open(st *link.State, err error) {
	if st.Program == "" && st.Model != nil && sh.pv.files.missing(st.Model.Dataset.Name) {
		sh.openLater(st, err, st.Model.Dataset.Name)
		return
	}
	if err != nil {
		sh.linkErr.SetTextContent("This link could not be opened, so TapeLab shows its default model instead. " + err.Error())
		sh.linkErr.show(true)
	}
	if aerr := sh.apply(st); aerr != nil {
		sh.linkErr.SetTextContent("Part of this link could not be applied: " + aerr.Error())
		sh.linkErr.show(true)
	}
	sh.u.root().SetAttribute("data-link-opened", "true")
}

// apply makes the page show st.
func (sh *shell) apply(st *link.State) error {
	if st.Program != "" {
		return sh.applyProgram(st)
	}
	sh.pv.prog.setMode(false)
	m := st.Model
	pv, tv := sh.pv, sh.tv
	doc := app.Doc{Input: m.Input, Layers: m.Layers, Loss: m.Loss, Seed: m.Seed}
	var errs []error
	// The view, the classroom flags, the training settings and points.
	sh.st.Replace(st)
	tv.settle()
	// The stepping playground: dataset, modes, model, weights, batch.
	pv.useDataset(sh.st.Training().Data.Name)
	if err := pv.pg.SetModes(st.Modes); err != nil {
		errs = append(errs, err)
	}
	var b app.Batch
	var err error
	if st.Batch != nil {
		b, err = batchOf(st.Batch, m)
	} else {
		b, err = pv.loadBatch(doc)
	}
	if err != nil {
		errs = append(errs, err)
		b = pv.pg.Batch()
	}
	if err := pv.pg.Inspect(doc, m.Params, b); err != nil {
		errs = append(errs, err)
	}
	sh.custom, sh.customBatch = nil, false
	if len(m.Params) > 0 || st.Batch != nil {
		sh.custom, sh.customBatch = pv.pg.Model(), st.Batch != nil
	}
	pv.rebuilt()
	if s := pv.pg.Stepper(); s != nil {
		if err := link.Seek(s, st.Pos); err != nil {
			errs = append(errs, err)
		}
	}
	tv.trainFrom(doc, m.Params)
	sh.applyFlags()
	sh.setView(sh.st.View())
	return errors.Join(errs...)
}

// batchOf turns a link's batch into the playground's.
func batchOf(p *link.Points, m *spec.Model) (app.Batch, error) {
	y := make([][]float64, len(p.Y))
	for i, v := range p.Y {
		y[i] = []float64{v}
	}
	return app.MiniBatch(tensor.Matrix(p.X), tensor.Matrix(y), len(p.X), m.Loss)
}

// state is the page's state as a link carries it.
func (sh *shell) state() *link.State {
	if sh.pv.prog.on {
		return sh.programState()
	}
	pv, tv := sh.pv, sh.tv
	st := &link.State{Modes: pv.pg.Modes()}
	m := tv.specModel(nil)
	sh.st.Fill(st, m)
	if st.View == link.ViewTrain && tv.sess != nil && tv.sess.Steps() > 0 {
		m.Params = tv.sess.Params()
	} else if st.View == link.ViewTrain && tv.params != nil && tv.doc.Equal(pv.pg.Doc()) {
		m.Params = tv.params
	}
	if st.View == link.ViewStep && sh.custom != nil && pv.pg.Model() == sh.custom {
		m.Params = pv.pg.Model().StateDict()
		if sh.customBatch {
			st.Batch = pointsOf(pv.pg.Batch())
		}
	}
	st.Model = m
	if s := pv.pg.Stepper(); s != nil && st.View == link.ViewStep {
		st.Pos = link.PositionOf(s)
	}
	return st
}

// pointsOf turns the playground's batch into a link's.
func pointsOf(b app.Batch) *link.Points {
	n := b.X.Shape[0]
	w := len(b.X.Data) / n
	p := &link.Points{X: make([][]float64, n), Y: make([]float64, n)}
	for i := range n {
		p.X[i] = append([]float64(nil), b.X.Data[i*w:(i+1)*w]...)
		p.Y[i] = b.Y.Data[i*(len(b.Y.Data)/n)]
	}
	return p
}

// itoa formats an int.
func itoa(n int) string { return strconv.Itoa(n) }

// setView switches between the stepping view and the training view.
func (sh *shell) setView(view string) {
	if view != link.ViewTrain {
		view = link.ViewStep
		if sh.tv.running {
			sh.tv.play() // pause: the stepping view is on screen
		}
	}
	sh.st.SetView(view)
	train := sh.st.View() == link.ViewTrain
	sh.pv.root.ToggleClass("view-train", train)
	sh.tv.root.show(train)
	sh.viewStep.SetAttribute("aria-pressed", boolStr(!train))
	sh.viewTrain.SetAttribute("aria-pressed", boolStr(train))
	if train && sh.tv.sess == nil {
		sh.tv.reset(true)
	}
	if train {
		sh.tv.render()
	}
}

// openShared opens /s/{id} or /embed/{id}: the stored model document from
// the share service, with the rest of the state from the fragment.
func (sh *shell) openShared(id string, embed bool, frag string) {
	status, body, err := fetchText("GET", "api/share/"+id, "")
	recovered("opening a shared model", sh.u.report, func() {
		st, ferr := link.Open(frag)
		if err == nil && status != 200 {
			err = errors.New("the share service answered " + itoa(status) + " for " + id)
		}
		var m *spec.Model
		src := ""
		if err == nil && isProgramDocument(body) {
			src, err = decodeProgramDocument(body)
		} else if err == nil {
			m, err = spec.Decode([]byte(body))
		}
		if err != nil {
			sh.open(link.Default(), errors.Join(errors.New("shared model "+id+": "+err.Error()), ferr))
			return
		}
		st.Model, st.Program = m, src
		if src != "" {
			st.Model, st.Points, st.Batch = nil, nil, nil
		}
		if embed {
			st.Flags.Embed = true
		}
		sh.open(st, ferr)
	})
}
