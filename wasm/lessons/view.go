//go:build js && wasm

// Package lessons is the page's lesson screen: the Lessons menu of the
// shell's bar and the lesson panel, which plays a lesson (wasm/lesson) stop
// by stop and, in author mode, makes one. Whatever it needs of the
// playground and the shell arrives through its Deps.
package lessons

import (
	"tapelab/wasm/debounce"

	"errors"
	"time"

	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
)

// View is the page's side of a lesson (wasm/lesson): while one is open,
// the lesson panel above the workspace shows its current stop (the
// caption, the stop bar, the question) and, in author mode, the tools that
// make it. Opening a stop applies its state as a link does; the student
// may then explore freely, and "Back to stop" applies it again. While a
// lesson is played, the address bar holds the lesson's link (when it fits
// link.Budget) instead of the state's, so that reloading reopens it.
type View struct {
	deps Deps
	u    *dom.Document
	st   *state.State

	l      *lesson.Lesson // nil: no lesson open
	cur    int            // the current stop (0 when the lesson has none)
	author bool           // author mode, else play mode
	home   string         // the page's link right after the current stop opened
	stepAt *app.Stepper   // the stepper the current stop opened
	away   bool           // the page no longer shows the stop's state
	addr   string         // the lesson fragment the address bar holds ("" for none)
	watch  func()         // compares the page with the stop after changes (a debounce.Debouncer's Changed)

	root, heading, count, prev, next, back, caption, msg dom.Elem
	predict                                              *predictBox
	tools                                                *authorTools
	travel                                               *travel
	menu                                                 dom.Elem
}

// Deps is what the lesson screen needs of the page around it.
type Deps struct {
	// Doc is the page's document.
	Doc *dom.Document
	// State is the page's state: a stop replaces it, a new stop copies it.
	State *state.State
	// Mount puts the lesson panel on the page, under the top bar, when the
	// first lesson opens; share is the panel's part that the classroom's
	// share control hides and locks, as it does the share bar.
	Mount func(panel, share dom.Elem)
	// Pause pauses the stepper if it is playing, before a stop applies its
	// state or a question reveals its answer.
	Pause func()
	// Reveal selects node to show a question's answer; on a phone the
	// inspector's sheet stays closed, so that the lesson stays in view.
	Reveal func(node int)
	// CloseMenu closes the top bar's menu (the Lessons menu sits in it),
	// so that the lesson chosen is in view.
	CloseMenu func()
	// LinkError shows msg above the playground, where a link's errors go
	// ("" hides it): a lesson file that could not be opened says so there.
	LinkError func(msg string)
	// LinkChanged tells the shell's link to write the address bar again: a
	// lesson took it, or gave it back to the state's link.
	LinkChanged func()
	// Base is the page's address without fragment, query or share path,
	// to which a lesson's link adds its fragment.
	Base func() string
}

// quiet is how long the page must be still before it is compared with
// the stop (Back to stop, the question's "stepped past").
const quiet = 120 * time.Millisecond

// markup is the lesson panel's skeleton.
const markup dom.HTML = `
<section class="lesson" id="lesson" aria-labelledby="lesson-title" hidden>
  <div class="lesson-head">
    <h2 id="lesson-title"></h2>
    <div class="lesson-nav" role="group" aria-label="Stops">
      <button type="button" id="lesson-prev" title="Previous stop (PgUp or P)">◀ <span class="word">Previous</span></button>
      <span id="lesson-count" class="lesson-count mono" aria-live="polite"></span>
      <button type="button" id="lesson-next" class="primary" title="Next stop (PgDn or N)"><span class="word">Next</span> ▶</button>
      <button type="button" id="lesson-back" title="Show this stop's state again, as the lesson set it" hidden>↺ <span class="word">Back to stop</span></button>
    </div>
    <slot name="travel"></slot>
  </div>
  <div class="lesson-body">
    <div class="lesson-caption" id="lesson-caption-view"></div>
    <slot name="question"></slot>
  </div>
  <p class="lesson-msg" id="lesson-msg" role="alert" hidden></p>
  <slot name="author"></slot>
</section>`

// New makes the lesson screen: the Lessons menu (Menu), for the shell's
// bar. The lesson panel (Root) is built when a lesson first opens: a page
// that opens none never builds it.
func New(deps Deps) *View {
	u := deps.Doc
	lv := &View{deps: deps, u: u, st: deps.State}
	lv.watch = debounce.New(quiet, time.Second, func() { dom.Recovered("lesson", u.Report, lv.changed) }).Changed
	lv.travel = &travel{lv: lv}
	lv.menu = lv.travel.menu()
	return lv
}

