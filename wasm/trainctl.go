//go:build js && wasm

package main

import (
	"slices"
	"strconv"
	"syscall/js"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/link"
	"tapelab/wasm/trainer"
)

// Menu values, TensorFlow Playground's.
var (
	learningRates = []string{"0.00001", "0.0001", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1", "3", "10"}
	weightDecays  = []string{"0", "0.0001", "0.001", "0.003", "0.01", "0.03", "0.1", "0.3", "1"}
)

// trainControls are the training view's inputs and readouts.
type trainControls struct {
	v                                         *trainView
	play, dataset, lr, opt, l2, batch, noise  js.Value
	split, batchOut, noiseOut, splitOut       js.Value
	class, target, csvText, csvFile, csvError js.Value
	steps, trainLoss, testLoss, acc, rate     js.Value
	counts, msg, legendBox                    js.Value
}

func newTrainControls(v *trainView) trainControls {
	u := v.u
	c := trainControls{v: v}
	c.play = u.btn("▶ Train", "Play or pause training (the page stays responsive)", v.play, "id", "train-play", "class", "primary")
	step := u.btn("Step one batch", "Train on one mini-batch", v.stepOnce, "id", "train-step")
	reset := u.btn("Reset", "Start again from the seeded weights", func() {
		if v.running {
			v.play()
		}
		v.reset(false)
	}, "id", "train-reset")
	inspect := u.btn("Inspect this step", "Open the last mini-batch's tape, with the current weights, in the stepping view", v.inspect, "id", "train-inspect")
	run := appendAll(u.el("div", "class", "train-run", "data-control", "train", "role", "group", "aria-label", "Training"), c.play, step, reset, inspect)

	names := append(train.DatasetNames(), pointsDataset)
	labels := make([]string, len(names))
	labels[len(labels)-1] = "your points"
	c.dataset = u.sel("train-dataset", names, labels, v.set.Dataset)
	c.lr = u.sel("train-lr", learningRates, nil, "0.03")
	c.opt = u.sel("train-opt", train.OptimizerNames(), []string{"SGD", "momentum", "Adam"}, "sgd")
	c.l2 = u.sel("train-l2", weightDecays, nil, "0")
	c.batch = u.el("input", "type", "range", "id", "train-batch", "min", "1", "max", "64", "value", strconv.Itoa(v.set.Batch))
	c.batchOut = u.txt("output", strconv.Itoa(v.set.Batch), "for", "train-batch", "class", "mono")
	c.noise = u.el("input", "type", "range", "id", "train-noise", "min", "0", "max", "50", "step", "5", "value", "0")
	c.noiseOut = u.txt("output", "0%", "for", "train-noise", "class", "mono")
	c.split = u.el("input", "type", "range", "id", "train-split", "min", "10", "max", "90", "step", "10", "value", "50")
	c.splitOut = u.txt("output", "50%", "for", "train-split", "class", "mono")
	settings := appendAll(u.el("div", "class", "train-settings"),
		u.labelled("Data", c.dataset, "data-control", "dataset"),
		u.labelled("Learning rate", c.lr, "data-control", "lr"),
		u.labelled("Optimizer", c.opt, "data-control", "optimizer"),
		u.labelled("L2 (weight decay)", c.l2, "data-control", "l2"),
		appendAll(u.labelled("Batch size", c.batch, "data-control", "batch"), c.batchOut),
		appendAll(u.labelled("Noise", c.noise, "data-control", "noise"), c.noiseOut),
		appendAll(u.labelled("Training data", c.split, "data-control", "split"), c.splitOut),
	)
	u.on(c.dataset, "change", "dataset", func(js.Value) { v.setDataset(c.dataset.Get("value").String()) })
	u.on(c.lr, "change", "learning rate", func(js.Value) { c.read(); v.reset(true) })
	u.on(c.opt, "change", "optimizer", func(js.Value) { c.read(); v.reset(true) })
	u.on(c.l2, "change", "L2", func(js.Value) { c.read(); v.reset(true) })
	u.on(c.batch, "input", "batch size", func(js.Value) { c.read() })
	u.on(c.batch, "change", "batch size", func(js.Value) { c.read(); v.reset(true) })
	u.on(c.noise, "input", "noise", func(js.Value) { c.read() })
	u.on(c.noise, "change", "noise", func(js.Value) { c.read(); v.reset(false) })
	u.on(c.split, "input", "split", func(js.Value) { c.read() })
	u.on(c.split, "change", "split", func(js.Value) { c.read(); v.reset(false) })

	// Figures.
	fig := func(id, label string) (js.Value, js.Value) {
		val := u.txt("dd", "—", "id", id, "class", "mono")
		return appendAll(u.el("div", "class", "fig"), u.txt("dt", label), val), val
	}
	var f [5]js.Value
	f[0], c.steps = fig("train-steps", "Steps")
	f[1], c.trainLoss = fig("train-loss", "Training loss")
	f[2], c.testLoss = fig("test-loss", "Test loss")
	f[3], c.acc = fig("train-acc", "Accuracy (train / test)")
	f[4], c.rate = fig("train-rate", "Steps/s")
	figures := appendAll(u.el("dl", "class", "train-figures", "aria-live", "off"), f[:]...)
	c.counts = u.txt("p", "", "class", "train-counts muted")
	c.msg = u.txt("p", "", "id", "train-msg", "class", "train-msg", "role", "alert", "hidden", "")
	chartKey := appendAll(u.el("p", "class", "chart-key"),
		u.txt("span", "training loss", "class", "key-train"), u.txt("span", "test loss", "class", "key-test"))

	// Data points and CSV.
	c.class = u.sel("train-class", []string{"0", "1"}, []string{"class 0 (blue ●)", "class 1 (orange ■)"}, "1")
	c.target = u.el("input", "type", "number", "id", "train-target", "value", "1", "step", "0.1")
	clear := u.btn("Clear my points", "Forget the points you added or pasted", v.clearPoints, "id", "train-clear")
	c.csvText = u.el("textarea", "id", "csv-text", "rows", "4", "spellcheck", "false",
		"placeholder", "x1,x2,label\n0.5,-1.2,1\n…")
	c.csvFile = u.el("input", "type", "file", "id", "csv-file", "accept", ".csv,text/csv,text/plain")
	useCSV := u.btn("Use this CSV", "Train on the pasted data", func() { v.useCSV(c.csvText.Get("value").String()) }, "id", "csv-use")
	c.csvError = u.txt("p", "", "id", "csv-error", "class", "train-msg", "role", "alert", "hidden", "")
	u.on(c.csvFile, "change", "CSV file", func(js.Value) { v.readFile(c.csvFile) })
	data := appendAll(u.el("details", "class", "train-data", "data-control", "points"),
		u.txt("summary", "Your own data"),
		u.txt("p", "Click on the picture to add a point of the chosen class; or paste or upload a CSV (inputs, then the target).", "class", "muted"),
		appendAll(u.el("div", "class", "row"), u.labelled("New points", c.class, "class", "when-classes"), u.labelled("Target", c.target, "class", "when-regression"), clear),
		c.csvText, appendAll(u.el("div", "class", "row"), c.csvFile, useCSV), c.csvError)

	c.legendBox = u.el("div", "class", "train-legend", "id", "train-legend")
	u.on(v.plot.canvas, "click", "add point", func(ev js.Value) {
		r := v.plot.canvas.Call("getBoundingClientRect")
		scale := v.plot.size / r.Get("width").Float()
		v.addPoint((ev.Get("clientX").Float()-r.Get("left").Float())*scale, (ev.Get("clientY").Float()-r.Get("top").Float())*scale)
	})

	picture := appendAll(u.el("div", "class", "train-picture"), v.plot.canvas, c.legendBox)
	side := appendAll(u.el("div", "class", "train-side"), figures, v.loss.canvas, chartKey, c.counts, c.msg)
	main := appendAll(u.el("div", "class", "train-main"), settings, picture, side)
	appendAll(v.root, run, main, data)
	return c
}

// read copies the controls into the view's settings.
func (c *trainControls) read() {
	v := c.v
	lr, _ := strconv.ParseFloat(c.lr.Get("value").String(), 64)
	wd, _ := strconv.ParseFloat(c.l2.Get("value").String(), 64)
	o := train.DefaultOptimizer(c.opt.Get("value").String())
	o.LR, o.WeightDecay = lr, wd
	v.set.Optimizer = o
	v.set.Batch, _ = strconv.Atoi(c.batch.Get("value").String())
	n, _ := strconv.Atoi(c.noise.Get("value").String())
	s, _ := strconv.Atoi(c.split.Get("value").String())
	v.set.Data.Noise, v.set.Data.TrainSplit = float64(n)/100, float64(s)/100
	c.batchOut.Set("textContent", strconv.Itoa(v.set.Batch))
	c.noiseOut.Set("textContent", strconv.Itoa(n)+"%")
	c.splitOut.Set("textContent", strconv.Itoa(s)+"%")
}

// write shows the view's settings in the controls.
func (c *trainControls) write() {
	s := c.v.set
	c.dataset.Set("value", s.Dataset)
	c.lr.Set("value", strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64))
	if c.lr.Get("value").String() != strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64) { // not a menu value: add it
		v := strconv.FormatFloat(s.Optimizer.LR, 'f', -1, 64)
		c.lr.Call("append", c.v.u.txt("option", v, "value", v))
		c.lr.Set("value", v)
	}
	c.opt.Set("value", s.Optimizer.Name)
	wd := strconv.FormatFloat(s.Optimizer.WeightDecay, 'f', -1, 64)
	if !slices.Contains(weightDecays, wd) {
		c.l2.Call("append", c.v.u.txt("option", wd, "value", wd))
	}
	c.l2.Set("value", wd)
	c.batch.Set("value", strconv.Itoa(s.Batch))
	c.noise.Set("value", strconv.Itoa(int(s.Data.Noise*100+0.5)))
	c.split.Set("value", strconv.Itoa(int(s.Data.TrainSplit*100+0.5)))
	c.batchOut.Set("textContent", strconv.Itoa(s.Batch))
	c.noiseOut.Set("textContent", strconv.Itoa(int(s.Data.Noise*100+0.5))+"%")
	c.splitOut.Set("textContent", strconv.Itoa(int(s.Data.TrainSplit*100+0.5))+"%")
}

