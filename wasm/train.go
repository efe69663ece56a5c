//go:build js && wasm

package main

import (
	"tapelab/wasm/dom"

	"fmt"
	"math"
	"strconv"
	"time"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/trainer"
)

// trainView is TensorFlow Playground's picture for the model being edited:
// play, pause, one batch, reset; the decision boundary (or fitted curve)
// with the data; the loss chart and the figures; the data controls.
type trainView struct {
	u    *dom.Document
	pv   *playground
	root dom.Elem
	ctl  trainControls
	plot *plot
	loss *chart
	img  *imagePanel // the picture for image data

	st   *state.State // the training settings, the user's points, the weights trained
	sess *trainer.Session
	doc  app.Doc // the model the session trains

	running     bool
	rate        float64 // steps per second, smoothed
	lastDraw    float64
	live        bool    // the state reads the weights from the session
	lastTrained float64 // when the state was last told the weights moved (ms)

	switchedFrom *switchedFrom // what the last dataset change replaced to fit the data (nil: nothing)
	// note is the stepping view's notice of the same switch (see
	// stepNote), which the shell gives the view when it builds it.
	note *stepNote
}

// trainedEvery is how often, in ms, a running training tells the state
// that its weights moved (the link follows at most every second).
const trainedEvery = 500

func newTrainView(u *dom.Document, pv *playground, st *state.State) *trainView {
	v := &trainView{u: u, pv: pv, st: st}
	v.root = u.Build(trainMarkup)
	v.plot = newPlot(u, 360, pv.p.scale)
	v.loss = newChart(u, 300, 110)
	v.img = newImagePanel(u)
	v.ctl = newTrainControls(v)
	return v
}

// changed follows the state (the shell tells it each change once it is
// built): a link's settings and weights, and the view.
func (v *trainView) changed(c state.Change) {
	if c.Has(state.Opened) { // train the link's model, from its weights
		if v.running {
			v.play() // pause
		}
		v.sess = nil
		v.switchedFrom = nil // a switch of the page before is not the link's to undo
		v.showSwitched(false)
		v.ctl.write()
	}
	if c.Has(state.View) {
		v.shown()
	}
}

// shown shows the view when it is on screen (starting a session from the
// weights of the state when there is none), and pauses training when not.
func (v *trainView) shown() {
	train := v.st.View() == link.ViewTrain
	v.root.Show(train)
	if !train {
		if v.running {
			v.play() // pause: the stepping view is on screen
		}
		return
	}
	if v.sess == nil {
		v.reset(true)
	}
	v.render()
}

// setTraining changes the training settings through the state.
func (v *trainView) setTraining(change func(*state.TrainingSettings)) {
	t := v.st.Training()
	change(&t)
	v.st.SetTraining(t)
}

// classes is the number of classes of the current data (0 for regression).
func (v *trainView) classes() int {
	name := v.st.Training().Dataset
	if name == state.PointsDataset {
		name = v.st.Training().Data.Name
	}
	_, classes, err := app.DataShape(name)
	if err != nil {
		return 0
	}
	return classes
}

// reset builds a fresh session: seeded weights unless keep is set and the
// model did not change, in which case training continues from the current
// weights with the new settings.
func (v *trainView) reset(keep bool) {
	var params map[string]*tensor.Tensor
	doc := v.pv.model().Doc()
	if d, w := v.st.Trained(); keep && v.sess != nil && doc.Equal(v.doc) {
		params = v.sess.Params()
	} else if keep && w != nil && doc.Equal(d) {
		params = w
	}
	v.build(params)
}

