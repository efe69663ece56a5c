//go:build js && wasm

package stepview

import (
	"strconv"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
)

// nanNote is the inspector's note on a node holding NaN or ∞: which
// element, why (from the operands' values, app.Stepper.Faults) and a link
// to the node it came from. Its root (#insp-nan) announces the last
// fault (the VJP step's, when it made one) in data-node, data-elem,
// data-pass and data-why.
type nanNote struct{ root dom.Elem }

func newNaNNote(doc *dom.Document) *nanNote {
	return &nanNote{doc.El("div", "class", "insp-nan", "id", "insp-nan", "role", "note")}
}

// show writes node i's faults and reports whether it has any.
func (n *nanNote) show(doc *dom.Document, s *app.Stepper, i int) bool {
	fs := s.Faults(i)
	if len(fs) == 0 {
		return false
	}
	var parts []dom.Elem
	for _, f := range fs {
		parts = append(parts, doc.Txt("p", "⚠ "+f.String()))
	}
	f, pass := fs[len(fs)-1], "forward"
	if f.Backward {
		pass = "backward"
	}
	if f.From >= 0 && f.From != i {
		parts = append(parts, doc.Txt("button", "see "+s.Nodes()[f.From].Title(), "type", "button", "class", "link", "data-inspect", strconv.Itoa(f.From)))
	}
	n.root.SetChildren(parts...)
	n.root.SetAttribute("data-node", strconv.Itoa(i))
	n.root.SetAttribute("data-elem", f.Elem)
	n.root.SetAttribute("data-pass", pass)
	n.root.SetAttribute("data-why", f.Why)
	return true
}

// sayNaN adds to the step's words, when the step made the first NaN or ∞
// of its pass, which element and why, and marks the stepper's bar with the node
// (data-nan-stop), where playing stops; any other step clears the mark.
func (v *stepperView) sayNaN(s *app.Stepper) {
	i := s.Focus()
	if !s.Stopped() || i < 0 {
		v.root.RemoveAttribute("data-nan-stop")
		return
	}
	if fs := s.Faults(i); len(fs) > 0 {
		v.said.SetTextContent(v.said.TextContent() + " — the first NaN/∞ of the pass: " + fs[len(fs)-1].String())
	}
	v.root.SetAttribute("data-nan-stop", strconv.Itoa(i))
}

// nanStop reports whether the last step made the first NaN or ∞ of its
// pass: playing stops there.
func (v *stepperView) nanStop() bool {
	s := v.sv.st.Source().Stepper()
	return s != nil && s.Stopped()
}
