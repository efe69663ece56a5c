//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"errors"
	"strconv"

	"tapelab/engine/autograd"
	"tapelab/engine/spec"
	"tapelab/wasm/app"
	"tapelab/wasm/lesson"
	"tapelab/wasm/lessons"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/training"
)

// Shell is everything around the playground that a link carries: the
// Step/Train switch, the training view, the share bar, the classroom
// flags, the explain panel and the downloads. The page's state
// (wasm/state) lives in the URL fragment and follows the user's work.
type Shell struct {
	u  *dom.Document
	pv *playground
	tv *training.View // built when the training view is first shown
	// lessons is the lesson panel and the Lessons menu.
	lessons *lessons.View
	// note says, above the tape, that choosing a dataset switched the
	// model (see chooseData).
	note *stepNote

	st *state.State // the page's state, shared with the playground

	bar, viewStep, viewTrain  dom.Elem
	shareURL, shortBtn, notes dom.Elem
	made                      dom.Elem   // the links a stored share gives, hidden until made
	madeFields                []dom.Elem // the short link, the embed link and the iframe snippet
	exportMsg                 dom.Elem
	presenterBtn, explainBtn  dom.Elem
	boxes                     map[string][2]dom.Elem // per classroom control, its hide and lock checkboxes
	embedBox                  dom.Elem
	lastLink                  string
	linkSync                  *linkDebouncer // re-encodes the link after the state changed
	linkEncodes               int
}

// newShell adds the share bar, the classroom features, the explain panel
// and the lessons to the playground (the training view waits until it is
// first shown). It draws nothing: start opens the page's link.
func newShell(p *Page, pv *playground) *Shell {
	u := p.doc
	sh := &Shell{u: u, pv: pv, st: pv.st, boxes: map[string][2]dom.Elem{}}
	// The encoding (tens of milliseconds for a link with weights) runs in
	// a task of its own: its timer may come due while a click's handler
	// runs, and Go would then run it inside that click, before the step's
	// frame.
	sh.linkSync = newLinkDebouncer(u.Root(), func() {
		dom.YieldToBrowser()
		dom.Recovered("share link", u.Report, sh.syncOnce)
	})
	// Every change of the state, after the views redrew it, reaches the
	// link encoder on the state's background relay; one pending change is
	// enough to have the whole state encoded again.
	changes := sh.st.Background(1)
	go func() {
		for range changes.Ch() {
			sh.linkSync.Debouncer.Changed()
		}
	}()
	sh.note = newStepNote(sh)
	sh.buildBar()
	p.Pace()
	sh.lessons = newLessons(sh)
	pv.work.AppendChild(pv.steps.Explain())
	return sh
}

// load opens the page's plain link (not a shared page's, nor a lesson's)
// into the state, records its step and lays its tape out, before any view
// follows the state: start-up runs it in a task of its own, so that the
// task that takes the first view over only draws. start announces what it
// opened. A link whose opening panics is an internal error, recovered
// like a listener's: the page says so above the default model, which it
// opens instead.
func (sh *Shell) load() {
	loc := dom.CurrentLocation()
	if _, _, ok := app.SharedPage(loc.Path); ok || lesson.IsFragment(loc.Hash) {
		return
	}
	dom.Recovered("opening the link", sh.loadFailed, func() {
		st, err := link.Open(loc.Hash)
		sh.open(st, err)
		sh.st.Opened() // records the step; the views read the error when they draw it
		sh.pv.p.Pace()
		if s := sh.st.Source().Stepper(); s != nil {
			s.Layout() // kept for the tape view; it reports an error when it draws
		}
	})
}

// loadFailed opens the default model after opening the page's link (a
// plain one, or a lesson's) panicked with msg, and says so above it.
func (sh *Shell) loadFailed(msg string) {
	sh.open(link.Default(), nil)
	sh.st.Opened()
	sh.pv.showLinkError("This link could not be opened, so TapeLab shows its default model instead: TapeLab hit an internal error opening it (" + msg + ").")
}

// start follows the page's state, once the playground is mounted, and
// opens the shared page or the lesson the page was loaded with, or
// announces the plain link load opened.
func (sh *Shell) start() {
	u, pv := sh.u, sh.pv
	sh.exposeExports()
	exposeMemStats(sh.u)
	sh.st.Follow(sh.follow)
	// Locked or hidden controls stay locked from the keyboard too: the
	// playground's shortcuts are stopped before they reach it.
	u.ListenFirst(u, "keydown", "classroom keys", sh.guardKeys)

	loc := dom.CurrentLocation()
	frag := loc.Hash
	if id, embed, ok := app.SharedPage(loc.Path); ok {
		if doc := u.ByID("shared-document"); doc.OK() {
			// The server put the document in the page (and drew its first
			// view): open it at once, with no default model in between.
			sh.openDocument(id, embed, frag, 200, doc.TextContent(), nil)
		} else {
			pv.changed(state.Step, nil, u.Report) // the default model, until the share service answers
			go sh.openShared(id, embed, frag)
		}
	} else if lesson.IsFragment(frag) {
		dom.Recovered("opening the lesson link", sh.loadFailed, func() {
			if err := sh.lessons.OpenFragment(frag); err != nil { // else it drew the playground
				sh.open(link.Default(), err)
			}
		})
	} else {
		sh.st.Announce() // the views draw the state load opened
	}
}

