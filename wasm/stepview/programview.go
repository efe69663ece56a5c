//go:build js && wasm

package stepview

import (
	"tapelab/wasm/debounce"

	"tapelab/wasm/dom"

	"errors"
	"strconv"
	"strings"
	"time"

	"tapelab/engine/autograd"
	"tapelab/engine/program"
	"tapelab/wasm/app"
)

// programQuiet is how long typing must pause before the program is parsed
// and checked again.
const programQuiet = 250 * time.Millisecond

// programView is Program mode's column beside the tape: the program's text
// with line numbers and the error marked under the line at fault, the
// output's seed, undo and redo, the examples gallery and forward mode.
type programView struct {
	sv *View

	root            dom.Elem
	text            dom.Elem // the textarea
	gutter          dom.Elem // line numbers
	marks           dom.Elem // a mirror of the text behind the textarea, holding the error's underline
	errLine         dom.Elem // the error's line:col message
	note            dom.Elem // how backward is seeded
	undo, redo      dom.Elem
	modeModel       dom.Elem
	modeProgram     dom.Elem
	typing          func() // says the text changed: it is checked once typing pauses
	forward         forwardView
	lastGutterLines int
	built           bool // the column's insides are made (see ready)
}

func newProgramView(sv *View) *programView {
	doc := sv.doc
	p := &programView{sv: sv}
	p.root = sv.d.Own("model", doc.El("section", "class", "program-editor", "id", "program-editor", "aria-labelledby", "program-title", "hidden", ""))
	p.typing = debounce.New(programQuiet, 2*time.Second, func() { dom.Recovered("checking the program", doc.Report, p.edited) }).Changed
	return p
}

// ready builds the column's insides the first time Program mode is on,
// and reports whether it is: a page opened in Model mode never builds
// them (nor makes the program playground, whose text the textarea gets
// here).
func (p *programView) ready() bool {
	if !p.on() {
		return false
	}
	if !p.built {
		p.built = true
		p.build()
	}
	return true
}

// build makes the column's insides: the title with undo and redo, the
// text with its line numbers and error marks, the error, the seed's note,
// forward mode and the examples.
func (p *programView) build() {
	sv, doc := p.sv, p.sv.doc
	head := doc.El("div", "class", "region-bar")
	p.undo = doc.Button("↶", "Undo the last edit of the program (Ctrl+Z)", sv.undo, "id", "program-undo")
	p.redo = doc.Button("↷", "Redo (Ctrl+Y)", sv.redo, "id", "program-redo")
	dom.Add(head, doc.Txt("h2", "Program", "id", "program-title"), dom.Add(doc.El("div", "class", "undo-tools", "role", "group", "aria-label", "History"), p.undo, p.redo))

	p.gutter = doc.El("pre", "class", "program-gutter mono", "id", "program-gutter", "aria-hidden", "true")
	p.marks = doc.El("pre", "class", "program-marks mono", "id", "program-marks", "aria-hidden", "true")
	p.text = doc.El("textarea", "class", "program-text mono", "id", "program-text", "spellcheck", "false", "wrap", "off",
		"autocapitalize", "off", "autocomplete", "off", "aria-label", "Program: one statement per line, name = expression",
		"aria-describedby", "program-error")
	p.text.SetValue(p.pg().Text())
	area := dom.Add(doc.El("div", "class", "program-area"), p.marks, p.text)
	edit := dom.Add(doc.El("div", "class", "program-edit"), p.gutter, area)
	p.errLine = doc.El("p", "class", "program-error mono", "id", "program-error", "role", "alert", "hidden", "")
	p.note = doc.El("p", "class", "program-note", "id", "program-note")

	doc.Listen(p.text, "input", "program typing", func(dom.Event) {
		p.numberLines()
		p.typing()
	})
	doc.Listen(p.text, "scroll", "program scroll", func(dom.Event) { p.syncScroll() })

	dom.Add(p.root, head, edit, p.errLine, p.note, p.forward.build(p), p.gallery())
}

// pg is the program playground, to read.
func (p *programView) pg() *app.ProgramPlayground { return p.sv.st.Program() }

// on reports whether Program mode is on screen.
func (p *programView) on() bool { return p.sv.st.ProgramMode() }

// edited parses and checks the text after typing paused; the state's
// change redraws.
func (p *programView) edited() { _ = p.sv.st.EditProgram(p.text.Value()) }

// forget writes the program's text into the textarea after undo, redo or
// a link replaced it.
func (p *programView) forget() {
	if p.ready() {
		p.text.SetValue(p.pg().Text())
	}
}

// brokenNotice says why the tape on screen is not the current text's.
func (p *programView) brokenNotice() string {
	if p.on() {
		return "The program has an error (marked in its text). The tape shown is the last program that ran."
	}
	return "The model has an error (see the layer marked ⚠). The tape shown is the last model that worked."
}

// render shows the program's state: line numbers, the error's mark and
// message, the output's seed, undo and redo.
func (p *programView) render() {
	if !p.ready() {
		return
	}
	p.numberLines()
	p.markError()
	p.note.SetTextContent(p.pg().OutputNote())
	p.note.ToggleClass("ones", p.pg().Program() != nil && p.pg().Program().OnesSeed())
	p.undo.SetDisabled(!p.pg().CanUndo())
	p.redo.SetDisabled(!p.pg().CanRedo())
	p.forward.rebuilt()
}

