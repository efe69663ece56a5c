//go:build js && wasm

package lessons

import (
	"errors"
	"strconv"
	"strings"

	"tapelab/wasm/dom"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
)

// authorTools make a lesson by hand: the title, "Add this state as a
// stop", the list of stops (go to one, move it up or down, delete it), the
// current stop's caption (the caption format; its rendering shows above as
// the student will see it) and its question, which is kept only when
// lesson.Check accepts it at the stop (it must ask before the step that
// computes its number).
type authorTools struct {
	lv                        *View
	root                      dom.Elem
	title, list, caption      dom.Elem
	ask, of, node, elem, kind dom.Elem
	qErr                      dom.Elem
	edit                      dom.Elem // "Edit lesson", shown in play mode
}

// authorMarkup is the author tools' skeleton.
const authorMarkup dom.HTML = `
<div class="lesson-author" id="lesson-author">
  <div class="row">
    <label><span class="cap">Title</span><input type="text" id="lesson-title-input"></label>
    <button type="button" id="lesson-add" class="primary"
      title="Add what the playground shows now (model or program, position, modes, selected node) after the current stop">+ Add this state as a stop</button>
    <button type="button" id="lesson-play" title="Play the lesson from this stop as a student sees it">Preview ▶</button>
  </div>
  <ol class="lesson-stops" id="lesson-stops"></ol>
  <textarea id="lesson-caption" rows="4" aria-label="Caption of this stop"
    placeholder="What the class should look at. **bold**, &#96;code&#96;, a blank line between paragraphs."></textarea>
  <div class="row lesson-q" role="group" aria-label="Question">
    <label class="check"><span class="cap">Ask for a prediction</span><input type="checkbox" id="lesson-ask-on"></label>
    <label><span class="cap">the</span><select id="lesson-q-of"></select></label>
    <label><span class="cap">of node</span><input type="number" min="0" id="lesson-q-node" class="num"></label>
    <label><span class="cap">element</span><input type="number" min="0" value="0" id="lesson-q-element" class="num"></label>
    <label><span class="cap">answered with</span><select id="lesson-q-answer"></select></label>
  </div>
  <p class="lesson-msg" id="lesson-q-error" role="alert" hidden></p>
</div>`

func newAuthorTools(lv *View) *authorTools {
	u := lv.u
	a := &authorTools{lv: lv, root: u.Build(authorMarkup)}
	var add1, play dom.Elem
	a.root.Find(dom.Parts{
		{Sel: "#lesson-title-input", To: &a.title}, {Sel: "#lesson-add", To: &add1}, {Sel: "#lesson-play", To: &play},
		{Sel: "#lesson-stops", To: &a.list}, {Sel: "#lesson-caption", To: &a.caption}, {Sel: "#lesson-ask-on", To: &a.ask},
		{Sel: "#lesson-q-of", To: &a.of}, {Sel: "#lesson-q-node", To: &a.node}, {Sel: "#lesson-q-element", To: &a.elem},
		{Sel: "#lesson-q-answer", To: &a.kind}, {Sel: "#lesson-q-error", To: &a.qErr},
	})
	a.title.SetAttribute("maxlength", strconv.Itoa(lesson.MaxTitle))
	a.caption.SetAttribute("maxlength", strconv.Itoa(lesson.MaxCaption))
	u.Options(a.of, []string{lesson.OfGrad, lesson.OfValue}, []string{"gradient", "value"}, lesson.OfGrad)
	u.Options(a.kind, []string{lesson.AnswerNumber, lesson.AnswerSign}, []string{"a number", "its sign"}, lesson.AnswerNumber)
	u.Listen(a.title, "input", "lesson title", func(dom.Event) {
		lv.l.Title = a.title.Value()
		lv.heading.SetTextContent(lv.l.Title)
	})
	u.OnClick(add1, a.addStop)
	u.OnClick(play, func() { lv.setMode(false) })
	u.Listen(a.caption, "input", "lesson caption", func(dom.Event) {
		if len(lv.l.Stops) == 0 {
			return
		}
		lv.l.Stops[lv.cur].Caption = a.caption.Value()
		lv.caption.Clear()
		renderCaption(u, lv.caption, a.caption.Value())
		a.renderList()
	})
	u.Listen(a.ask, "change", "lesson question", func(dom.Event) {
		a.suggest()
		a.setQuestion()
	})
	for _, c := range []dom.Elem{a.of, a.node, a.elem, a.kind} {
		u.Listen(c, "change", "lesson question", func(dom.Event) { a.setQuestion() })
	}
	a.edit = u.Button("✎ Edit lesson", "Author mode: add, reorder and caption the stops", func() { lv.setMode(true) }, "id", "lesson-edit")
	return a
}

