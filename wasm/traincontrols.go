//go:build js && wasm

package main

import (
	"tapelab/wasm/dom"

	"slices"
	"strconv"

	"tapelab/engine/train"
	"tapelab/wasm/app"
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
	play, dataset, lr, opt, l2, batch, noise  dom.Elem
	split, batchOut, noiseOut, splitOut       dom.Elem
	class, target, csvText, csvFile, csvError dom.Elem
	steps, trainLoss, testLoss, acc, rate     dom.Elem
	counts, msg, legendBox                    dom.Elem
	switched, switchedText                    dom.Elem // the notice that the model was switched to fit the data
}

// trainMarkup is the training view's skeleton; newTrainControls wires it
// and fills its slots with the pictures and charts.
const trainMarkup dom.HTML = `
<section id="train-view" class="train-view" aria-label="Training" hidden>
  <div class="train-run" data-control="train" role="group" aria-label="Training">
    <button type="button" id="train-play" class="primary" title="Play or pause training (the page stays responsive)">▶ Train</button>
    <button type="button" id="train-step" title="Train on one mini-batch">Step one batch</button>
    <button type="button" id="train-reset" title="Start again from the seeded weights">Reset</button>
    <button type="button" id="train-inspect" title="Open the last mini-batch's tape, with the current weights, in the stepping view">Inspect this step</button>
    <button type="button" id="train-settings-toggle" class="settings-toggle" aria-controls="train-settings" aria-expanded="false"
      title="Show or hide the training settings">Settings</button>
  </div>
  <div class="train-main">
    <div class="train-settings" id="train-settings">
      <label data-control="dataset"><span class="cap">Data</span><select id="train-dataset"></select></label>
      <p id="train-switched" class="train-note" role="status" hidden><span></span>
        <button type="button" id="train-switched-undo" title="Go back to the data and the model you had">Undo</button></p>
      <label data-control="lr"><span class="cap">Learning rate</span><select id="train-lr"></select></label>
      <label data-control="optimizer"><span class="cap">Optimizer</span><select id="train-opt"></select></label>
      <label data-control="l2"><span class="cap">L2 (weight decay)</span><select id="train-l2"></select></label>
      <label data-control="batch"><span class="cap">Batch size</span><input type="range" id="train-batch" min="1" max="64"><output for="train-batch" class="mono"></output></label>
      <label data-control="noise"><span class="cap">Noise</span><input type="range" id="train-noise" min="0" max="50" step="5" value="0"><output for="train-noise" class="mono">0%</output></label>
      <label data-control="split"><span class="cap">Training data</span><input type="range" id="train-split" min="10" max="90" step="10" value="50"><output for="train-split" class="mono">50%</output></label>
      <p class="when-images"><button type="button" id="train-cnn"
        title="conv2d 4×3×3 → relu → max_pool2d 2 → flatten → linear, cross-entropy; Adam at 0.01, batches of 32">Use the default CNN</button></p>
    </div>
    <div class="train-picture">
      <slot name="plot"></slot>
      <div class="train-legend" id="train-legend"></div>
    </div>
    <slot name="images"></slot>
    <div class="train-side">
      <dl class="train-figures" aria-live="off">
        <div class="fig"><dt>Steps</dt><dd id="train-steps" class="mono">—</dd></div>
        <div class="fig"><dt>Training loss</dt><dd id="train-loss" class="mono">—</dd></div>
        <div class="fig"><dt>Test loss</dt><dd id="test-loss" class="mono">—</dd></div>
        <div class="fig"><dt>Accuracy (train / test)</dt><dd id="train-acc" class="mono">—</dd></div>
        <div class="fig"><dt>Steps/s</dt><dd id="train-rate" class="mono">—</dd></div>
      </dl>
      <slot name="loss"></slot>
      <p class="chart-key"><span class="key-train">training loss</span><span class="key-test">test loss</span><span class="key-raw">faint: each evaluation</span></p>
      <slot name="accuracy"></slot>
      <p class="train-counts muted"></p>
      <p id="train-msg" class="train-msg" role="alert" hidden></p>
    </div>
  </div>
  <details class="train-data" data-control="points">
    <summary>Your own data</summary>
    <p class="muted">Click on the picture to add a point of the chosen class; or paste or upload a CSV (inputs, then the target).</p>
    <div class="row">
      <label class="when-classes"><span class="cap">New points</span><select id="train-class"></select></label>
      <label class="when-regression"><span class="cap">Target</span><input type="number" id="train-target" value="1" step="0.1"></label>
      <button type="button" id="train-clear" title="Forget the points you added or pasted">Clear my points</button>
    </div>
    <textarea id="csv-text" rows="4" spellcheck="false" placeholder="x1,x2,label&#10;0.5,-1.2,1&#10;…"></textarea>
    <div class="row">
      <input type="file" id="csv-file" accept=".csv,text/csv,text/plain">
      <button type="button" id="csv-use" title="Train on the pasted data">Use this CSV</button>
    </div>
    <p id="csv-error" class="train-msg" role="alert" hidden></p>
  </details>
</section>`