// errorPos returns the current error's place, or ok false.
func (p *programView) errorPos() (program.Pos, string, bool) {
	var pe *program.Error
	if err := p.pg().Err(); err != nil && errors.As(err, &pe) {
		return pe.Pos, err.Error(), true
	}
	return program.Pos{}, "", false
}

// numberLines writes the gutter's line numbers, the faulty line marked.
func (p *programView) numberLines() {
	n := strings.Count(p.text.Value(), "\n") + 1
	pos, msg, bad := p.errorPos()
	p.gutter.Clear()
	for i := 1; i <= n; i++ {
		if bad && i == pos.Line {
			p.gutter.AppendChild(p.sv.doc.Txt("span", strconv.Itoa(i)+"\n", "class", "bad", "id", "program-gutter-bad", "title", msg))
			continue
		}
		p.gutter.AppendChild(p.sv.doc.TextNode(strconv.Itoa(i) + "\n"))
	}
	p.lastGutterLines = n
	p.syncScroll()
}

// markError underlines the error's place, from its column to the end of
// its line, in the mirror behind the textarea, and shows the message.
func (p *programView) markError() {
	doc := p.sv.doc
	p.marks.Clear()
	pos, msg, bad := p.errorPos()
	p.errLine.Show(bad)
	p.text.ToggleClass("bad", bad)
	if !bad {
		p.errLine.SetTextContent("")
		p.errLine.RemoveAttribute("data-line")
		return
	}
	p.errLine.SetTextContent("⚠ " + msg)
	p.errLine.SetAttribute("data-line", strconv.Itoa(pos.Line))
	p.errLine.SetAttribute("data-col", strconv.Itoa(pos.Col))
	ls := strings.Split(p.pg().Text(), "\n")
	for i, l := range ls {
		if i+1 != pos.Line {
			p.marks.AppendChild(doc.TextNode(l + "\n"))
			continue
		}
		r := []rune(l)
		c := min(max(pos.Col-1, 0), len(r))
		e := tokenEnd(r, c)
		mark := string(r[c:e])
		if strings.TrimSpace(mark) == "" {
			mark = "  " // the fault is at the end of the line
		}
		p.marks.AppendChild(doc.TextNode(string(r[:c])))
		p.marks.AppendChild(doc.Txt("span", mark, "class", "err-mark", "id", "program-mark", "title", msg))
		p.marks.AppendChild(doc.TextNode(string(r[e:]) + "\n"))
	}
	p.syncScroll()
}

// tokenEnd returns where the token starting at r[c] ends: a name or
// number runs on over letters, digits, '_' and '.', anything else is one
// character.
func tokenEnd(r []rune, c int) int {
	word := func(x rune) bool {
		return x == '_' || x == '.' || '0' <= x && x <= '9' || 'a' <= x && x <= 'z' || 'A' <= x && x <= 'Z'
	}
	if c >= len(r) {
		return c
	}
	if !word(r[c]) {
		return c + 1
	}
	e := c
	for e < len(r) && word(r[e]) {
		e++
	}
	return e
}

// syncScroll keeps the gutter and the marks level with the text.
func (p *programView) syncScroll() {
	top, left := p.text.Scroll()
	p.gutter.SetScroll(top, 0)
	p.marks.SetScroll(top, left)
}

// gallery lists the examples, one click each.
func (p *programView) gallery() dom.Elem {
	doc := p.sv.doc
	list := doc.El("ul", "class", "gallery", "id", "gallery")
	for _, ex := range program.Examples() {
		b := doc.Button(ex.Name, "Open the example "+ex.Name, func() {
			if err := p.sv.st.OpenProgram(ex.Text, p.pg().Modes()); err != nil {
				p.sv.d.ShowError("example " + ex.Name + ": " + err.Error())
			}
		}, "id", "example-"+ex.Name, "class", "example")
		li := dom.Add(doc.El("li"), b, doc.Txt("span", ex.Caption, "class", "caption"))
		list.AppendChild(li)
	}
	return dom.Add(doc.El("details", "class", "examples", "open", ""), doc.Txt("summary", "Examples"), list)
}

// step takes one step: in forward mode only forward steps (the tangents
// ride along), else the stepper's next step.
func (p *programView) step(s *app.Stepper) (autograd.Event, bool) {
	if p.on() && p.forward.on {
		return s.Forward()
	}
	return s.Step()
}

// toEnd runs to the end: of the forward pass in forward mode, else of the
// backward pass.
func (p *programView) toEnd(s *app.Stepper) {
	if p.on() && p.forward.on {
		s.ForwardToEnd()
		return
	}
	s.ToEnd()
}

// refresh redraws Program mode's part of a step: forward mode's check and
// the shown node's tangent.
func (p *programView) refresh(s *app.Stepper, shown int) {
	if !p.ready() {
		return
	}
	p.forward.refresh(s, shown)
}

// tangent is node i's tangent in forward mode, as its box on the tape
// shows it ("" when forward mode is off).
func (p *programView) tangent(s *app.Stepper, i int) string {
	if !p.ready() {
		return ""
	}
	return p.forward.tangent(s, i)
}

// inspected follows the node the user chose: in forward mode a leaf's
// one-hot becomes the direction.
func (p *programView) inspected(i int) {
	if p.ready() && p.forward.on {
		p.forward.oneHot(i)
	}
}
