//go:build js && wasm

package main

import (
	"strconv"

	"tapelab/wasm/dom"

	"errors"
	"strings"
	"time"

	"tapelab/wasm/app"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
)

// lessonView is the page's side of a lesson (wasm/lesson): while one is
// open, the lesson panel above the workspace shows its current stop (the
// caption, the stop bar, the question) and, in author mode, the tools that
// make it. Opening a stop applies its state as a link does; the student
// may then explore freely, and "Back to stop" applies it again. While a
// lesson is played, the address bar holds the lesson's link (when it fits
// link.Budget) instead of the state's, so that reloading reopens it.
type lessonView struct {
	sh *shell
	u  *dom.Document

	l      *lesson.Lesson // nil: no lesson open
	cur    int            // the current stop (0 when the lesson has none)
	author bool           // author mode, else play mode
	home   string         // the page's link right after the current stop opened
	stepAt *app.Stepper   // the stepper the current stop opened
	away   bool           // the page no longer shows the stop's state
	addr   string         // the lesson fragment the address bar holds ("" for none)
	watch  *debouncer     // compares the page with the stop after changes

	root, heading, count, prev, next, back, caption, msg dom.Elem
	predict                                              *predictBox
	tools                                                *authorTools
	travel                                               *lessonTravel
}

// lessonQuiet is how long the page must be still before it is compared
// with the stop (Back to stop, the question's "stepped past").
const lessonQuiet = 120 * time.Millisecond