func (c *trainControls) playing(on bool) {
	if on {
		c.play.Set("textContent", "❚❚ Pause")
		c.play.Call("setAttribute", "aria-pressed", "true")
	} else {
		c.play.Set("textContent", "▶ Train")
		c.play.Call("setAttribute", "aria-pressed", "false")
	}
}

// legend explains the picture's colours and shapes.
func (c *trainControls) legend(classes bool) {
	u := c.v.u
	c.legendBox.Set("innerHTML", "")
	toggleClass(c.v.root, "regression", !classes)
	bar := u.el("span", "class", "scale-bar", "aria-hidden", "true")
	if classes {
		appendAll(c.legendBox,
			u.txt("span", "● class 0", "class", "key-c0"), bar, u.txt("span", "class 1 ■", "class", "key-c1"),
			u.txt("span", "background: the model's probability of class 1 (white = 50%); hollow marks are test points", "class", "muted small"))
		return
	}
	if c.v.sess != nil && c.v.sess.Model().Seq.Input().Size() == 1 {
		appendAll(c.legendBox, u.txt("span", "dots: data (blue training, orange test); line: the model's output", "class", "muted small"))
		return
	}
	appendAll(c.legendBox, u.txt("span", "−1", "class", "mono"), bar, u.txt("span", "+1", "class", "mono"),
		u.txt("span", "background: the model's output on the page's value scale; hollow marks are test points", "class", "muted small"))
}

