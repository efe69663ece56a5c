//go:build js && wasm

package stepview

import (
	"slices"
	"strconv"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/state"
	"tapelab/wasm/ui"
)

// updated shows the update phase's counter: update n/P; "update —" when
// the stepper has none (the single-output pass).
func (v *stepperView) updated(s *app.Stepper) {
	n, total, _ := s.UpdateCounts()
	t := "update —"
	if total > 0 {
		t = "update " + strconv.Itoa(n) + "/" + strconv.Itoa(total)
	}
	v.upd.Set(t)
	// Until backward is done the bar keeps the height it had without
	// an update phase (the server's first view is drawn for it).
	c := s.Counts()
	pending := total == 0 || n == 0 && c.Backward < c.BackwardTotal
	v.upd.El.ToggleClass("upd-pending", pending)
	v.optBox.ToggleClass("upd-pending", pending)
}

// saidUpdate says, after a move of the update phase, what it did; false
// when the stepper is not in or right after one.
func (v *stepperView) saidUpdate(s *app.Stepper) bool {
	if s.Updating() {
		v.said.SetTextContent(v.upd.El.TextContent() + ": the optimizer's step, one parameter at a time.")
		return true
	}
	if nf := s.LastForward(); nf != nil && s.Counts().Backward == 0 && s.Counts().Forward == s.Counts().ForwardTotal {
		v.said.SetTextContent("Next forward: " + lossChange(nf))
		return true
	}
	return false
}

// lossChange is the next forward's news in words.
func lossChange(nf *app.NextForward) string {
	return "loss " + app.Num(nf.Old) + " → " + app.Num(nf.New) + ", change " + app.Num(nf.New-nf.Old) +
		"; first-order prediction " + nf.Formula + " = " + app.Num(nf.Predicted)
}

// updateCard is the inspector's part for the update phase, made once and
// kept: for a parameter the phase stepped, its weights before, Δ, the
// optimizer's buffers (each a tensor grid) and the update rule with the
// numbers of one element, chosen by its index; for the loss after a next
// forward, the old and new loss and the first-order prediction.
type updateCard struct {
	box, rule, grids, elem, next dom.Elem
	title                        ui.Text
	heads                        [4]ui.Text // the grids' headings
	node, k                      int        // the element k of node whose rule is shown
}

func newUpdateCard(v *inspectorView) *updateCard {
	doc := v.sv.doc
	c := &updateCard{node: -1}
	c.title.El = doc.El("p", "class", "upd-title")
	c.elem = doc.El("input", "type", "number", "id", "upd-elem", "min", "0", "value", "0", "class", "mono", "aria-label", "Element whose update the rule shows")
	c.rule = doc.El("div", "class", "rule mono", "id", "insp-rule")
	c.grids = doc.El("div")
	lab := dom.Add(doc.El("label", "class", "hint"), doc.TextNode("element "), c.elem)
	c.box = dom.Add(doc.El("section", "class", "upd-card", "id", "insp-update", "aria-label", "The optimizer's update"), c.title.El, lab, c.rule, c.grids)
	for k := range c.heads {
		c.heads[k].El = doc.El("h3")
	}
	c.next = doc.El("p", "class", "upd-next mono", "id", "insp-next")
	doc.Listen(c.elem, "change", "update element", func(dom.Event) {
		if k, err := strconv.Atoi(c.elem.Value()); err == nil && k >= 0 {
			c.k = k
			v.show(v.sv.src().Stepper(), c.node)
		}
	})
	return c
}

// updateCard adds the update phase's part to the inspector showing node
// i, when it has one.
func (v *inspectorView) updateCard(s *app.Stepper, i int) {
	if v.upd == nil {
		v.upd = newUpdateCard(v)
	}
	c := v.upd
	if nf := s.LastForward(); nf != nil && i == s.Output() && !s.Updating() {
		c.next.SetTextContent("Next forward (update phase " + strconv.Itoa(nf.Phase) + "): " + lossChange(nf))
		for _, a := range [][2]string{{"data-old", app.Num(nf.Old)}, {"data-new", app.Num(nf.New)}, {"data-predicted", app.Num(nf.Predicted)}} {
			c.next.SetAttribute(a[0], a[1])
		}
		v.addSection(c.next)
	}
	before := s.Before(i)
	if before == nil {
		return
	}
	if i != c.node {
		c.node, c.k = i, 0
	}
	c.k = min(c.k, len(before)-1)
	c.elem.SetAttribute("max", strconv.Itoa(len(before)-1))
	c.elem.SetValue(strconv.Itoa(c.k))
	o, _ := s.Optimizer()
	c.title.Set("update: " + train.OptimizerLabel(o.Name) + ", η = " + app.Num(o.LR))
	c.rule.SetTextContent(s.Rule(i, c.k))
	shape, after := s.Nodes()[i].Shape, s.Tape().Node(i).Value
	d := tensor.Zeros(shape)
	for k := range d.Data {
		d.Data[k] = after.Data[k] - before[k]
	}
	titles, ts := []string{"before", "Δ = after − before"}, []*tensor.Tensor{{Shape: shape, Data: before}, d}
	k := slices.Index(s.Params(), i)
	st := s.OptimizerState()
	for bi, name := range train.BufferNames(o.Name) {
		if bs := st.Buffers[bi]; k < len(bs) && bs[k] != nil {
			titles, ts = append(titles, name+" (step "+strconv.Itoa(st.Steps[k])+")"), append(ts, &tensor.Tensor{Shape: shape, Data: bs[k]})
		}
	}
	var parts []dom.Elem
	for j, t := range ts {
		c.heads[j].Set(titles[j])
		parts = append(parts, c.heads[j].El, v.tensorEl(t, "insp-upd-"+strconv.Itoa(j)))
	}
	c.grids.SetChildren(parts...)
	v.addSection(c.box)
}

// optimizerControl is the Step view's choice of the update phase's
// optimizer and learning rate (the training view's settings, which it
// changes).
func optimizerControl(sv *View) dom.Elem {
	doc := sv.doc
	box := sv.d.Own("optimizer", doc.El("span", "class", "upd-opt", "role", "group", "aria-label", "The update phase's optimizer"))
	sel := doc.El("select", "id", "step-optimizer", "aria-label", "Optimizer of the update phase")
	doc.Options(sel, train.OptimizerNames(), train.OptimizerLabels(), train.OptimizerNames()[0])
	lr := doc.El("input", "type", "number", "id", "step-lr", "step", "any", "min", "0", "aria-label", "Learning rate η", "class", "mono")
	// one listener for both: a new optimizer starts from its defaults
	doc.Listen(box, "change", "step optimizer", func(dom.Event) {
		t := sv.st.Training()
		if name := sel.Value(); name != t.Optimizer.Name {
			t.Optimizer = train.DefaultOptimizer(name)
		} else if r, err := strconv.ParseFloat(lr.Value(), 64); err == nil && r > 0 {
			t.Optimizer.LR = r
		}
		sv.st.SetTraining(t)
	})
	sync := func(t state.TrainingSettings) {
		sel.SetValue(t.Optimizer.Name)
		lr.SetValue(strconv.FormatFloat(t.Optimizer.LR, 'g', -1, 64))
	}
	sv.optSync = sync
	dom.Add(box, doc.Txt("span", "update: "), sel, doc.Txt("span", " η "), lr)
	return box
}