// newTrainControls wires the controls of the view's skeleton (v.root) and
// puts the view's pictures and charts in it.
func newTrainControls(v *trainView) trainControls {
	u, r := v.u, v.root
	c := trainControls{v: v}
	var step, reset, inspect, settingsBtn, cnn, clearPoints, useCSV, undoSwitch dom.Elem
	r.Find(dom.Parts{
		"#train-play": &c.play, "#train-step": &step, "#train-reset": &reset,
		"#train-inspect": &inspect, "#train-settings-toggle": &settingsBtn, "#train-cnn": &cnn,
		"#train-clear": &clearPoints, "#csv-use": &useCSV,
		"#train-dataset": &c.dataset, "#train-lr": &c.lr, "#train-opt": &c.opt, "#train-l2": &c.l2,
		"#train-batch": &c.batch, "[for=train-batch]": &c.batchOut,
		"#train-noise": &c.noise, "[for=train-noise]": &c.noiseOut,
		"#train-split": &c.split, "[for=train-split]": &c.splitOut,
		"#train-steps": &c.steps, "#train-loss": &c.trainLoss, "#test-loss": &c.testLoss,
		"#train-acc": &c.acc, "#train-rate": &c.rate, ".train-counts": &c.counts, "#train-msg": &c.msg,
		"#train-class": &c.class, "#train-target": &c.target,
		"#csv-text": &c.csvText, "#csv-file": &c.csvFile, "#csv-error": &c.csvError,
		"#train-legend":   &c.legendBox,
		"#train-switched": &c.switched, "#train-switched span": &c.switchedText, "#train-switched-undo": &undoSwitch,
	})
	// The classroom controls govern these regions (marked data-control in
	// the markup).
	for _, ctl := range []string{"train", "dataset", "lr", "optimizer", "l2", "batch", "noise", "split", "points"} {
		v.pv.regions.own(ctl, r.QuerySelector(`[data-control="`+ctl+`"]`))
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
	// On a phone the settings are a panel this button opens (static/style.css).
	u.OnClick(settingsBtn, func() {
		on := settingsBtn.GetAttribute("aria-expanded") != "true"
		settingsBtn.SetAttribute("aria-expanded", strconv.FormatBool(on))
		v.root.ToggleClass("settings-open", on)
	})
	u.OnClick(cnn, v.useCNN)
	u.OnClick(undoSwitch, v.undoSwitch)
	u.OnClick(clearPoints, v.clearPoints)
	u.OnClick(useCSV, func() { v.useCSV(c.csvText.Value()) })

	names := append(append(train.DatasetNames(), train.ImageDatasetNames()...), state.PointsDataset)
	labels := make([]string, len(names))
	labels[len(labels)-1] = "your points"
	set := v.st.Training()
	u.Options(c.dataset, names, labels, set.Dataset)
	u.Options(c.lr, learningRates, nil, "0.03")
	u.Options(c.opt, train.OptimizerNames(), []string{"SGD", "momentum", "Adam"}, "sgd")
	u.Options(c.l2, weightDecays, nil, "0")
	u.Options(c.class, []string{"0", "1"}, []string{"class 0 (blue ●)", "class 1 (orange ■)"}, "1")
	c.batch.SetAttribute("value", strconv.Itoa(set.Batch))
	c.batchOut.SetTextContent(strconv.Itoa(set.Batch))

	u.Listen(c.dataset, "change", "dataset", func(dom.Event) { v.setDataset(c.dataset.Value()) })
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
	u.Listen(v.plot.canvas.El, "click", "add point", func(ev dom.Event) {
		r := v.plot.canvas.El.Rect()
		scale := v.plot.size / r.Width
		x, y := ev.Client()
		v.addPoint((x-r.Left)*scale, (y-r.Top)*scale)
	})

	r.Fill("plot", v.plot.canvas.El)
	r.Fill("images", v.img.root)
	r.Fill("loss", v.loss.canvas.El)
	r.Fill("accuracy", v.img.acc.canvas.El)
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
// sayFit shows, beside the data menu, that choosing the dataset name
// switched the model to fit (the model fit, switched set), with an Undo;
// or hides the notice.
func (c *trainControls) sayFit(name string, fit app.Doc, switched bool) {
	if !switched {
		c.v.showSwitched(false)
		return
	}
	what := "the default model (" + app.LayerPath(fit) + ")"
	if app.ImageData(name) {
		what = "the default CNN, which reads images"
	}
	said := "The model you had does not fit " + name + ", so it is now " + what + "."
	c.switchedText.SetTextContent(said)
	if c.v.note != nil {
		c.v.note.text.SetTextContent(said)
	}
	c.v.showSwitched(true)
}

func (c *trainControls) legend(classes bool) {
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
