//go:build js && wasm

package main

import (
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
	play, dataset, lr, opt, l2, batch, noise  elem
	split, batchOut, noiseOut, splitOut       elem
	class, target, csvText, csvFile, csvError elem
	steps, trainLoss, testLoss, acc, rate     elem
	counts, msg, legendBox                    elem
	switched, switchedText                    elem // the notice that the model was switched to fit the data
}

// trainMarkup is the training view's skeleton; newTrainControls wires it
// and fills its slots with the pictures and charts.
const trainMarkup html = `
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
	var step, reset, inspect, settingsBtn, cnn, clearPoints, useCSV, undoSwitch elem
	r.parts(
		part{"#train-play", &c.play}, part{"#train-step", &step}, part{"#train-reset", &reset},
		part{"#train-inspect", &inspect}, part{"#train-settings-toggle", &settingsBtn}, part{"#train-cnn", &cnn},
		part{"#train-clear", &clearPoints}, part{"#csv-use", &useCSV},
		part{"#train-dataset", &c.dataset}, part{"#train-lr", &c.lr}, part{"#train-opt", &c.opt}, part{"#train-l2", &c.l2},
		part{"#train-batch", &c.batch}, part{"[for=train-batch]", &c.batchOut},
		part{"#train-noise", &c.noise}, part{"[for=train-noise]", &c.noiseOut},
		part{"#train-split", &c.split}, part{"[for=train-split]", &c.splitOut},
		part{"#train-steps", &c.steps}, part{"#train-loss", &c.trainLoss}, part{"#test-loss", &c.testLoss},
		part{"#train-acc", &c.acc}, part{"#train-rate", &c.rate}, part{".train-counts", &c.counts}, part{"#train-msg", &c.msg},
		part{"#train-class", &c.class}, part{"#train-target", &c.target},
		part{"#csv-text", &c.csvText}, part{"#csv-file", &c.csvFile}, part{"#csv-error", &c.csvError},
		part{"#train-legend", &c.legendBox},
		part{"#train-switched", &c.switched}, part{"#train-switched span", &c.switchedText}, part{"#train-switched-undo", &undoSwitch},
	)
	// The classroom controls govern these regions (marked data-control in
	// the markup).
	for _, ctl := range []string{"train", "dataset", "lr", "optimizer", "l2", "batch", "noise", "split", "points"} {
		v.pv.regions.own(ctl, r.QuerySelector(`[data-control="`+ctl+`"]`))
	}
	u.onClick(c.play, v.play)
	u.onClick(step, v.stepOnce)
	u.onClick(reset, func() {
		if v.running {
			v.play()
		}
		v.reset(false)
	})
	u.onClick(inspect, v.inspect)
	// On a phone the settings are a panel this button opens (static/style.css).
	u.onClick(settingsBtn, func() {
		on := settingsBtn.GetAttribute("aria-expanded") != "true"
		settingsBtn.SetAttribute("aria-expanded", boolStr(on))
		v.root.ToggleClass("settings-open", on)
	})
	u.onClick(cnn, v.useCNN)
	u.onClick(undoSwitch, v.undoSwitch)
	u.onClick(clearPoints, v.clearPoints)
	u.onClick(useCSV, func() { v.useCSV(c.csvText.Value()) })

	names := append(append(train.DatasetNames(), train.ImageDatasetNames()...), state.PointsDataset)
	labels := make([]string, len(names))
	labels[len(labels)-1] = "your points"
	set := v.st.Training()
	u.options(c.dataset, names, labels, set.Dataset)
	u.options(c.lr, learningRates, nil, "0.03")
	u.options(c.opt, train.OptimizerNames(), []string{"SGD", "momentum", "Adam"}, "sgd")
	u.options(c.l2, weightDecays, nil, "0")
	u.options(c.class, []string{"0", "1"}, []string{"class 0 (blue ●)", "class 1 (orange ■)"}, "1")
	c.batch.SetAttribute("value", strconv.Itoa(set.Batch))
	c.batchOut.SetTextContent(strconv.Itoa(set.Batch))

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
	u.listen(c.csvFile, "change", "CSV file", func(event) { v.readFile(c.csvFile) })
	u.listen(v.plot.canvas.el, "click", "add point", func(ev event) {
		r := v.plot.canvas.el.Rect()
		scale := v.plot.size / r.Width
		x, y := ev.Client()
		v.addPoint((x-r.Left)*scale, (y-r.Top)*scale)
	})

	r.fill("plot", v.plot.canvas.el)
	r.fill("images", v.img.root)
	r.fill("loss", v.loss.canvas.el)
	r.fill("accuracy", v.img.acc.canvas.el)
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