// lessonMarkup is the lesson panel's skeleton.
const lessonMarkup dom.HTML = `
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

// newLessonView makes the Lessons menu of the shell's bar. The lesson
// panel is built when a lesson first opens (panel): a page that opens none
// never builds it.
func newLessonView(sh *shell) *lessonView {
	u := sh.u
	lv := &lessonView{sh: sh, u: u}
	lv.watch = newDebouncer(lessonQuiet, time.Second, func() { dom.Recovered("lesson", u.Report, lv.changed) })
	lv.travel = &lessonTravel{lv: lv}
	sh.bar.Prepend(lv.travel.menu())
	sh.pv.onStop = func(d int) bool {
		if lv.l == nil {
			return false
		}
		lv.goTo(lv.cur + d)
		return true
	}
	sh.pv.inLesson = func() bool { return lv.l != nil }
	return lv
}

// stateChanged follows the state while a lesson is open: its watch judges
// the stop once the changes have stopped (changed).
func (lv *lessonView) stateChanged() {
	if lv.l != nil {
		lv.watch.changed()
	}
}

// panel builds the lesson panel, under the top bar, once.
func (lv *lessonView) panel() {
	if lv.root.OK() {
		return
	}
	u := lv.u
	lv.root = u.Build(lessonMarkup)
	lv.root.Find(dom.Parts{
		"#lesson-title": &lv.heading, "#lesson-prev": &lv.prev, "#lesson-count": &lv.count,
		"#lesson-next": &lv.next, "#lesson-back": &lv.back, "#lesson-caption-view": &lv.caption,
		"#lesson-msg": &lv.msg,
	})
	u.OnClick(lv.prev, func() { lv.goTo(lv.cur - 1) })
	u.OnClick(lv.next, func() { lv.goTo(lv.cur + 1) })
	u.OnClick(lv.back, lv.backToStop)
	lv.predict = newPredictBox(lv)
	lv.tools = newAuthorTools(lv)
	lv.root.Fill("travel", lv.travel.tools())
	lv.root.Fill("question", lv.predict.root)
	lv.root.Fill("author", lv.tools.root)
	lv.sh.pv.bar.root.After(lv.root)
	lv.sh.showRegions(lv.sh.st.Flags()) // its tools are the share control's
}

// open shows l from its first stop, in author or play mode.
func (lv *lessonView) open(l *lesson.Lesson, author bool) {
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
func (lv *lessonView) close() {
	lv.l = nil
	lv.root.Show(false)
	lv.u.Root().ToggleClass("lesson-open", false)
	lv.addr = ""
	lv.sh.linkSync.changed()
}

// setMode switches between author and play mode.
func (lv *lessonView) setMode(author bool) {
	lv.author = author
	lv.render()
	lv.holdAddress()
}

// goTo opens stop i (ignored beyond the ends).
func (lv *lessonView) goTo(i int) {
	if lv.l == nil || i < 0 || i >= len(lv.l.Stops) || i == lv.cur && !lv.away {
		return
	}
	lv.cur = i
	lv.applyStop()
	lv.render()
}

// backToStop applies the current stop's state again.
func (lv *lessonView) backToStop() {
	if lv.l == nil || len(lv.l.Stops) == 0 {
		return
	}
	lv.applyStop()
	lv.render()
}

// applyStop makes the page show the current stop: its state (keeping the
// page's presenter and embed modes on when they are), its selected node,
// and its question asked afresh.
func (lv *lessonView) applyStop() {
	sh, pv := lv.sh, lv.sh.pv
	stop := lv.l.Stops[lv.cur]
	st, err := cloneState(stop.State)
	if err == nil {
		f := sh.st.Flags()
		st.Flags.Presenter = st.Flags.Presenter || f.Presenter
		st.Flags.Embed = st.Flags.Embed || f.Embed
		pv.stepper.pause()
		sh.st.Replace(st)
		err = sh.st.Opened() // the stop's step, recorded now: its node is selected below
	}
	if s := pv.src().Stepper(); stop.Select != nil && s != nil && *stop.Select < len(s.Nodes()) {
		pv.inspect(*stop.Select)
	}
	lv.showError(err)
	lv.stepAt = pv.src().Stepper()
	lv.home, _ = link.Encode(sh.st.Link())
	lv.away = false
	lv.predict.reset(stop.Question)
	sh.u.Root().SetAttribute("data-link-opened", "true")
}

// cloneState copies a state through its canonical envelope, so that the
// page never shares a model document with the lesson.
func cloneState(st *link.State) (*link.State, error) {
	raw, err := link.JSON(st)
	if err != nil {
		return nil, err
	}
	return link.DecodeJSON(raw)
}

// changed compares the page with the stop after the page changed.
func (lv *lessonView) changed() {
	if lv.l == nil || len(lv.l.Stops) == 0 {
		return
	}
	now, err := link.Encode(lv.sh.st.Link())
	lv.away = err != nil || now != lv.home
	lv.back.Show(lv.away)
	lv.root.SetAttribute("data-away", strconv.FormatBool(lv.away))
	lv.predict.watch()
}

// showError shows err under the stop (nil hides it).
func (lv *lessonView) showError(err error) {
	if err == nil {
		lv.msg.Show(false)
		return
	}
	lv.msg.SetTextContent(err.Error())
	lv.msg.Show(true)
}

// render shows the title, the stop bar, the caption, the question and the
// author's tools.
func (lv *lessonView) render() {
	l := lv.l
	if l == nil {
		return
	}
	n := len(l.Stops)
	lv.root.SetAttribute("data-mode", map[bool]string{true: "author", false: "play"}[lv.author])
	lv.root.SetAttribute("data-stop", strconv.Itoa(lv.cur))
	lv.root.SetAttribute("data-stops", strconv.Itoa(n))
	lv.root.SetAttribute("data-away", strconv.FormatBool(lv.away))
	lv.heading.SetTextContent(l.Title)
	if n == 0 {
		lv.count.SetTextContent("0 / 0")
	} else {
		lv.count.SetTextContent(strconv.Itoa(lv.cur+1) + " / " + strconv.Itoa(n))
	}
	lv.prev.SetDisabled(lv.cur <= 0)
	lv.next.SetDisabled(lv.cur >= n-1)
	lv.back.Show(lv.away)
	lv.caption.Clear()
	if n > 0 {
		renderCaption(lv.u, lv.caption, l.Stops[lv.cur].Caption)
		lv.predict.render(l.Stops[lv.cur].Question, lv.author)
	} else {
		lv.predict.render(nil, lv.author)
	}
	lv.tools.render()
	lv.travel.render()
}

// renderCaption writes a caption into parent as paragraphs of text nodes
// (bold in <strong>, code in <code>, line breaks as <br>): never as HTML,
// so whatever the caption holds shows as written.
func renderCaption(u *dom.Document, parent dom.Elem, caption string) {
	for _, b := range lesson.Parse(caption) {
		p := u.El("p")
		for _, s := range b.Spans {
			switch {
			case s.Break:
				p.AppendChild(u.El("br"))
			case s.Code:
				p.AppendChild(u.Txt("code", s.Text))
			case s.Bold:
				p.AppendChild(u.Txt("strong", s.Text))
			default:
				p.AppendChild(u.TextNode(s.Text))
			}
		}
		parent.AppendChild(p)
	}
}

// holdAddress makes the address bar hold the lesson's link while it is
// played (and fits link.Budget), and the state's link otherwise.
func (lv *lessonView) holdAddress() {
	lv.addr = ""
	if lv.l != nil && !lv.author && len(lv.l.Stops) > 0 {
		if f, err := lesson.Fragment(lv.l); err == nil && len(pageBase()+"#"+f) <= link.Budget {
			lv.addr = f
			dom.ReplaceFragment(f)
		}
	}
	lv.sh.linkSync.changed()
}

// publish is where the share box's link goes after the state changed:
// into the address bar, unless a played lesson holds it (then the state's
// link is only offered in the share box). It returns the full link.
func (sh *shell) publish(frag string) string {
	if sh.lessons != nil && sh.lessons.addr != "" {
		return pageBase() + "#" + frag
	}
	return dom.ReplaceFragment(frag)
}

// pageBase is the page's address without fragment, query or share path
// (/s/{id} and /embed/{id} open the playground at their folder).
func pageBase() string {
	loc := dom.CurrentLocation()
	path := loc.Path
	if _, _, ok := app.SharedPage(path); ok {
		for _, kind := range []string{"/s/", "/embed/"} {
			if i := strings.LastIndex(path, kind); i >= 0 {
				path = path[:i+1]
				break
			}
		}
	}
	return loc.Origin + path
}

// openFragment opens a lesson link (#l1.…) the page was loaded with; a
// broken one shows the default model with the lesson's error.
func (lv *lessonView) openFragment(frag string) {
	l, err := lesson.DecodeFragment(frag)
	if err != nil {
		lv.sh.open(link.Default(), errors.New("the lesson link could not be read: "+err.Error()))
		return
	}
	lv.open(l, false)
}

// openDocument opens a lesson document (a file, the share service's).
func (lv *lessonView) openDocument(doc []byte) error {
	l, err := lesson.Decode(doc)
	if err != nil {
		return err
	}
	lv.open(l, false)
	return nil
}