// open makes the decoded state st the page's; err (a broken link) is shown
// above the playground, which then shows st (the default model). The
// playground records st's step when it draws it, and says what of it did
// not apply (see playground.opened).
func (sh *Shell) open(st *link.State, err error) {
	if err != nil {
		sh.pv.showLinkError("This link could not be opened, so TapeLab shows its default model instead. " + err.Error())
	}
	sh.st.Replace(st)
}

// follow is the page's one dispatcher: the state calls it with each of its
// changes (and a step's event) at once, on the goroutine that made the
// change, and it tells the views in a fixed order: the playground (the
// tape, the stepper, the inspector, the editors), the shell (classroom
// flags, the view on screen, the explain panel, the link), the lesson,
// then the training view. A view that panics is reported, and the views
// after it are still told.
func (sh *Shell) follow(c state.Change, e *autograd.Event) {
	tv := sh.tv // a training view the shell builds for this change draws itself
	report := sh.u.Report
	sh.pv.changed(c, e, report)
	dom.Recovered("redraw", report, func() { sh.changed(c) })
	dom.Recovered("lesson", report, func() { sh.lessons.Changed(c, e) })
	if tv != nil {
		dom.Recovered("redraw", report, func() { tv.Changed(c, e) })
	}
}

// changed shows what a change of the state touched of the shell, and
// re-encodes the link: every change of the state changes it.
func (sh *Shell) changed(c state.Change) {
	if c.Has(state.Flags) {
		sh.applyFlags()
	}
	if c.Has(state.View | state.Editing) {
		sh.showView()
	}
	sh.linkSync.count() // the encoding follows on the state's background relay
}

// setView switches between the stepping view and the training view.
func (sh *Shell) setView(view string) {
	if sh.tv != nil && view != link.ViewTrain {
		sh.tv.Pause() // first: the stepping view shows the weights the training stopped at
	}
	sh.st.SetView(view)
}

// showView shows which view is on screen; in Program mode the Step/Train
// switch is hidden (a program is stepped, not trained).
func (sh *Shell) showView() {
	train := sh.st.View() == link.ViewTrain
	if train && sh.tv == nil {
		sh.buildTrainView()
	}
	sh.pv.root.ToggleClass("view-train", train)
	sh.viewStep.SetAttribute("aria-pressed", strconv.FormatBool(!train))
	sh.viewTrain.SetAttribute("aria-pressed", strconv.FormatBool(train))
	sh.viewStep.Closest(".seg").Show(!sh.st.ProgramMode())
}

// buildTrainView builds the training view the first time it is shown, as
// it would have been at start-up: its controls hold the state's training
// settings, the classroom's flags govern its regions, and it shows itself
// (training from the state's weights); from then on it follows the state.
func (sh *Shell) buildTrainView() {
	u, pv := sh.u, sh.pv
	sh.tv = training.New(training.Deps{
		Doc: u, State: sh.st, Scale: pv.p.scale,
		Own: pv.regions.own, Edit: pv.edit, SetDataset: pv.setDataset,
		Missing: pv.files.missing,
		Fetch:   func(name string, done func(error)) { pv.files.loadThen(name, u.Report, done) },
		Note:    sh.note.say,
	})
	pv.centre.After(sh.tv.Root())
	sh.applyFlags()
	sh.tv.Changed(state.View, nil) // shows itself
}

// openShared opens /s/{id} or /embed/{id}: the stored model document from
// the share service, with the rest of the state from the fragment.
func (sh *Shell) openShared(id string, embed bool, frag string) {
	status, body, err := dom.FetchText("GET", "api/share/"+id, "")
	sh.openDocument(id, embed, frag, status, body, err)
}

// openDocument opens the shared document body, which the share service
// answered with status (or err) for id.
func (sh *Shell) openDocument(id string, embed bool, frag string, status int, body string, err error) {
	dom.Recovered("opening a shared model", sh.u.Report, func() {
		st, ferr := link.Open(frag)
		if err == nil && status != 200 {
			sh.pv.showLinkError("This link could not be opened: " + app.FetchedShare(id, status).Error() + ". TapeLab shows its default model instead.")
			sh.st.Replace(link.Default())
			return
		}
		var m *spec.Model
		src := ""
		if err == nil && lesson.IsDocument([]byte(body)) {
			if embed {
				f := sh.st.Flags()
				f.Embed = true
				sh.st.SetFlags(f) // the stops keep it on
			}
			if err = sh.lessons.OpenDocument([]byte(body)); err == nil {
				return
			}
		}
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