// setDataset switches to a generated set (the model's input follows its
// features) or to the user's points.
func (v *trainView) setDataset(name string) {
	if v.running {
		v.play()
	}
	if name == pointsDataset {
		if v.points == nil {
			v.ctl.dataset.Set("value", v.set.Dataset)
			v.message("You have no points yet: click on the picture, or paste a CSV below.")
			return
		}
		v.set.Dataset = pointsDataset
		v.reset(false)
		return
	}
	v.set.Dataset, v.set.Data.Name = name, name
	feats := 2
	if name == "sine" {
		feats = 1
	}
	d := v.pv.pg.Doc()
	if d.Input.Size() != feats {
		d.Input = tensor.Shape{feats}
		v.pv.edit(d)
	}
	v.pv.setDataset(name)
	v.reset(false)
}

// addPoint adds an example at canvas position (px, py) with the chosen
// class (or target). The first point copies the generated data, so that
// clicking adds to what is on screen.
func (v *trainView) addPoint(px, py float64) {
	if v.sess == nil || v.sess.Model().Seq.Input().Size() != 2 {
		v.message("Points can be added on 2-D data only.")
		return
	}
	x, y := v.plot.toData(px, py)
	target, _ := strconv.ParseFloat(v.ctl.target.Get("value").String(), 64)
	if v.classes() > 0 {
		target, _ = strconv.ParseFloat(v.ctl.class.Get("value").String(), 64)
	}
	if v.set.Dataset != pointsDataset || v.points == nil {
		tr, te := v.sess.Sets()
		v.points = &link.Points{}
		for _, d := range []*train.Dataset{tr, te} {
			for i := 0; i < d.Len(); i++ {
				v.points.X = append(v.points.X, []float64{d.X.Data[2*i], d.X.Data[2*i+1]})
				v.points.Y = append(v.points.Y, d.Y.Data[i])
			}
		}
		v.set.Dataset = pointsDataset
		v.ctl.dataset.Set("value", pointsDataset)
	}
	if len(v.points.X) >= trainer.MaxUserPoints {
		v.message("That is the most points the playground holds; clear some first.")
		return
	}
	v.points.X = append(v.points.X, []float64{x, y})
	v.points.Y = append(v.points.Y, target)
	v.reset(true)
}