// Menu is the Lessons menu, for the shell's bar.
func (lv *View) Menu() dom.Elem { return lv.menu }

// Root is the lesson panel; it is not OK until the first lesson opens.
func (lv *View) Root() dom.Elem { return lv.root }

// Active reports whether a lesson is open: its stops, not the page's link,
// then say what of their state did not apply.
func (lv *View) Active() bool { return lv.l != nil }

// Advance opens the stop delta away from the current one (+1 the next,
// -1 the previous; nothing beyond the ends) and reports whether a lesson
// is open: without one the keys that turn the stops keep their default.
func (lv *View) Advance(delta int) bool {
	if lv.l == nil {
		return false
	}
	lv.goTo(lv.cur + delta)
	return true
}

// HoldsAddress reports whether a played lesson holds the address bar: the
// state's link is then only offered in the share box.
func (lv *View) HoldsAddress() bool { return lv.addr != "" }

// Changed follows the state while a lesson is open: its watch judges the
// stop once the changes have stopped (changed).
func (lv *View) Changed(state.Change, *autograd.Event) {
	if lv.l != nil {
		lv.watch()
	}
}

// panel builds the lesson panel, under the top bar, once.
func (lv *View) panel() {
	if lv.root.OK() {
		return
	}
	u := lv.u
	lv.root = u.Build(markup)
	lv.root.Find(dom.Parts{
		{Sel: "#lesson-title", To: &lv.heading}, {Sel: "#lesson-prev", To: &lv.prev}, {Sel: "#lesson-count", To: &lv.count},
		{Sel: "#lesson-next", To: &lv.next}, {Sel: "#lesson-back", To: &lv.back}, {Sel: "#lesson-caption-view", To: &lv.caption},
		{Sel: "#lesson-msg", To: &lv.msg},
	})
	u.OnClick(lv.prev, func() { lv.goTo(lv.cur - 1) })
	u.OnClick(lv.next, func() { lv.goTo(lv.cur + 1) })
	u.OnClick(lv.back, lv.backToStop)
	lv.predict = newPredictBox(lv)
	lv.tools = newAuthorTools(lv)
	lv.root.Fill("travel", lv.travel.tools())
	lv.root.Fill("question", lv.predict.root)
	lv.root.Fill("author", lv.tools.root)
	lv.deps.Mount(lv.root, lv.travel.bar) // its tools are the share control's
}

// open shows l from its first stop, in author or play mode.
func (lv *View) open(l *lesson.Lesson, author bool) {
	lv.panel()
	lv.l, lv.author, lv.cur = l, author, 0
	lv.root.Show(true)
	lv.msg.Show(false)
	lv.u.Root().ToggleClass("lesson-open", true)
	if len(l.Stops) > 0 {
		lv.applyStop()
	}
	lv.render()
	lv.holdAddress()
}

// close puts the lesson away; the page keeps the state it shows.
func (lv *View) close() {
	lv.l = nil
	lv.root.Show(false)
	lv.u.Root().ToggleClass("lesson-open", false)
	lv.addr = ""
	lv.deps.LinkChanged()
}

// setMode switches between author and play mode.
func (lv *View) setMode(author bool) {
	lv.author = author
	lv.render()
	lv.holdAddress()
}

// holdAddress makes the address bar hold the lesson's link while it is
// played (and fits link.Budget), and the state's link otherwise.
func (lv *View) holdAddress() {
	lv.addr = ""
	if lv.l != nil && !lv.author && len(lv.l.Stops) > 0 {
		if f, err := lesson.Fragment(lv.l); err == nil && len(lv.deps.Base()+"#"+f) <= link.Budget {
			lv.addr = f
			dom.ReplaceFragment(f)
		}
	}
	lv.deps.LinkChanged()
}

// OpenFragment opens a lesson link (#l1.…) the page was loaded with; a
// broken one opens nothing and returns the lesson's error.
func (lv *View) OpenFragment(frag string) error {
	l, err := lesson.DecodeFragment(frag)
	if err != nil {
		return errors.New("the lesson link could not be read: " + err.Error())
	}
	lv.open(l, false)
	return nil
}

// OpenDocument opens a lesson document (a file, the share service's) in
// play mode, or returns why it is not one.
func (lv *View) OpenDocument(doc []byte) error {
	l, err := lesson.Decode(doc)
	if err != nil {
		return err
	}
	lv.open(l, false)
	return nil
}
