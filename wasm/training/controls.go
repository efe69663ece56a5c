//go:build js && wasm

package training

import (
	"slices"
	"strconv"

	"tapelab/engine/train"
	"tapelab/wasm/dom"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
)

// Menu values, TensorFlow Playground's.
var (
	learningRates = []string{"0.00001", "0.0001", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1", "3", "10"}
	weightDecays  = []string{"0", "0.0001", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1"}
)

// controls are the training view's inputs and readouts.
type controls struct {
	v                                         *View
	play, dataset, lr, opt, l2, batch, noise  dom.Elem
	split, batchOut, noiseOut, splitOut       dom.Elem
	class, target, csvText, csvFile, csvError dom.Elem
	steps, trainLoss, testLoss, acc, rate     dom.Elem
	counts, msg, legendBox, nanBtn            dom.Elem
	switched, switchedText                    dom.Elem // the notice that the model was switched to fit the data
	cmp                                       [link.MaxCompare]compareRow
	cmpBox                                    dom.Elem // the comparison's panel (a <details>)
	runsKey                                   dom.Elem // the chart's key when runs are compared
	surfBox, surfAxes                         dom.Elem // the loss surface's figure and its caption
}

// newControls wires the controls of the view's skeleton (v.root) and
// puts the view's pictures and charts in it.
func newControls(v *View) controls {
	u, r := v.u, v.root
	c := controls{v: v}
	var step, reset, inspect, settingsBtn, cnn, clearPoints, useCSV, undoSwitch dom.Elem
	r.Find(dom.Parts{
		{Sel: "#train-play", To: &c.play}, {Sel: "#train-step", To: &step}, {Sel: "#train-reset", To: &reset},
		{Sel: "#train-inspect", To: &inspect}, {Sel: "#train-settings-toggle", To: &settingsBtn}, {Sel: "#train-cnn", To: &cnn},
		{Sel: "#train-clear", To: &clearPoints}, {Sel: "#csv-use", To: &useCSV},
		{Sel: "#train-dataset", To: &c.dataset}, {Sel: "#train-lr", To: &c.lr}, {Sel: "#train-opt", To: &c.opt}, {Sel: "#train-l2", To: &c.l2},
		{Sel: "#train-batch", To: &c.batch}, {Sel: "[for=train-batch]", To: &c.batchOut},
		{Sel: "#train-noise", To: &c.noise}, {Sel: "[for=train-noise]", To: &c.noiseOut},
		{Sel: "#train-split", To: &c.split}, {Sel: "[for=train-split]", To: &c.splitOut},
		{Sel: "#train-steps", To: &c.steps}, {Sel: "#train-loss", To: &c.trainLoss}, {Sel: "#test-loss", To: &c.testLoss},
		{Sel: "#train-acc", To: &c.acc}, {Sel: "#train-rate", To: &c.rate}, {Sel: ".train-counts", To: &c.counts}, {Sel: "#train-msg", To: &c.msg}, {Sel: "#train-open-nan", To: &c.nanBtn},
		{Sel: "#train-class", To: &c.class}, {Sel: "#train-target", To: &c.target},
		{Sel: "#csv-text", To: &c.csvText}, {Sel: "#csv-file", To: &c.csvFile}, {Sel: "#csv-error", To: &c.csvError},
		{Sel: "#train-legend", To: &c.legendBox}, {Sel: "#train-runs", To: &c.runsKey},
		{Sel: "#train-surface-box", To: &c.surfBox}, {Sel: "#train-surface-box figcaption", To: &c.surfAxes},
		{Sel: "#train-switched", To: &c.switched}, {Sel: "#train-switched span", To: &c.switchedText}, {Sel: "#train-switched-undo", To: &undoSwitch},
	})
	// The classroom controls govern these regions (marked data-control in
	// the markup).
	for _, ctl := range []string{"train", "dataset", "lr", "optimizer", "l2", "batch", "noise", "split", "points"} {
		v.deps.Own(ctl, r.QuerySelector(`[data-control="`+ctl+`"]`))
	}
	u.OnClick(c.play, v.play)
	u.OnClick(step, v.stepOnce)
	u.OnClick(reset, func() {
		if v.running {
			v.play()
		}
		v.reset(false)
	})
	u.OnClick(inspect, v.inspect)
	u.OnClick(c.nanBtn, v.openNaN)
	// On a phone the settings are a panel this button opens (static/style.css).
	u.OnClick(settingsBtn, func() {
		on := settingsBtn.GetAttribute("aria-expanded") != "true"
		settingsBtn.SetAttribute("aria-expanded", strconv.FormatBool(on))
		v.root.ToggleClass("settings-open", on)
	})
	u.OnClick(cnn, v.useCNN)
	u.OnClick(undoSwitch, v.UndoSwitch)
	u.OnClick(clearPoints, v.clearPoints)
	u.OnClick(useCSV, func() { v.useCSV(c.csvText.Value()) })

	names := append(append(train.DatasetNames(), train.ImageDatasetNames()...), state.PointsDataset)
	labels := make([]string, len(names))
	labels[len(labels)-1] = "your points"
	set := v.st.Training()
	u.Options(c.dataset, names, labels, set.Dataset)
	u.Options(c.lr, learningRates, nil, "0.03")
	u.Options(c.opt, train.OptimizerNames(), train.OptimizerLabels(), "sgd")
	u.Options(c.l2, weightDecays, nil, "0")
	u.Options(c.class, []string{"0", "1"}, []string{"class 0 (blue ●)", "class 1 (orange ■)"}, "1")
	c.batch.SetAttribute("value", strconv.Itoa(set.Batch))
	c.batchOut.SetTextContent(strconv.Itoa(set.Batch))

	u.Listen(c.dataset, "change", "dataset", func(dom.Event) { v.SetDataset(c.dataset.Value()) })
	u.Listen(c.lr, "change", "learning rate", func(dom.Event) { c.read(); v.reset(true) })
	u.Listen(c.opt, "change", "optimizer", func(dom.Event) { c.read(); v.reset(true) })
	u.Listen(c.l2, "change", "L2", func(dom.Event) { c.read(); v.reset(true) })
	u.Listen(c.batch, "input", "batch size", func(dom.Event) { c.read() })
	u.Listen(c.batch, "change", "batch size", func(dom.Event) { c.read(); v.reset(true) })
	u.Listen(c.noise, "input", "noise", func(dom.Event) { c.read() })
	u.Listen(c.noise, "change", "noise", func(dom.Event) { c.read(); v.reset(false) })
	u.Listen(c.split, "input", "split", func(dom.Event) { c.read() })
	u.Listen(c.split, "change", "split", func(dom.Event) { c.read(); v.reset(false) })
	u.Listen(c.csvFile, "change", "CSV file", func(dom.Event) { v.readFile(c.csvFile) })
	u.Listen(v.plot.Elem(), "click", "add point", func(ev dom.Event) { v.addPoint(v.plot.At(ev)) })

	c.newCompare()
	r.Fill("plot", v.plot.Elem())
	r.Fill("images", v.img.root)
	r.Fill("loss", v.loss.Elem())
	r.Fill("accuracy", v.img.acc.Elem())
	r.Fill("surface", v.surf.Elem())
	return c
}

// read copies the controls into the view's settings.
func (c *controls) read() {
	v := c.v
	lr, _ := strconv.ParseFloat(c.lr.Value(), 64)
	wd, _ := strconv.ParseFloat(c.l2.Value(), 64)
	o := train.DefaultOptimizer(c.opt.Value())
	o.LR, o.WeightDecay = lr, wd
	batch, _ := strconv.Atoi(c.batch.Value())
	n, _ := strconv.Atoi(c.noise.Value())
	s, _ := strconv.Atoi(c.split.Value())
	v.setTraining(func(t *state.TrainingSettings) {
		t.Optimizer, t.Batch = o, batch
		t.Data.Noise, t.Data.TrainSplit = float64(n)/100, float64(s)/100
	})
	c.batchOut.SetTextContent(strconv.Itoa(batch))
	c.noiseOut.SetTextContent(strconv.Itoa(n) + "%")
	c.splitOut.SetTextContent(strconv.Itoa(s) + "%")
}

// write shows the view's settings in the controls.
func (c *controls) write() {
	s := c.v.st.Training()
	c.dataset.SetValue(s.Dataset)
	c.lr.SetValue(strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64))
	if c.lr.Value() != strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64) { // not a menu value: add it
		v := strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64)
		c.lr.AppendChild(c.v.u.Txt("option", v, "value", v))
		c.lr.SetValue(v)
	}
	c.opt.SetValue(s.Optimizer.Name)
	wd := strconv.FormatFloat(s.Optimizer.WeightDecay, 'f', -1, 64)
	if !slices.Contains(weightDecays, wd) {
		c.l2.AppendChild(c.v.u.Txt("option", wd, "value", wd))
	}
	c.l2.SetValue(wd)
	c.batch.SetValue(strconv.Itoa(s.Batch))
	c.noise.SetValue(strconv.Itoa(int(s.Data.Noise*100 + 0.5)))
	c.split.SetValue(strconv.Itoa(int(s.Data.TrainSplit*100 + 0.5)))
	c.batchOut.SetTextContent(strconv.Itoa(s.Batch))
	c.noiseOut.SetTextContent(strconv.Itoa(int(s.Data.Noise*100+0.5)) + "%")
	c.splitOut.SetTextContent(strconv.Itoa(int(s.Data.TrainSplit*100+0.5)) + "%")
	c.writeCompare()
}

