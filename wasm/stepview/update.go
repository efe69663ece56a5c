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
)

// updated shows the update phase's counter: update n/P, with the phases
// done; "update —" when the stepper has none (the single-output pass).
func (v *stepperView) updated(s *app.Stepper) {
	n, total, done := s.UpdateCounts()
	t := "update —"
	if total > 0 {
		t = "update " + strconv.Itoa(n) + "/" + strconv.Itoa(total)
		if done > 0 {
			t += " (" + strconv.Itoa(done) + " done)"
		}
	}
	v.upd.SetTextContent(t)
}

// saidUpdate says, after a move of the update phase, what it did; false
// when the stepper is not in or right after one.
func (v *stepperView) saidUpdate(s *app.Stepper) bool {
	n, _, _ := s.UpdateCounts()
	if s.Updating() {
		t := "Backward complete: every gradient is final. Next: the optimizer's update, one parameter at a time."
		if n > 0 {
			t = "Update: the optimizer stepped " + s.Nodes()[s.Params()[n-1]].Title() + ". Next: another, then the next forward."
		}
		v.said.SetTextContent(t)
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

// updateCard adds to the inspector, for a parameter the update phase has
// stepped, its weights before and after, Δ, the optimizer's buffers and
// the update rule with the numbers of its first element; for the loss
// after a next forward, the old and new loss and the prediction.
func (v *inspectorView) updateCard(s *app.Stepper, i int) {
	doc := v.sv.doc
	if nf := s.LastForward(); nf != nil && i == s.Output() && !s.Updating() {
		v.addSection(doc.Txt("p", "Next forward (update phase "+strconv.Itoa(nf.Phase)+"): "+lossChange(nf), "class", "upd-next mono", "id", "insp-next",
			"data-old", app.Num(nf.Old), "data-new", app.Num(nf.New), "data-predicted", app.Num(nf.Predicted)))
	}
	before := s.Before(i)
	if before == nil {
		return
	}
	c, _ := s.Optimizer()
	n := s.Nodes()[i]
	box := doc.El("section", "class", "upd-card", "id", "insp-update", "aria-label", "The optimizer's update")
	box.AppendChild(doc.Txt("p", "update: "+c.Name+", η = "+app.Num(c.LR), "class", "upd-title"))
	rule := doc.El("div", "class", "rule mono", "id", "insp-rule")
	for _, l := range s.Rule(i, 0) {
		rule.AppendChild(doc.Txt("div", l))
	}
	box.AppendChild(doc.Txt("p", "element 0:", "class", "hint"))
	box.AppendChild(rule)
	after := s.Value(i)
	if after == nil {
		after = s.Tape().Node(i).Value
	}
	b := &tensor.Tensor{Shape: n.Shape, Data: before}
	d := tensor.Zeros(n.Shape)
	for k := range d.Data {
		d.Data[k] = after.Data[k] - before[k]
	}
	titles, ts := []string{"before", "Δ = after − before"}, []*tensor.Tensor{b, d}
	k := slices.Index(s.Params(), i)
	st := s.OptimizerState()
	for bi, name := range train.BufferNames(c.Name) {
		if bs := st.Buffers[bi]; k < len(bs) && bs[k] != nil {
			titles, ts = append(titles, name+" (step "+strconv.Itoa(st.Steps[k])+")"), append(ts, &tensor.Tensor{Shape: n.Shape, Data: bs[k]})
		}
	}
	for j, t := range ts {
		dom.Add(box, doc.Txt("h3", titles[j]), v.tensorEl(t, "insp-upd-"+strconv.Itoa(j)))
	}
	v.addSection(box)
}

// optimizerControl is the Step view's choice of the update phase's
// optimizer and learning rate (the training view's settings, which it
// changes).
func optimizerControl(sv *View) dom.Elem {
	doc := sv.doc
	box := sv.d.Own("optimizer", doc.El("span", "class", "upd-opt", "role", "group", "aria-label", "The update phase's optimizer"))
	sel := doc.El("select", "id", "step-optimizer", "aria-label", "Optimizer of the update phase")
	for _, n := range train.OptimizerNames() {
		o := doc.Txt("option", n, "value", n)
		sel.AppendChild(o)
	}
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