// clearPoints forgets the user's points and goes back to generated data.
func (v *trainView) clearPoints() {
	v.points = nil
	if v.set.Dataset == pointsDataset {
		name := v.set.Data.Name
		if name == "" {
			name = link.DefaultDataset
		}
		v.setDataset(name)
	}
}

// useCSV trains on pasted CSV text; errors name the row and column.
func (v *trainView) useCSV(text string) {
	c := v.ctl
	feats := v.pv.pg.Doc().Input.Size()
	x, y, err := trainer.ReadCSV(text, feats, v.classes())
	if err != nil {
		c.csvError.Set("textContent", "CSV: "+err.Error())
		show(c.csvError, true)
		return
	}
	show(c.csvError, false)
	if v.running {
		v.play()
	}
	v.points = &link.Points{X: x, Y: y}
	v.set.Dataset = pointsDataset
	c.dataset.Set("value", pointsDataset)
	v.reset(false)
}

// readFile reads an uploaded CSV file into the text box and uses it.
func (v *trainView) readFile(input js.Value) {
	files := input.Get("files")
	if files.Length() == 0 {
		return
	}
	f := files.Index(0)
	if f.Get("size").Int() > 1<<20 {
		v.ctl.csvError.Set("textContent", "CSV: the file is larger than 1 MiB")
		show(v.ctl.csvError, true)
		return
	}
	var then js.Func
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		then.Release()
		text := args[0].String()
		v.ctl.csvText.Set("value", text)
		recovered("CSV file", v.u.report, func() { v.useCSV(text) })
		return nil
	})
	f.Call("text").Call("then", then)
}
