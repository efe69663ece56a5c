//go:build js && wasm

package main

import (
	"slices"
	"strconv"

	"tapelab/engine/train"
	"tapelab/wasm/state"
)

// Menu values, TensorFlow Playground's.
var (
	learningRates = []string{"0.00001", "0.0001", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1", "3", "10"}
	weightDecays  = []string{"0", "0.0001", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1"}
)

// trainControls are the training view's inputs and readouts.
type trainControls struct {
	v                                         *trainView
	play, dataset, lr, opt, l2, batch, noise  elem
	split, batchOut, noiseOut, splitOut       elem
	class, target, csvText, csvFile, csvError elem
	steps, trainLoss, testLoss, acc, rate     elem
	counts, msg, legendBox                    elem
}

func newTrainControls(v *trainView) trainControls {
	u := v.u
	c := trainControls{v: v}
	c.play = u.button("▶ Train", "Play or pause training (the page stays responsive)", v.play, "id", "train-play", "class", "primary")
	step := u.button("Step one batch", "Train on one mini-batch", v.stepOnce, "id", "train-step")
	reset := u.button("Reset", "Start again from the seeded weights", func() {
		if v.running {
			v.play()
		}
		v.reset(false)
	}, "id", "train-reset")
	inspect := u.button("Inspect this step", "Open the last mini-batch's tape, with the current weights, in the stepping view", v.inspect, "id", "train-inspect")
	// On a phone the settings are a panel this button opens (static/train.css).
	var settingsBtn elem
	settingsBtn = u.button("Settings", "Show or hide the training settings", func() {
		on := settingsBtn.GetAttribute("aria-expanded") != "true"
		settingsBtn.SetAttribute("aria-expanded", boolStr(on))
		v.root.ToggleClass("settings-open", on)
	}, "id", "train-settings-toggle", "class", "settings-toggle", "aria-controls", "train-settings", "aria-expanded", "false")
	run := add(v.pv.regions.own("train", u.el("div", "class", "train-run", "role", "group", "aria-label", "Training")), c.play, step, reset, inspect, settingsBtn)

	names := append(append(train.DatasetNames(), train.ImageDatasetNames()...), state.PointsDataset)
	labels := make([]string, len(names))
	labels[len(labels)-1] = "your points"
	set := v.st.Training()
	c.dataset = u.sel("train-dataset", names, labels, set.Dataset)
	c.lr = u.sel("train-lr", learningRates, nil, "0.03")
	c.opt = u.sel("train-opt", train.OptimizerNames(), []string{"SGD", "momentum", "Adam"}, "sgd")
	c.l2 = u.sel("train-l2", weightDecays, nil, "0")
	c.batch = u.el("input", "type", "range", "id", "train-batch", "min", "1", "max", "64", "value", strconv.Itoa(set.Batch))
	c.batchOut = u.txt("output", strconv.Itoa(set.Batch), "for", "train-batch", "class", "mono")
	c.noise = u.el("input", "type", "range", "id", "train-noise", "min", "0", "max", "50", "step", "5", "value", "0")
	c.noiseOut = u.txt("output", "0%", "for", "train-noise", "class", "mono")
	c.split = u.el("input", "type", "range", "id", "train-split", "min", "10", "max", "90", "step", "10", "value", "50")
	c.splitOut = u.txt("output", "50%", "for", "train-split", "class", "mono")
	settings := add(u.el("div", "class", "train-settings", "id", "train-settings"),
		v.pv.regions.own("dataset", u.labelled("Data", c.dataset)),
		v.pv.regions.own("lr", u.labelled("Learning rate", c.lr)),
		v.pv.regions.own("optimizer", u.labelled("Optimizer", c.opt)),
		v.pv.regions.own("l2", u.labelled("L2 (weight decay)", c.l2)),
		add(v.pv.regions.own("batch", u.labelled("Batch size", c.batch)), c.batchOut),
		add(v.pv.regions.own("noise", u.labelled("Noise", c.noise)), c.noiseOut),
		add(v.pv.regions.own("split", u.labelled("Training data", c.split)), c.splitOut),
		add(u.el("p", "class", "when-images"), u.button("Use the default CNN",
			"conv2d 4×3×3 → relu → max_pool2d 2 → flatten → linear, cross-entropy; Adam at 0.01, batches of 32", v.useCNN, "id", "train-cnn")),
	)
	u.listen(c.dataset, "change", "dataset", func(event) { v.setDataset(c.dataset.Value()) })
	u.listen(c.lr, "change", "learning rate", func(event) { c.read(); v.reset(true) })
	u.listen(c.opt, "change", "optimizer", func(event) { c.read(); v.reset(true) })
	u.listen(c.l2, "change", "L2", func(event) { c.read(); v.reset(true) })
	u.listen(c.batch, "input", "batch size", func(event) { c.read() })
	u.listen(c.batch, "change", "batch size", func(event) { c.read(); v.reset(true) })
	u.listen(c.noise, "input", "noise", func(event) { c.read() })
	u.listen(c.noise, "change", "noise", func(event) { c.read(); v.reset(false) })
	u.listen(c.split, "input", "split", func(event) { c.read() })
	u.listen(c.split, "change", "split", func(event) { c.read(); v.reset(false) })

	// Figures.
	fig := func(id, label string) (elem, elem) {
		val := u.txt("dd", "—", "id", id, "class", "mono")
		return add(u.el("div", "class", "fig"), u.txt("dt", label), val), val
	}
	var f [5]elem
	f[0], c.steps = fig("train-steps", "Steps")
	f[1], c.trainLoss = fig("train-loss", "Training loss")
	f[2], c.testLoss = fig("test-loss", "Test loss")
	f[3], c.acc = fig("train-acc", "Accuracy (train / test)")
	f[4], c.rate = fig("train-rate", "Steps/s")
	figures := add(u.el("dl", "class", "train-figures", "aria-live", "off"), f[:]...)
	c.counts = u.txt("p", "", "class", "train-counts muted")
	c.msg = u.txt("p", "", "id", "train-msg", "class", "train-msg", "role", "alert", "hidden", "")
	chartKey := add(u.el("p", "class", "chart-key"), u.txt("span", "training loss", "class", "key-train"), u.txt("span", "test loss", "class", "key-test"))

	// Data points and CSV.
	c.class = u.sel("train-class", []string{"0", "1"}, []string{"class 0 (blue ●)", "class 1 (orange ■)"}, "1")
	c.target = u.el("input", "type", "number", "id", "train-target", "value", "1", "step", "0.1")
	clearPoints := u.button("Clear my points", "Forget the points you added or pasted", v.clearPoints, "id", "train-clear")
	c.csvText = u.el("textarea", "id", "csv-text", "rows", "4", "spellcheck", "false",
		"placeholder", "x1,x2,label\n0.5,-1.2,1\n…")
	c.csvFile = u.el("input", "type", "file", "id", "csv-file", "accept", ".csv,text/csv,text/plain")
	useCSV := u.button("Use this CSV", "Train on the pasted data", func() { v.useCSV(c.csvText.Value()) }, "id", "csv-use")
	c.csvError = u.txt("p", "", "id", "csv-error", "class", "train-msg", "role", "alert", "hidden", "")
	u.listen(c.csvFile, "change", "CSV file", func(event) { v.readFile(c.csvFile) })
	data := add(v.pv.regions.own("points", u.el("details", "class", "train-data")),
		u.txt("summary", "Your own data"),
		u.txt("p", "Click on the picture to add a point of the chosen class; or paste or upload a CSV (inputs, then the target).", "class", "muted"),
		add(u.el("div", "class", "row"), u.labelled("New points", c.class, "class", "when-classes"), u.labelled("Target", c.target, "class", "when-regression"), clearPoints),
		c.csvText, add(u.el("div", "class", "row"), c.csvFile, useCSV), c.csvError)

	c.legendBox = u.el("div", "class", "train-legend", "id", "train-legend")
	u.listen(v.plot.canvas.el, "click", "add point", func(ev event) {
		r := v.plot.canvas.el.Rect()
		scale := v.plot.size / r.Width
		x, y := ev.Client()
		v.addPoint((x-r.Left)*scale, (y-r.Top)*scale)
	})

	picture := add(u.el("div", "class", "train-picture"), v.plot.canvas.el, c.legendBox)
	side := add(u.el("div", "class", "train-side"), figures, v.loss.canvas.el, chartKey, v.img.acc.canvas.el, c.counts, c.msg)
	body := add(u.el("div", "class", "train-main"), settings, picture, v.img.root, side)
	add(v.root, run, body, data)
	return c
}

// read copies the controls into the view's settings.
func (c *trainControls) read() {
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
func (c *trainControls) write() {
	s := c.v.st.Training()
	c.dataset.SetValue(s.Dataset)
	c.lr.SetValue(strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64))
	if c.lr.Value() != strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64) { // not a menu value: add it
		v := strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64)
		c.lr.AppendChild(c.v.u.txt("option", v, "value", v))
		c.lr.SetValue(v)
	}
	c.opt.SetValue(s.Optimizer.Name)
	wd := strconv.FormatFloat(s.Optimizer.WeightDecay, 'f', -1, 64)
	if !slices.Contains(weightDecays, wd) {
		c.l2.AppendChild(c.v.u.txt("option", wd, "value", wd))
	}
	c.l2.SetValue(wd)
	c.batch.SetValue(strconv.Itoa(s.Batch))
	c.noise.SetValue(strconv.Itoa(int(s.Data.Noise*100 + 0.5)))
	c.split.SetValue(strconv.Itoa(int(s.Data.TrainSplit*100 + 0.5)))
	c.batchOut.SetTextContent(strconv.Itoa(s.Batch))
	c.noiseOut.SetTextContent(strconv.Itoa(int(s.Data.Noise*100+0.5)) + "%")
	c.splitOut.SetTextContent(strconv.Itoa(int(s.Data.TrainSplit*100+0.5)) + "%")
}