// playing shows on the play button whether training runs.
func (c *controls) playing(on bool) {
	if on {
		c.play.SetTextContent("❚❚ Pause")
		c.play.SetAttribute("aria-pressed", "true")
	} else {
		c.play.SetTextContent("▶ Train")
		c.play.SetAttribute("aria-pressed", "false")
	}
}

// legend explains the picture's colours and shapes.
func (c *controls) legend(classes bool) {
	u := c.v.u
	c.legendBox.Clear()
	c.v.root.ToggleClass("regression", !classes)
	bar := u.El("span", "class", "scale-bar", "aria-hidden", "true")
	if classes {
		dom.Add(c.legendBox,
			u.Txt("span", "● class 0", "class", "key-c0"), bar, u.Txt("span", "class 1 ■", "class", "key-c1"),
			u.Txt("span", "background: the model's probability of class 1 (white = 50%); hollow marks are test points", "class", "muted small"))
		return
	}
	if c.v.sess != nil && c.v.sess.Model().Seq.Input().Size() == 1 {
		dom.Add(c.legendBox, u.Txt("span", "dots: data (blue training, orange test); line: the model's output", "class", "muted small"))
		return
	}
	dom.Add(c.legendBox, u.Txt("span", "−1", "class", "mono"), bar, u.Txt("span", "+1", "class", "mono"),
		u.Txt("span", "background: the model's output on the page's value scale; hollow marks are test points", "class", "muted small"))
}
