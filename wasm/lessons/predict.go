//go:build js && wasm

package lessons

import (
	"strconv"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/lesson"
)

// predictBox is a stop's question, predict then reveal: the stop stands
// before the step that computes the number asked for, so the page does not
// show it yet; the student types a number (or picks a sign), is told how
// close it was (lesson.Score), and then the page steps on until the number
// is computed and inspects its node. A student who steps past it first
// is told so, and Back to stop asks again.
type predictBox struct {
	lv      *View
	root    dom.Elem
	ask     dom.Elem
	form    dom.Elem // the number field and Check
	guess   dom.Elem
	signs   dom.Elem // the sign buttons
	verdict dom.Elem

	q        *lesson.Question
	answered bool // checked and revealed
	passed   bool // the student stepped past before answering
}

// predictMarkup is the question's skeleton.
const predictMarkup dom.HTML = `
<div class="lesson-question" id="lesson-question" hidden>
  <p class="lesson-ask" id="lesson-ask"></p>
  <div class="row">
    <input type="text" inputmode="decimal" id="lesson-guess" class="mono" autocomplete="off" aria-label="Your prediction" placeholder="your prediction">
    <button type="button" id="lesson-check" class="primary" title="Compare your prediction with what the engine computes, then see it">Check</button>
  </div>
  <div class="row" role="group" aria-label="Its sign">
    <button type="button" id="lesson-sign-plus" title="Predict a positive number">+ positive</button>
    <button type="button" id="lesson-sign-minus" title="Predict a negative number">− negative</button>
    <button type="button" id="lesson-sign-zero" title="Predict zero">0 zero</button>
  </div>
  <p class="lesson-verdict" id="lesson-verdict" role="status" hidden></p>
</div>`

func newPredictBox(lv *View) *predictBox {
	u := lv.u
	b := &predictBox{lv: lv, root: u.Build(predictMarkup)}
	var check, plus, minus, zero dom.Elem
	b.root.Find(dom.Parts{
		{Sel: "#lesson-ask", To: &b.ask}, {Sel: "#lesson-guess", To: &b.guess}, {Sel: "#lesson-check", To: &check},
		{Sel: "#lesson-sign-plus", To: &plus}, {Sel: "#lesson-sign-minus", To: &minus}, {Sel: "#lesson-sign-zero", To: &zero},
		{Sel: "#lesson-verdict", To: &b.verdict},
	})
	b.form = b.guess.Parent()
	b.signs = plus.Parent()
	u.Listen(b.guess, "keydown", "prediction", func(ev dom.Event) {
		if ev.Key() == "Enter" {
			ev.PreventDefault()
			b.check(b.guess.Value())
		}
	})
	u.OnClick(check, func() { b.check(b.guess.Value()) })
	u.OnClick(plus, func() { b.check("+") })
	u.OnClick(minus, func() { b.check("-") })
	u.OnClick(zero, func() { b.check("0") })
	return b
}

// reset asks q afresh (nil: the stop asks nothing).
func (b *predictBox) reset(q *lesson.Question) {
	b.q, b.answered, b.passed = q, false, false
	b.guess.SetValue("")
	b.verdict.Show(false)
	b.verdict.RemoveAttribute("data-right")
	b.verdict.RemoveAttribute("data-actual")
}

// render shows the question of the current stop (none in author mode,
// where the author's tools edit it).
func (b *predictBox) render(q *lesson.Question, author bool) {
	if q != b.q { // a question the author set or changed since the stop opened: asked afresh
		b.reset(q)
	}
	b.root.Show(q != nil && !author)
	if q == nil || author {
		return
	}
	b.ask.SetTextContent(b.wording(q))
	sign := q.Answer == lesson.AnswerSign
	b.form.Show(!sign)
	b.signs.Show(sign)
	b.enable(!b.answered && !b.passed)
}

// wording says what the question asks for, e.g. "Predict before you
// step: what will the gradient of x (node 0) be? Type a number."
func (b *predictBox) wording(q *lesson.Question) string {
	what := "value"
	if q.Of == lesson.OfGrad {
		what = "gradient"
	}
	name := "node " + strconv.Itoa(q.Node)
	if s := b.lv.st.Source().Stepper(); s != nil && q.Node < len(s.Nodes()) {
		nd := s.Nodes()[q.Node]
		name = nd.Title()
		if nd.Shape.Size() > 1 {
			name += ", element " + strconv.Itoa(q.Element)
		}
	}
	how := " Type a number."
	if q.Answer == lesson.AnswerSign {
		how = " Pick its sign."
	}
	return "Predict before you step: what will the " + what + " of " + name + " be?" + how
}

func (b *predictBox) enable(on bool) {
	b.root.QuerySelector("#lesson-check").SetDisabled(!on)
	b.guess.SetDisabled(!on)
	b.signs.QuerySelector("#lesson-sign-plus").SetDisabled(!on)
	b.signs.QuerySelector("#lesson-sign-minus").SetDisabled(!on)
	b.signs.QuerySelector("#lesson-sign-zero").SetDisabled(!on)
}

// check grades guess, then reveals the number: the page steps on until
// it is computed and inspects its node. A guess that cannot be read is
// said, and nothing is revealed.
func (b *predictBox) check(guess string) {
	q, lv := b.q, b.lv
	if q == nil || b.answered || b.passed {
		return
	}
	if _, err := lesson.Score(q, guess, 1); err != nil {
		b.say(err.Error(), "")
		return
	}
	if lv.st.Source().Stepper() != lv.stepAt { // the student changed the model: the stop's own numbers
		lv.applyStop()
		lv.render()
		b.q = q
	}
	lv.deps.Pause()
	// The page moves the stepper as a person's steps do, so that every
	// view follows (the explain panel says what the last step did); watch
	// takes these steps for the reveal, not for a student stepping past
	// the question. The answer may be several steps away: one jump.
	b.answered = true
	var actual float64
	var err error
	lv.st.Jump(func(s *app.Stepper) bool {
		actual, err = lesson.Answer(s, q)
		return err == nil
	})
	if err != nil {
		b.answered = false
		b.say(err.Error(), "")
		return
	}
	// On a phone the lesson stays in view: the tape pans to the node and
	// rings it, and no sheet opens over the verdict.
	lv.deps.Reveal(q.Node)
	v, err := lesson.Score(q, guess, actual)
	if err != nil {
		b.answered = false
		b.say(err.Error(), "")
		return
	}
	b.enable(false)
	b.verdict.SetAttribute("data-actual", app.Full(actual))
	b.say(v.Message+" The tape now shows it.", strconv.FormatBool(v.Right))
	b.verdict.ScrollIntoView()
}

// say shows a verdict; right is "true", "false" or "" (not graded).
func (b *predictBox) say(msg, right string) {
	b.verdict.SetTextContent(msg)
	if right == "" {
		b.verdict.RemoveAttribute("data-right")
	} else {
		b.verdict.SetAttribute("data-right", right)
	}
	b.verdict.Show(true)
}

// watch notices a student who stepped past the question before answering.
func (b *predictBox) watch() {
	q, lv := b.q, b.lv
	if q == nil || b.answered || b.passed || lv.author {
		return
	}
	s := lv.st.Source().Stepper()
	if s == nil || s != lv.stepAt || q.Node >= len(s.Nodes()) {
		return
	}
	want := app.Known
	if q.Of == lesson.OfGrad {
		want = app.Final
	}
	if s.State(q.Node).Has(want) {
		b.passed = true
		b.enable(false)
		b.say("You stepped past the question: the tape shows the answer now. Press Back to stop to predict it first.", "")
	}
}
