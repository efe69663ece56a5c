//go:build js && wasm

package stepview

import (
	"tapelab/wasm/dom"

	"strconv"

	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// forwardView is forward mode beside reverse: a switch, the direction over
// the program's leaves (the one-hot of the chosen leaf, or typed), each
// node's tangent drawn in its box once its value is known, and at the end
// the check that the output's tangent equals ⟨gradient, direction⟩. Whether
// it is on, and along which direction, is the state's (State.Forward): a
// link carries it.
type forwardView struct {
	p        *programView
	on       bool // as last drawn from the state
	rev, fwd dom.Elem
	box      dom.Elem // the direction and the check, shown in forward mode
	dirs     dom.Elem
	inputs   []dom.Elem
	check    dom.Elem
	fm       *app.ForwardMode
	err      error
}

// build returns forward mode's controls.
func (f *forwardView) build(p *programView) dom.Elem {
	doc := p.sv.doc
	f.p = p
	f.rev = doc.Button("Reverse", "Reverse mode: forward values, then VJPs from the output back", func() { f.setOn(false) },
		"id", "ad-reverse", "aria-pressed", "true")
	f.fwd = doc.Button("Forward", "Forward mode: each node's tangent along a direction over the leaves (JVPs)", func() { f.setOn(true) },
		"id", "ad-forward", "aria-pressed", "false")
	sw := dom.Add(doc.El("div", "class", "seg", "role", "group", "aria-label", "Differentiation mode"), f.rev, f.fwd)
	f.dirs = doc.El("div", "class", "directions", "id", "directions")
	f.check = doc.El("p", "class", "forward-check mono", "id", "forward-check", "role", "status")
	hint := doc.Txt("p", "Direction over the leaves (click a leaf on the tape for its one-hot, or type):", "class", "hint")
	f.box = dom.Add(doc.El("div", "class", "forward-box", "hidden", ""), hint, f.dirs, f.check)
	return dom.Add(doc.El("div", "class", "forward-mode", "id", "forward-mode"), sw, f.box)
}

// setOn switches forward mode on (along the chosen leaf's one-hot, or the
// first leaf's) or off; either way the stepper starts again.
func (f *forwardView) setOn(on bool) {
	st := f.p.sv.st
	if (st.Forward() != nil) == on {
		return
	}
	if !on {
		f.set(nil)
	} else {
		leaf := 0
		if sel := st.Selected(); sel >= 0 && sel < len(f.p.pg().LeafNames()) {
			leaf = sel
		}
		f.oneHot(leaf)
	}
	f.p.sv.Reset()
}

// rebuilt follows a newly recorded program: the direction is fitted to its
// leaves again (see State.Forward).
func (f *forwardView) rebuilt() {
	f.show()
}

// show draws the switch and, in forward mode, runs forward mode along the
// state's direction and writes the direction's fields.
func (f *forwardView) show() {
	rows := f.p.sv.st.Forward()
	f.on = rows != nil
	f.rev.SetAttribute("aria-pressed", strconv.FormatBool(!f.on))
	f.fwd.SetAttribute("aria-pressed", strconv.FormatBool(f.on))
	f.box.Show(f.on)
	f.p.sv.d.Mark("forward-on", f.on)
	f.fm, f.err = nil, nil
	if !f.on {
		return
	}
	pg := f.p.pg()
	dir, err := pg.Direction(rows)
	f.err = err
	if err == nil {
		f.fm, f.err = pg.Forward(dir)
	}
	f.fields(dir)
}

// oneHot makes the one-hot of leaf i the direction (i a leaf's node id).
func (f *forwardView) oneHot(i int) {
	dir, err := f.p.pg().OneHot(i)
	if i < 0 || i >= len(f.p.pg().LeafNames()) || err != nil {
		return
	}
	f.set(app.DirectionRows(dir))
	f.p.sv.d.Redraw()
}

// set makes rows forward mode's direction (nil: reverse mode) and draws it
// at once (the state's change, which a link makes too, draws it again).
func (f *forwardView) set(rows [][]float64) {
	f.p.sv.st.SetForward(rows)
	f.show()
}

// typed returns the direction's fields as typed.
func (f *forwardView) typed() []string {
	out := make([]string, len(f.inputs))
	for i, in := range f.inputs {
		out[i] = in.Value()
	}
	return out
}

// fields writes one field per leaf holding its part of dir.
func (f *forwardView) fields(dir []*tensor.Tensor) {
	doc := f.p.sv.doc
	names := f.p.pg().LeafNames()
	if len(f.inputs) != len(names) {
		f.dirs.Clear()
		f.inputs = f.inputs[:0]
		for i, name := range names {
			in := doc.El("input", "type", "text", "class", "mono", "id", "dir-"+strconv.Itoa(i), "spellcheck", "false")
			doc.Listen(in, "change", "direction", func(dom.Event) { f.typedChange() })
			f.dirs.AppendChild(doc.Labelled("ḋ"+name, in, "class", "direction", "id", "dir-label-"+strconv.Itoa(i)))
			f.inputs = append(f.inputs, in)
		}
	} else {
		for i, name := range names {
			doc.ByID("dir-label-" + strconv.Itoa(i)).QuerySelector(".cap").SetTextContent("ḋ" + name)
		}
	}
	for i, in := range f.inputs {
		if i < len(dir) && dir[i] != nil {
			in.SetValue(app.FormatDirection(dir[i]))
		}
	}
}

// typedChange makes the typed direction forward mode's, and the stepper
// starts again; a direction that does not read is shown, and changes
// nothing.
func (f *forwardView) typedChange() {
	dir, err := f.p.pg().ParseDirection(f.typed())
	if err != nil {
		f.fm, f.err = nil, err
		f.p.sv.d.Redraw()
		return
	}
	f.set(app.DirectionRows(dir))
	f.p.sv.Reset()
}

// refresh draws the check once the output's tangent is known, and the
// shown node's tangent in the inspector; the tape draws each node's
// (tangent).
func (f *forwardView) refresh(s *app.Stepper, shown int) {
	if !f.on {
		return
	}
	f.showCheck(s)
	f.inspect(s, shown)
}

// tangent is node i's tangent as its box shows it: "ṫ " and the tangent,
// once its value is known in forward mode; "" otherwise.
func (f *forwardView) tangent(s *app.Stepper, i int) string {
	if !f.on || f.fm == nil || i >= len(s.Nodes()) || s.Value(i) == nil {
		return ""
	}
	tg, why := f.fm.Tangent(i, s.Nodes()[i].Shape)
	return "ṫ " + briefTangent(tg, why)
}

// briefTangent is a tangent as a box shows it: a number, a few numbers, or
// the shape.
func briefTangent(t *tensor.Tensor, why string) string {
	switch {
	case t == nil:
		return "? (" + why + ")"
	case len(t.Data) == 1:
		return app.Num(t.Data[0])
	case len(t.Data) <= 3:
		return app.Inline(t)
	}
	return t.Shape.String()
}

// showCheck says, once the forward pass is complete, whether the output's
// tangent equals ⟨gradient, direction⟩.
func (f *forwardView) showCheck(s *app.Stepper) {
	c := f.check
	c.RemoveAttribute("data-agree")
	switch {
	case f.err != nil:
		c.SetAttribute("class", "forward-check mono bad")
		c.SetTextContent("✗ " + f.err.Error())
		return
	case f.fm == nil:
		c.SetTextContent("")
		return
	}
	if n := s.Counts(); n.Forward < n.ForwardTotal {
		c.SetAttribute("class", "forward-check mono")
		c.SetTextContent("Step forward (→): each node's tangent follows its value. At the output, forward mode is checked against ⟨gradient, direction⟩ from reverse mode.")
		return
	}
	ck := f.fm.Check
	mark, class := "✓ ", "good"
	if !ck.Agree {
		mark, class = "✗ ", "bad"
	}
	if len(ck.Missing) > 0 {
		mark, class = "", "warn"
	}
	c.SetAttribute("class", "forward-check mono "+class)
	c.SetAttribute("data-agree", strconv.FormatBool(ck.Agree))
	c.SetAttribute("data-forward", app.Full(ck.Forward))
	c.SetAttribute("data-reverse", app.Full(ck.Reverse))
	c.SetTextContent(mark + ck.String())
}

// inspect adds the shown node's tangent to the inspector.
func (f *forwardView) inspect(s *app.Stepper, i int) {
	sv := f.p.sv
	doc := sv.doc
	if f.fm == nil || i < 0 || i >= len(s.Nodes()) {
		return
	}
	box := dom.Add(doc.El("div", "class", "tangent-box", "id", "insp-tangent-box"), doc.Txt("h3", "tangent (forward mode)"))
	n := s.Nodes()[i]
	tg, why := f.fm.Tangent(i, n.Shape)
	switch {
	case s.Value(i) == nil:
		box.AppendChild(doc.Txt("p", "not computed yet: it follows the value", "class", "hint"))
	case tg == nil:
		box.AppendChild(doc.Txt("p", why, "class", "hint"))
	default:
		what := "ṫ = the direction on this leaf"
		if n.Op != nil {
			what = "ṫ = " + n.Op.Name + "'s JVP applied to its operands' tangents"
		} else if n.Kind.String() == "const" {
			what = "ṫ = 0: a constant does not move"
		}
		dom.Add(box, doc.Txt("p", what, "class", "hint"), sv.insp.tensorEl(tg, "insp-tangent"))
	}
	sv.insp.addSection(box)
}