// build starts a session with the given weights (nil: seeded).
func (v *trainView) build(params map[string]*tensor.Tensor) {
	v.doc = v.pv.model().Doc()
	v.sess = nil
	v.live = false
	v.img.blank() // of the last session: the new one is drawn anew, from its step 0
	v.st.SetTrained(v.doc, nil)
	if len(params) > 0 {
		v.st.SetTrained(v.doc, func() map[string]*tensor.Tensor { return params })
	}
	if err := v.pv.model().Err(); err != nil {
		v.message("The model has an error (see the layer marked ⚠); fix it to train.")
		v.render()
		return
	}
	m := v.st.SpecModel()
	if len(params) > 0 {
		m.Params = params
	}
	var data *train.Dataset
	if p := v.st.Points(); v.st.Training().Dataset == state.PointsDataset && p != nil {
		d, err := trainer.FromPoints(p.X, p.Y, v.classes())
		if err != nil {
			v.message(err.Error())
			v.render()
			return
		}
		data = d
	}
	s, err := trainer.New(m, data, v.st.DataFile(m.Dataset.Name))
	if err != nil {
		v.message("Cannot train this model on " + v.st.Training().Dataset + ": " + err.Error())
		v.render()
		return
	}
	v.sess = s
	v.message("")
	v.render()
}

// message shows msg (or clears it) in the view's alert line.
func (v *trainView) message(msg string) {
	v.ctl.msg.SetTextContent(msg)
	v.ctl.msg.Show(msg != "")
}

// play starts or pauses training.
func (v *trainView) play() {
	if v.running {
		v.running = false
		v.ctl.playing(false)
		if v.sess != nil && v.sess.Measure() == nil {
			v.render()
		}
		return
	}
	if v.sess == nil || v.sess.Err() != nil {
		v.reset(false)
	}
	if v.sess == nil {
		return
	}
	v.running = true
	v.ctl.playing(true)
	go v.loop()
}

// loop trains in slices of about 12 ms and draws after each slice; between
// slices it sleeps, which hands the thread back to the browser, so that
// the page keeps responding while training runs.
func (v *trainView) loop() {
	defer func() {
		if r := recover(); r != nil {
			v.running = false
			v.ctl.playing(false)
			v.u.Report(fmt.Sprintf("training: %v", r))
		}
	}()
	chunk := 1
	for v.running {
		if !v.pv.model().Doc().Equal(v.doc) { // edited while training
			v.reset(false)
			if v.sess == nil {
				break
			}
		}
		s := v.sess
		t0 := dom.Now()
		ran := 0
		for dom.Now()-t0 < 12 {
			n, err := s.Run(chunk)
			ran += n
			if err != nil {
				v.stopped(err)
				return
			}
			if dom.Now()-t0 < 4 {
				chunk = min(chunk*2, 256)
			}
		}
		dt := dom.Now() - t0
		if r := float64(ran) / dt * 1000; v.rate == 0 {
			v.rate = r
		} else {
			v.rate = 0.8*v.rate + 0.2*r
		}
		if dom.Now()-v.lastDraw > 60 {
			v.render()
		}
		time.Sleep(time.Millisecond)
	}
	v.render()
}

// stopped ends training on a fault and says where it happened.
func (v *trainView) stopped(err error) {
	v.running = false
	v.ctl.playing(false)
	v.render()
	v.message("Training stopped: " + err.Error() + ". Lower the learning rate or reset.")
}

// stepOnce trains one mini-batch.
func (v *trainView) stepOnce() {
	if v.running {
		v.play() // pause
	}
	if v.sess == nil || v.sess.Err() != nil {
		v.reset(false)
	}
	if v.sess == nil {
		return
	}
	if _, err := v.sess.Run(1); err != nil {
		v.stopped(err)
		return
	}
	if err := v.sess.Measure(); err != nil {
		v.stopped(err)
		return
	}
	v.render()
}

// inspect opens the last mini-batch's tape, with the current weights, in
// the stepping view.
func (v *trainView) inspect() {
	if v.running {
		v.play()
	}
	if v.sess == nil {
		v.reset(false)
	}
	if v.sess == nil {
		return
	}
	if v.sess.Steps() == 0 {
		if _, err := v.sess.Run(1); err != nil {
			v.stopped(err)
			return
		}
	}
	x, y := v.sess.Batch()
	v.render()
	if err := v.st.Inspect(v.doc, v.sess.Params(), app.Batch{X: x, Y: y}); err != nil {
		v.message("Cannot show this step: " + err.Error())
	}
}

