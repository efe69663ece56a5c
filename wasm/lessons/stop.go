//go:build js && wasm

package lessons

import (
	"strconv"

	"tapelab/wasm/dom"
	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
)

// goTo opens stop i (ignored beyond the ends).
func (lv *View) goTo(i int) {
	if lv.l == nil || i < 0 || i >= len(lv.l.Stops) || i == lv.cur && !lv.away {
		return
	}
	lv.cur = i
	lv.applyStop()
	lv.render()
}

// backToStop applies the current stop's state again.
func (lv *View) backToStop() {
	if lv.l == nil || len(lv.l.Stops) == 0 {
		return
	}
	lv.applyStop()
	lv.render()
}

// applyStop makes the page show the current stop: its state (keeping the
// page's presenter and embed modes on when they are), its selected node,
// and its question asked afresh.
func (lv *View) applyStop() {
	stop := lv.l.Stops[lv.cur]
	st, err := cloneState(stop.State)
	if err == nil {
		f := lv.st.Flags()
		st.Flags.Presenter = st.Flags.Presenter || f.Presenter
		st.Flags.Embed = st.Flags.Embed || f.Embed
		lv.deps.Pause()
		lv.st.Replace(st)
		err = lv.st.Opened() // the stop's step, recorded now: its node is selected below
	}
	if s := lv.st.Source().Stepper(); stop.Select != nil && s != nil && *stop.Select < len(s.Nodes()) {
		lv.st.Select(*stop.Select)
	}
	lv.showError(err)
	lv.stepAt = lv.st.Source().Stepper()
	lv.home, _ = link.Encode(lv.st.Link())
	lv.away = false
	lv.predict.reset(stop.Question)
	lv.u.Root().SetAttribute("data-link-opened", "true")
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
func (lv *View) changed() {
	if lv.l == nil || len(lv.l.Stops) == 0 {
		return
	}
	now, err := link.Encode(lv.st.Link())
	lv.away = err != nil || now != lv.home
	lv.back.Show(lv.away)
	lv.root.SetAttribute("data-away", strconv.FormatBool(lv.away))
	lv.predict.watch()
}

// showError shows err under the stop (nil hides it).
func (lv *View) showError(err error) {
	if err == nil {
		lv.msg.Show(false)
		return
	}
	lv.msg.SetTextContent(err.Error())
	lv.msg.Show(true)
}

// render shows the title, the stop bar, the caption, the question and the
// author's tools.
func (lv *View) render() {
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