// render shows the tools in author mode (and only Edit in play mode).
func (a *authorTools) render() {
	lv := a.lv
	a.root.Show(lv.author)
	a.edit.Show(!lv.author)
	if !lv.author {
		return
	}
	a.title.SetValue(lv.l.Title)
	a.renderList()
	has := len(lv.l.Stops) > 0
	a.caption.SetDisabled(!has)
	a.caption.SetValue("")
	a.qErr.Show(false)
	if !has {
		a.ask.SetChecked(false)
		return
	}
	stop := lv.l.Stops[lv.cur]
	a.caption.SetValue(stop.Caption)
	q := stop.Question
	a.ask.SetChecked(q != nil)
	if q == nil {
		sel := lv.st.Selected()
		if stop.Select != nil {
			sel = *stop.Select
		}
		a.node.SetValue(strconv.Itoa(max(sel, 0)))
		a.of.SetValue(lesson.OfGrad)
		a.elem.SetValue("0")
		a.kind.SetValue(lesson.AnswerNumber)
		return
	}
	a.of.SetValue(q.Of)
	a.node.SetValue(strconv.Itoa(q.Node))
	a.elem.SetValue(strconv.Itoa(q.Element))
	a.kind.SetValue(q.Answer)
}

// renderList lists the stops, each with its first caption line.
func (a *authorTools) renderList() {
	lv, u := a.lv, a.lv.u
	a.list.Clear()
	if len(lv.l.Stops) == 0 {
		a.list.AppendChild(u.Txt("li", "No stops yet: set up the playground, then press “Add this state as a stop”.", "class", "hint"))
		return
	}
	for i, s := range lv.l.Stops {
		i := i
		line, _, _ := strings.Cut(strings.TrimSpace(s.Caption), "\n")
		if line == "" {
			line = "(no caption)"
		}
		if s.Question != nil {
			line += " · asks"
		}
		li := u.El("li")
		if i == lv.cur {
			li.SetAttribute("aria-current", "step")
		}
		dom.Add(li, u.Button(strconv.Itoa(i+1)+". "+line, "Go to stop "+strconv.Itoa(i+1), func() { lv.cur = i; lv.backToStop() }, "class", "link", "id", "lesson-stop-"+strconv.Itoa(i)),
			u.Button("↑", "Move stop "+strconv.Itoa(i+1)+" up", func() { a.move(i, i-1) }, "id", "lesson-up-"+strconv.Itoa(i)),
			u.Button("↓", "Move stop "+strconv.Itoa(i+1)+" down", func() { a.move(i, i+1) }, "id", "lesson-down-"+strconv.Itoa(i)),
			u.Button("✕", "Delete stop "+strconv.Itoa(i+1), func() { a.remove(i) }, "id", "lesson-delete-"+strconv.Itoa(i)))
		a.list.AppendChild(li)
	}
}

