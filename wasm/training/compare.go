//go:build js && wasm

package training

import (
	"strconv"

	"tapelab/engine/train"
	"tapelab/wasm/dom"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/trainer"
)

// compareRow is one optimizer the view can run beside the model's own:
// on or off, which optimizer, at which learning rate.
type compareRow struct{ on, opt, lr dom.Elem }

// compareDefaults are the rows' settings before a person chooses:
// momentum and Adam beside the model's own (SGD by default).
var compareDefaults = [link.MaxCompare]train.OptimizerConfig{train.DefaultOptimizer("momentum"), train.DefaultOptimizer("adam")}

// newCompare wires the rows of the comparison's panel (#train-compare).
func (c *controls) newCompare() {
	v := c.v
	u := v.u
	v.root.Find(dom.Parts{{Sel: "#train-compare", To: &c.cmpBox}})
	for i := range c.cmp {
		r := &c.cmp[i]
		n := strconv.Itoa(i + 2)
		v.root.Find(dom.Parts{{Sel: "#cmp-on-" + n, To: &r.on}, {Sel: "#cmp-opt-" + n, To: &r.opt}, {Sel: "#cmp-lr-" + n, To: &r.lr}})
		d := compareDefaults[i]
		u.Options(r.opt, train.OptimizerNames(), train.OptimizerLabels(), d.Name)
		u.Options(r.lr, learningRates, nil, strconv.FormatFloat(d.LR, 'f', -1, 64))
		for _, e := range []dom.Elem{r.on, r.opt, r.lr} {
			u.Listen(e, "change", "comparing optimizers", func(dom.Event) {
				if e.Same(r.opt) || e.Same(r.lr) {
					r.on.SetChecked(true) // choosing a run's settings runs it
				}
				c.readCompare()
			})
		}
	}
}

// readCompare makes the checked rows the optimizers compared and trains
// every run anew from the same weights.
func (c *controls) readCompare() {
	var cmp []train.OptimizerConfig
	for _, r := range c.cmp {
		if !r.on.Checked() {
			continue
		}
		o := train.DefaultOptimizer(r.opt.Value())
		o.LR, _ = strconv.ParseFloat(r.lr.Value(), 64)
		cmp = append(cmp, o)
	}
	v := c.v
	if v.running {
		v.play() // pause
	}
	v.setTraining(func(t *state.TrainingSettings) { t.Compare = cmp })
	v.reset(false)
}

// writeCompare shows the settings' comparison in the rows: the compared
// optimizers checked, in order, the other rows as they were.
func (c *controls) writeCompare() {
	cmp := c.v.st.Training().Compare
	if len(cmp) > 0 {
		c.cmpBox.SetAttribute("open", "")
	}
	for i := range c.cmp {
		r := &c.cmp[i]
		r.on.SetChecked(i < len(cmp))
		if i < len(cmp) {
			r.opt.SetValue(cmp[i].Name)
			lr := strconv.FormatFloat(cmp[i].LR, 'f', -1, 64)
			r.lr.SetValue(lr)
			if r.lr.Value() != lr { // not a menu value: add it
				r.lr.AppendChild(c.v.u.Txt("option", lr, "value", lr))
				r.lr.SetValue(lr)
			}
		}
	}
}

// runs are the sessions drawn in the chart: the model's own, then the
// compared ones.
func (v *View) runs() []*trainer.Session {
	if v.sess == nil {
		return nil
	}
	return append([]*trainer.Session{v.sess}, v.others...)
}

// showSurface draws, for a model with two parameter values, the loss over
// their plane with every run's path; it hides the figure for any other.
func (v *View) showSurface() {
	c := v.ctl
	names, two := v.sess.Two()
	c.surfBox.Show(two)
	if !two {
		return
	}
	c.surfAxes.SetTextContent("Training loss over the plane of " + names[0] + " (across) and " + names[1] +
		" (up), darker where higher; ○ the start, ● each run now")
	if err := v.surf.Draw(v.runs()); err != nil {
		v.message(err.Error())
	}
}

// showRuns draws the runs' losses in one chart and says in its key, per
// run, its colour's line, its optimizer and its latest training loss (the
// picture and the figures are run 1's).
func (v *View) showRuns() {
	runs := v.runs()
	comparing := len(runs) > 1
	v.root.ToggleClass("comparing", comparing)
	if !comparing {
		v.ctl.runsKey.Clear()
		return
	}
	hs := make([][]trainer.Record, len(runs))
	items := make([]dom.Elem, len(runs))
	u := v.u
	for i, s := range runs {
		hs[i] = s.History()
		last := s.Last()
		items[i] = dom.Add(u.El("li", "class", "run run-"+string(rune('a'+i)), "data-run", strconv.Itoa(i+1),
			"data-steps", strconv.Itoa(s.Steps()), "data-train-loss", strconv.FormatFloat(last.Train.Loss, 'g', -1, 64)),
			u.El("span", "class", "run-line", "aria-hidden", "true"),
			u.Txt("span", trainer.RunName(s.Spec().Optimizer)+": "),
			u.Txt("span", figure(last.Train.Loss), "class", "mono"))
	}
	v.loss.DrawRuns(hs)
	v.ctl.runsKey.SetChildren(items...)
}
