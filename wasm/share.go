//go:build js && wasm

package main

import (
	"errors"
	"reflect"
	"strconv"
	"strings"
	"syscall/js"
	"time"

	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// longLink is the length above which a link is offered as a short link.
const longLink = 2000

// sharedPage reports whether path is one of the share service's pages,
// /s/{id} or /embed/{id}, and returns the id.
func sharedPage(path string) (id string, embed, ok bool) {
	for _, kind := range []string{"/s/", "/embed/"} {
		i := strings.LastIndex(path, kind)
		if i < 0 {
			continue
		}
		id = path[i+len(kind):]
		if id == "" || len(id) > 64 || strings.Trim(id, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
			return "", false, false
		}
		return id, kind == "/embed/", true
	}
	return "", false, false
}

// shell is everything around the playground that a link carries: the
// Step/Train switch, the training view, the share bar, the classroom
// flags, the explain panel and the downloads. The page's state lives in the
// URL fragment and follows the user's work.
type shell struct {
	u  jsui
	pv *playground
	tv *trainView
	ex *explainPanel

	view  string
	flags link.Flags

	// custom is the playground model whose weights and batch came from a
	// link or an inspected training step (nil: the seeded model).
	custom      *nn.Model
	customBatch bool

	bar, viewStep, viewTrain  js.Value
	shareURL, shortBtn, notes js.Value
	exportMsg                 js.Value
	linkErr                   js.Value
	lastLink                  string
	linkSync                  *debouncer // re-encodes the link after the state changed
	linkEncodes               int
}

// mountShell adds the training view, the share bar and the classroom
// features to a mounted playground and opens the link the page was loaded
// with.
func mountShell(p *page, pv *playground) *shell {
	u := newJSUI(p.showError)
	sh := &shell{u: u, pv: pv, view: link.ViewStep}
	sh.linkSync = newDebouncer(linkQuiet, linkMaxWait, func() { recovered("share link", u.report, sh.syncOnce) })
	sh.tv = newTrainView(u, pv)
	sh.tv.showStep = func() { // after "inspect this step": the weights and batch are the training's
		sh.custom, sh.customBatch = pv.pg.Model(), true
		sh.setView(link.ViewStep)
	}
	sh.ex = newExplainPanel(u, pv)
	pv.onChange = func() {
		sh.ex.refresh()
		sh.linkSync.changed()
	}
	sh.tv.onChange = sh.linkSync.changed
	sh.buildBar()
	if ws := u.query("#playground .workspace"); present(ws) {
		centre := u.query("#playground .workspace .centre")
		if present(centre) {
			centre.Call("after", sh.tv.root)
		} else {
			ws.Call("append", sh.tv.root)
		}
		ws.Call("append", sh.ex.root)
	}
	sh.linkErr = u.txt("p", "", "id", "link-error", "class", "link-error", "role", "alert", "hidden", "")
	if root := u.query("#playground"); present(root) {
		root.Call("prepend", sh.linkErr)
	}
	sh.exposeExports()
	// Locked or hidden controls stay locked from the keyboard too: the
	// playground's shortcuts are stopped before they reach it.
	u.doc.Call("addEventListener", "keydown", js.FuncOf(func(_ js.Value, args []js.Value) any {
		recovered("classroom keys", u.report, func() { sh.guardKeys(args[0]) })
		return nil
	}), true)

	loc := js.Global().Get("location")
	frag := loc.Get("hash").String()
	if id, embed, ok := sharedPage(loc.Get("pathname").String()); ok {
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
	if err != nil {
		sh.linkErr.Set("textContent", "This link could not be opened, so TapeLab shows its default model instead. "+err.Error())
		show(sh.linkErr, true)
	}
	if aerr := sh.apply(st); aerr != nil {
		sh.linkErr.Set("textContent", "Part of this link could not be applied: "+aerr.Error())
		show(sh.linkErr, true)
	}
	js.Global().Get("document").Get("documentElement").Call("setAttribute", "data-link-opened", "true")
}

// apply makes the page show st.
func (sh *shell) apply(st *link.State) error {
	m := st.Model
	pv, tv := sh.pv, sh.tv
	doc := app.Doc{Input: m.Input, Layers: m.Layers, Loss: m.Loss, Seed: m.Seed}
	var errs []error
	// The training view's settings.
	tv.set.Data = m.Dataset
	tv.set.Dataset = m.Dataset.Name
	if tv.set.Dataset == "" { // a model document without a dataset (e.g. shared from the CLI)
		tv.set.Dataset = link.DefaultDataset
		tv.set.Data = train.DefaultData(link.DefaultDataset)
	}
	tv.set.Optimizer, tv.set.Batch = m.Optimizer, m.BatchSize
	tv.points = st.Points
	if st.Points != nil {
		tv.set.Dataset = pointsDataset
	}
	tv.ctl.write()
	// The stepping playground: dataset, modes, model, weights, batch.
	if pv.dataset != tv.set.Data.Name {
		pv.dataset, pv.data = tv.set.Data.Name, nil
	}
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
	tv.doc, tv.params, tv.sess = doc, m.Params, nil
	sh.flags = st.Flags
	sh.applyFlags()
	sh.setView(st.View)
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
	pv, tv := sh.pv, sh.tv
	st := &link.State{View: sh.view, Modes: pv.pg.Modes(), Flags: sh.flags}
	m := tv.specModel(nil)
	if tv.set.Dataset == pointsDataset {
		st.Points = tv.points
	}
	if sh.view == link.ViewTrain && tv.sess != nil && tv.sess.Steps() > 0 {
		m.Params = tv.sess.Params()
	} else if sh.view == link.ViewTrain && tv.params != nil && reflect.DeepEqual(tv.doc, pv.pg.Doc()) {
		m.Params = tv.params
	}
	if sh.view == link.ViewStep && sh.custom != nil && pv.pg.Model() == sh.custom {
		model := pv.pg.Model()
		m.Params = map[string]*tensor.Tensor{}
		for i, p := range model.Seq.Params() {
			m.Params[p.Name] = model.Params[i]
		}
		if sh.customBatch {
			st.Batch = pointsOf(pv.pg.Batch())
		}
	}
	st.Model = m
	if s := pv.pg.Stepper(); s != nil && sh.view == link.ViewStep {
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

// The URL fragment follows the page's state: every change (a step, an
// edit, a mode, the view, a classroom flag, a training render) tells
// linkSync, which re-encodes the state once the changes have stopped for
// linkQuiet, and at least every linkMaxWait while they go on (playing,
// training). While nothing changes, nothing is encoded.
const (
	linkQuiet   = 150 * time.Millisecond
	linkMaxWait = time.Second
)

// syncOnce encodes the state and, when the link changed, replaces the
// history entry (no new entry per change, so Back leaves the page as
// expected) and the share box's link. <html data-link-encodes> counts the
// encodings.
func (sh *shell) syncOnce() {
	if sh.pv.pg.Err() != nil {
		return // a broken model has no link; keep the last good one
	}
	sh.linkEncodes++
	js.Global().Get("document").Get("documentElement").Call("setAttribute", "data-link-encodes", itoa(sh.linkEncodes))
	l, err := link.Encode(sh.state())
	if err != nil {
		sh.notes.Set("textContent", "No link for this state: "+err.Error())
		return
	}
	if l == sh.lastLink {
		return
	}
	sh.lastLink = l
	loc := js.Global().Get("location")
	js.Global().Get("history").Call("replaceState", js.Null(), "", loc.Get("pathname").String()+loc.Get("search").String()+"#"+l)
	full := loc.Get("href").String()
	sh.shareURL.Set("value", full)
	long := len(full) > longLink
	show(sh.shortBtn, long)
	if long {
		sh.notes.Set("textContent", "This link is long ("+itoa(len(full))+" characters, with the weights): a short link is easier to paste.")
	} else {
		sh.notes.Set("textContent", itoa(len(full))+" characters")
	}
	js.Global().Get("document").Get("documentElement").Call("setAttribute", "data-link-length", itoa(len(full)))
}

// copyLink copies the current link to the clipboard.
func (sh *shell) copyLink() {
	sh.syncOnce()
	sh.copyText(sh.shareURL.Get("value").String(), "Link copied.")
}

func (sh *shell) copyText(text, done string) {
	sh.shareURL.Set("value", text)
	sh.shareURL.Call("select")
	clip := js.Global().Get("navigator").Get("clipboard")
	fallback := func() {
		if js.Global().Get("document").Call("execCommand", "copy").Bool() {
			sh.notes.Set("textContent", done)
		} else {
			sh.notes.Set("textContent", "Select the link above and copy it (Ctrl+C).")
		}
	}
	if !present(clip) {
		fallback()
		return
	}
	var ok, fail js.Func
	ok = js.FuncOf(func(js.Value, []js.Value) any {
		ok.Release()
		fail.Release()
		sh.notes.Set("textContent", done)
		return nil
	})
	fail = js.FuncOf(func(js.Value, []js.Value) any {
		ok.Release()
		fail.Release()
		fallback()
		return nil
	})
	clip.Call("writeText", text).Call("then", ok, fail)
}

// shorten asks the share service for a short link: the model document
// (with its weights) is stored, and the short link's fragment carries the
// rest of the state. Without a service (a static copy) it says so and the
// long link stays usable.
func (sh *shell) shorten() {
	st := sh.state()
	doc, err := spec.Encode(st.Model)
	if err != nil {
		sh.notes.Set("textContent", "No short link: "+err.Error())
		return
	}
	rest := *st
	rest.Model = cloneWithoutParams(st.Model)
	frag, err := link.Encode(&rest)
	if err != nil {
		sh.notes.Set("textContent", "No short link: "+err.Error())
		return
	}
	sh.notes.Set("textContent", "Asking the share service…")
	go func() {
		status, body, err := fetchText("POST", "api/share", string(doc))
		recovered("short link", sh.u.report, func() {
			var created struct{ URL string } // the service answers {"id": ..., "url": "/s/<id>"}
			if err == nil && status == 201 {
				var doc *jsontext.Value
				if doc, err = jsontext.Parse([]byte(body), jsontext.Options{}); err == nil {
					if u := doc.Field("url"); u != nil && u.Kind == jsontext.String {
						created.URL = u.Text
					}
				}
			}
			if err != nil || status != 201 || created.URL == "" {
				msg := "no share service answered"
				if err != nil {
					msg = err.Error()
				} else if status != 201 {
					msg = "the server answered " + itoa(status)
				}
				sh.notes.Set("textContent", "Short links need TapeLab's share service, and "+msg+". The long link above works everywhere: copy it instead.")
				sh.shortBtn.Call("setAttribute", "data-unavailable", "true")
				return
			}
			origin := js.Global().Get("location").Get("origin").String()
			short := origin + created.URL + "#" + frag
			sh.copyText(short, "Short link copied.")
			sh.shortBtn.Call("setAttribute", "data-short", short)
		})
	}()
}

// cloneWithoutParams returns m without its parameter values.
func cloneWithoutParams(m *spec.Model) *spec.Model {
	c := *m
	c.Params = nil
	return &c
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
		if err == nil {
			m, err = spec.Decode([]byte(body))
		}
		if err != nil {
			sh.open(link.Default(), errors.Join(errors.New("shared model "+id+": "+err.Error()), ferr))
			return
		}
		st.Model = m
		if embed {
			st.Flags.Embed = true
		}
		sh.open(st, ferr)
	})
}

// fetchText runs fetch(url) and waits for the answer; it must be called
// from a goroutine, never from an event handler.
func fetchText(method, url, body string) (int, string, error) {
	opts := map[string]any{"method": method}
	if body != "" {
		opts["body"] = body
		opts["headers"] = map[string]any{"Content-Type": "application/json"}
	}
	type answer struct {
		status int
		text   string
		err    error
	}
	ch := make(chan answer, 1)
	var onResp, onText, onErr js.Func
	release := func() { onResp.Release(); onText.Release(); onErr.Release() }
	status := 0
	onErr = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "the request failed"
		if len(args) > 0 && present(args[0]) {
			msg = args[0].Call("toString").String()
		}
		ch <- answer{err: errors.New(msg)}
		return nil
	})
	onText = js.FuncOf(func(_ js.Value, args []js.Value) any {
		ch <- answer{status: status, text: args[0].String()}
		return nil
	})
	onResp = js.FuncOf(func(_ js.Value, args []js.Value) any {
		status = args[0].Get("status").Int()
		args[0].Call("text").Call("then", onText, onErr)
		return nil
	})
	js.Global().Call("fetch", url, opts).Call("then", onResp, onErr)
	a := <-ch
	release()
	return a.status, a.text, a.err
}

// itoa formats an int.
func itoa(n int) string { return strconv.Itoa(n) }

// guardKeys stops the playground's keyboard shortcuts for controls the
// classroom flags lock or hide: stepping keys when the stepper is, undo
// and redo when the model is.
func (sh *shell) guardKeys(ev js.Value) {
	key := ev.Get("key").String()
	ctrl := ev.Get("ctrlKey").Bool() || ev.Get("metaKey").Bool()
	blocked := false
	switch {
	case ctrl && (key == "z" || key == "y" || key == "Z"):
		blocked = sh.flags.Locked("model")
	case !ctrl && (key == "ArrowRight" || key == "ArrowLeft" || key == " " || key == "b" || key == "r"):
		blocked = sh.flags.Locked("stepper")
	}
	if blocked {
		ev.Call("stopImmediatePropagation")
		ev.Call("preventDefault")
	}
}