// render draws the picture, the chart and the figures.
func (v *trainView) render() {
	v.lastDraw = dom.Now()
	s := v.sess
	images := app.ImageData(v.st.Training().Dataset)
	v.root.ToggleClass("images", images)
	if s == nil {
		v.blank()
		return
	}
	if s.Steps() > 0 && (!v.live || !v.running || v.lastDraw-v.lastTrained > trainedEvery) {
		// A link of the training view carries the weights the session
		// reached; the state reads them when a link is made.
		v.live, v.lastTrained = true, v.lastDraw
		v.st.SetTrained(v.doc, s.Params)
	}
	draw := func() error { return v.plot.draw(s) }
	if images {
		draw = func() error { return v.img.draw(s, v.running) }
	}
	if err := draw(); err != nil {
		v.message(err.Error())
	}
	v.loss.draw(s.History())
	last := s.Last()
	c := v.ctl
	c.steps.SetTextContent(strconv.Itoa(s.Steps()))
	c.trainLoss.SetTextContent(figure(last.Train.Loss))
	c.testLoss.SetTextContent(figure(last.Test.Loss))
	acc := "—"
	if !math.IsNaN(last.Train.Accuracy) {
		acc = fmt.Sprintf("%.1f%% / %.1f%%", 100*last.Train.Accuracy, 100*last.Test.Accuracy)
		if math.IsNaN(last.Test.Accuracy) {
			acc = fmt.Sprintf("%.1f%% / —", 100*last.Train.Accuracy)
		}
	}
	c.acc.SetTextContent(acc)
	rate := "—"
	if v.rate > 0 {
		rate = strconv.Itoa(int(math.Round(v.rate)))
	}
	c.rate.SetTextContent(rate)
	tr, te := s.Sets()
	c.counts.SetTextContent(fmt.Sprintf("%d training, %d test examples", tr.Len(), te.Len()))
	r := v.root
	r.SetAttribute("data-steps", strconv.Itoa(s.Steps()))
	r.SetAttribute("data-train-loss", strconv.FormatFloat(last.Train.Loss, 'g', -1, 64))
	r.SetAttribute("data-test-loss", strconv.FormatFloat(last.Test.Loss, 'g', -1, 64))
	r.SetAttribute("data-accuracy", strconv.FormatFloat(last.Train.Accuracy, 'g', -1, 64))
	r.SetAttribute("data-test-accuracy", strconv.FormatFloat(last.Test.Accuracy, 'g', -1, 64))
	r.SetAttribute("data-examples", strconv.Itoa(tr.Len()+te.Len()))
	v.ctl.legend(s.Classification())
}

// blank clears the figures, the charts, the counts and the test images
// while there is no session (the model does not train on the data): what
// they showed was of another model or dataset.
func (v *trainView) blank() {
	r, c := v.root, v.ctl
	r.SetAttribute("data-steps", "0")
	for _, a := range []string{"data-train-loss", "data-test-loss", "data-accuracy", "data-test-accuracy", "data-examples"} {
		r.RemoveAttribute(a)
	}
	for _, e := range []dom.Elem{c.steps, c.trainLoss, c.testLoss, c.acc, c.rate} {
		e.SetTextContent("—")
	}
	c.counts.SetTextContent("")
	v.loss.draw(nil)
	v.img.blank()
}

// figure formats a loss for the readout.
func figure(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}

// useCNN makes the default CNN, with its training settings, the model for
// the chosen image dataset.
func (v *trainView) useCNN() {
	name := v.st.Training().Dataset
	shape, classes, err := app.DataShape(name)
	if err != nil || !app.ImageData(name) {
		v.message("Choose an image dataset (digits or shapes) first.")
		return
	}
	if v.running {
		v.play()
	}
	v.pv.edit(app.DefaultCNN(shape, classes))
	v.setTraining(func(t *state.TrainingSettings) { t.Optimizer, t.Batch = app.CNNOptimizer(), app.CNNBatch })
	v.ctl.write()
	v.reset(false)
}