func (c *trainControls) playing(on bool) {
	if on {
		c.play.SetTextContent("❚❚ Pause")
		c.play.SetAttribute("aria-pressed", "true")
	} else {
		c.play.SetTextContent("▶ Train")
		c.play.SetAttribute("aria-pressed", "false")
	}
}

// legend explains the picture's colours and shapes.
func (c *trainControls) legend(classes bool) {
	u := c.v.u
	c.legendBox.clear()
	c.v.root.ToggleClass("regression", !classes)
	bar := u.el("span", "class", "scale-bar", "aria-hidden", "true")
	if classes {
		add(c.legendBox,
			u.txt("span", "● class 0", "class", "key-c0"), bar, u.txt("span", "class 1 ■", "class", "key-c1"),
			u.txt("span", "background: the model's probability of class 1 (white = 50%); hollow marks are test points", "class", "muted small"))
		return
	}
	if c.v.sess != nil && c.v.sess.Model().Seq.Input().Size() == 1 {
		add(c.legendBox, u.txt("span", "dots: data (blue training, orange test); line: the model's output", "class", "muted small"))
		return
	}
	add(c.legendBox, u.txt("span", "−1", "class", "mono"), bar, u.txt("span", "+1", "class", "mono"),
		u.txt("span", "background: the model's output on the page's value scale; hollow marks are test points", "class", "muted small"))
}
