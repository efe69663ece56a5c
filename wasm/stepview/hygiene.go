//go:build js && wasm

package stepview

import (
	"tapelab/wasm/dom"

	"slices"
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// hygieneView is the Step view's gradient hygiene: the switch "zero
// gradients before backward" (on by default) and, in the inspector's
// column, each parameter's .grad as it stands across backward passes.
// Each backward pass that reaches the end folds its parameter gradients
// into .grad (autograd's AccumulateLeaves); with the switch on, .grad is
// zeroed first, so it is the pass's own gradient. Off, a second pass adds
// to the first, as PyTorch does without optimizer.zero_grad(), and the
// panel shows each parameter's chain-rule card saying why it doubled
// (app.ExplainAccumulation).
type hygieneView struct {
	sv    *View
	zero  dom.Elem // the checkbox #zero-grad
	again dom.Elem // #backward-again
	root  dom.Elem // section#grads
	said  dom.Elem // how many passes .grad holds
	rows  dom.Elem
	card  dom.Elem

	acc    autograd.Grads
	s      *app.Stepper // the stepper whose tape acc belongs to
	armed  bool         // the next arrival at the end is a new backward pass
	passes int          // passes folded since .grad was last zeroed
	folds  []autograd.Accumulation
	cards  []app.Accumulated
	shown  int    // the parameter whose card is shown
	err    string // why the last fold failed, said until one succeeds or the tape changes
	// rowEls are the .grad rows, one per leaf of rowLeaves, and the text
	// and values each shows: a render writes only what changed.
	rowEls              []dom.Elem
	rowLeaves           []int
	rowTexts, rowValues []string
}

func newHygieneView(sv *View) *hygieneView {
	doc := sv.doc
	h := &hygieneView{sv: sv, shown: -1}
	h.zero = doc.El("input", "type", "checkbox", "id", "zero-grad", "checked", "")
	doc.Listen(h.zero, "change", "zero gradients", func(dom.Event) { sv.st.SetAccumulate(!h.zero.Checked()) })
	h.again = doc.Button("↻ backward again", "Run the whole step again, forward and backward: without zeroing, its gradients add to .grad", h.runAgain, "id", "backward-again")
	h.root = doc.El("section", "class", "grads", "id", "grads", "aria-labelledby", "grads-title")
	h.said = doc.El("p", "class", "hint", "id", "grads-said")
	h.rows = doc.El("div", "class", "grads-rows mono", "id", "grads-rows")
	h.card = doc.El("div", "class", "rule-card", "id", "grads-card", "hidden", "")
	// One listener serves every row (a row says its leaf).
	doc.Listen(h.rows, "click", "a .grad row", func(ev dom.Event) {
		if b := ev.Target().Closest("button[data-leaf]"); b.OK() {
			if leaf, err := strconv.Atoi(b.GetAttribute("data-leaf")); err == nil {
				h.shown = leaf
				h.render()
			}
		}
	})
	dom.Add(h.root, doc.Txt("h2", "Parameter gradients (.grad)", "id", "grads-title"),
		doc.Labelled("zero gradients before backward", h.zero, "class", "check", "title",
			"PyTorch's optimizer.zero_grad(): off, every backward pass adds its gradients to what the last one left"),
		h.again, h.said, h.rows, h.card)
	return h
}

// zeroing reports whether the gradients are zeroed before each backward
// pass: the state's accumulate flag is its opposite.
func (h *hygieneView) zeroing() bool { return !h.sv.st.Accumulate() }

// showSwitch sets the switch from the state and says what .grad holds.
func (h *hygieneView) showSwitch() {
	h.zero.SetChecked(h.zeroing())
	h.render()
}

// update follows the stepper: a new tape starts .grad afresh, and each
// arrival at the end of a backward pass that began since the last one
// folds that pass into .grad.
// What it shows changes only then (or with the switch, or a click on a
// row, which render on their own): other steps write nothing.
func (h *hygieneView) update(s *app.Stepper) {
	changed := s != h.s
	if changed {
		h.s, h.acc, h.armed, h.passes, h.folds, h.cards, h.shown, h.err = s, autograd.Grads{}, true, 0, nil, nil, -1, ""
		h.rowLeaves = nil // a new tape's rows are made afresh
	}
	if s.Counts().Backward == 0 {
		h.armed = true
	}
	if h.armed && s.Position().Phase == autograd.PhaseDone {
		h.armed = false
		h.fold(s)
		changed = true
	}
	if changed {
		h.render()
	}
}

// fold runs the step's backward pass into .grad, zeroing it first when
// the switch is on.
func (h *hygieneView) fold(s *app.Stepper) {
	if h.zeroing() {
		h.acc.Zero()
		h.passes = 0
	}
	out := s.Output()
	seed := tensor.Zeros(s.Tape().Node(out).Value.Shape)
	seed.Fill(1)
	folds, err := s.Tape().BackwardAccumulate(out, seed, &h.acc)
	if err != nil {
		h.err = "backward: " + err.Error() // said by the render that follows
		return
	}
	h.err = ""
	h.passes++
	h.folds, h.cards = folds, app.ExplainAccumulation(s.Nodes(), folds)
}

// runAgain records nothing new: it resets the stepper and runs the step to
// the end, one more backward pass.
func (h *hygieneView) runAgain() {
	h.armed = true
	h.sv.Reset()
	h.sv.ToEnd()
	if s := h.sv.src().Stepper(); s != nil {
		h.update(s)
	}
}

// render shows .grad of every parameter and the card of one.
func (h *hygieneView) render() {
	doc := h.sv.doc
	h.root.SetAttribute("data-passes", strconv.Itoa(h.passes))
	switch {
	case h.err != "":
		h.said.SetTextContent(h.err)
	case len(h.folds) == 0:
		h.said.SetTextContent("Run the backward pass to the end to fill .grad.")
	case h.zeroing():
		h.said.SetTextContent("Zeroed before each backward pass: .grad holds this pass's gradient.")
	case h.passes == 1:
		h.said.SetTextContent(".grad after 1 backward pass. Run it again without zeroing and it adds up.")
	default:
		h.said.SetTextContent(".grad after " + strconv.Itoa(h.passes) + " backward passes, not zeroed in between: each pass added its gradient.")
	}
	h.renderRows()
	h.card.Clear()
	h.card.Show(len(h.cards) > 0)
	for _, c := range h.cards {
		if c.Node == h.shown || h.shown < 0 || !h.hasCard(h.shown) {
			dom.Add(h.card, doc.Txt("p", c.Rule, "class", "rule mono"), doc.Txt("p", c.Numbers, "class", "mono"), doc.Txt("p", c.Why, "class", "why"))
			h.card.SetAttribute("data-node", strconv.Itoa(c.Node))
			h.card.SetAttribute("data-doubled", strconv.FormatBool(c.Doubled))
			return
		}
	}
}

// renderRows shows .grad of every parameter the last fold reached, a row
// each: made when the parameters change (a new tape), else written in
// place where the numbers changed.
func (h *hygieneView) renderRows() {
	doc := h.sv.doc
	leaves := make([]int, len(h.folds))
	for k, f := range h.folds {
		leaves[k] = f.Leaf
	}
	if !slices.Equal(leaves, h.rowLeaves) {
		h.rows.Clear()
		h.rowEls, h.rowLeaves = make([]dom.Elem, len(leaves)), leaves
		h.rowTexts, h.rowValues = make([]string, len(leaves)), make([]string, len(leaves))
		for k, f := range h.folds {
			name := h.s.Nodes()[f.Leaf].Label
			h.rowEls[k] = doc.El("button", "type", "button", "class", "link grads-row", "id", "grad-"+strconv.Itoa(f.Leaf),
				"data-leaf", strconv.Itoa(f.Leaf), "title", "Show why "+name+".grad holds this")
			h.rows.AppendChild(h.rowEls[k])
		}
	}
	for k, f := range h.folds {
		full := make([]string, len(f.After.Data))
		for j, v := range f.After.Data {
			full[j] = app.Full(v)
		}
		if text := h.s.Nodes()[f.Leaf].Label + ".grad = " + app.Inline(f.After); text != h.rowTexts[k] {
			h.rowEls[k].SetTextContent(text)
			h.rowTexts[k] = text
		}
		if values := strings.Join(full, ","); values != h.rowValues[k] {
			h.rowEls[k].SetAttribute("data-values", values)
			h.rowValues[k] = values
		}
	}
}

func (h *hygieneView) hasCard(node int) bool {
	for _, c := range h.cards {
		if c.Node == node {
			return true
		}
	}
	return false
}