// addStop adds the page's state, with its selected node, after the
// current stop and makes it the current one.
func (a *authorTools) addStop() {
	lv := a.lv
	l := lv.l
	if len(l.Stops) >= lesson.MaxStops {
		lv.showError(errors.New("a lesson has at most " + strconv.Itoa(lesson.MaxStops) + " stops"))
		return
	}
	st, err := cloneState(lv.st.Link())
	if err != nil {
		lv.showError(err)
		return
	}
	stop := lesson.Stop{State: st}
	if sel := lv.st.Selected(); sel >= 0 {
		stop.Select = &sel
	}
	at := 0
	if len(l.Stops) > 0 {
		at = lv.cur + 1
	}
	l.Stops = append(l.Stops[:at], append([]lesson.Stop{stop}, l.Stops[at:]...)...)
	lv.cur = at
	lv.stepAt = lv.st.Source().Stepper()
	lv.home, _ = link.Encode(lv.st.Link())
	lv.away = false
	lv.showError(nil)
	lv.render()
}

// move moves stop i to j.
func (a *authorTools) move(i, j int) {
	l := a.lv.l
	if j < 0 || j >= len(l.Stops) {
		return
	}
	l.Stops[i], l.Stops[j] = l.Stops[j], l.Stops[i]
	if a.lv.cur == i {
		a.lv.cur = j
	} else if a.lv.cur == j {
		a.lv.cur = i
	}
	a.lv.render()
}

// remove deletes stop i; the current stop stays, or the one before it.
func (a *authorTools) remove(i int) {
	lv := a.lv
	lv.l.Stops = append(lv.l.Stops[:i], lv.l.Stops[i+1:]...)
	if lv.cur > i || lv.cur >= len(lv.l.Stops) {
		lv.cur = max(lv.cur-1, 0)
	}
	lv.render()
}

// suggest fills the question's fields, when "Ask for a prediction" is
// ticked on a stop that asks nothing yet, with a question the stop can
// ask (lesson.Suggest: the gradient of its selected node or of the first
// parameter, which the next steps compute).
func (a *authorTools) suggest() {
	lv := a.lv
	if !a.ask.Checked() || len(lv.l.Stops) == 0 || lv.l.Stops[lv.cur].Question != nil {
		return
	}
	stop := lv.l.Stops[lv.cur]
	if stop.Select == nil {
		if sel := lv.st.Selected(); sel >= 0 {
			stop.Select = &sel
		}
	}
	if q := lesson.Suggest(stop); q != nil {
		a.of.SetValue(q.Of)
		a.node.SetValue(strconv.Itoa(q.Node))
		a.elem.SetValue(strconv.Itoa(q.Element))
		a.kind.SetValue(q.Answer)
	}
}

// setQuestion sets the current stop's question from the fields, when
// lesson.Check accepts it there; else it says why in plain words
// (lesson.Problem) and the stop asks nothing.
func (a *authorTools) setQuestion() {
	lv := a.lv
	if len(lv.l.Stops) == 0 {
		return
	}
	stop := &lv.l.Stops[lv.cur]
	stop.Question = nil
	a.qErr.Show(false)
	if a.ask.Checked() {
		node, err1 := strconv.Atoi(a.node.Value())
		el, err2 := strconv.Atoi(a.elem.Value())
		if err1 != nil || err2 != nil {
			a.qErr.SetTextContent("The node and the element are whole numbers.")
			a.qErr.Show(true)
			a.renderList()
			return
		}
		q := &lesson.Question{Node: node, Of: a.of.Value(), Element: el, Answer: a.kind.Value()}
		one := &lesson.Lesson{Title: "check", Stops: []lesson.Stop{{State: stop.State, Question: q}}}
		msg := lesson.Problem(*stop, q)
		if msg == "" { // Problem finds what Check refuses; Check keeps the last word
			if err := one.Validate(); err != nil {
				msg = err.Error()
			} else if err := lesson.Check(one); err != nil {
				msg = err.Error()
			}
		}
		if msg != "" {
			a.qErr.SetTextContent(msg)
			a.qErr.Show(true)
		} else {
			stop.Question = q
		}
	}
	a.renderList()
}
