//go:build js && wasm

// Package training is the page's training view, TensorFlow Playground's
// picture for the model being edited: play, pause, one batch, reset; the
// decision boundary (or fitted curve) with the data; the loss chart and
// the figures; the data controls, the user's points and CSV data.
package training

import (
	"fmt"
	"math"
	"strconv"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/trainer"
	"tapelab/wasm/ui"
)

// View is the training view. It trains the state's model in a session of
// its own, and tells the state the weights it reached.
type View struct {
	u    *dom.Document
	deps Deps
	root dom.Elem
	ctl  controls
	plot *ui.Plot
	loss *ui.Chart
	surf *ui.Surface // the loss over a two-parameter model's plane
	img  *imagePanel // the picture for image data

	st     *state.State // the training settings, the user's points, the weights trained
	sess   *trainer.Session
	others []*trainer.Session // the runs compared beside sess (Training().Compare), in step with it
	doc    app.Doc            // the model the session trains

	running     bool
	rate        float64 // steps per second, smoothed
	lastDraw    float64
	live        bool    // the state reads the weights from the session
	lastTrained float64 // when the state was last told the weights moved (ms)

	switchedFrom *switchedFrom // what the last dataset change replaced to fit the data (nil: nothing)
}

// trainedEvery is how often, in ms, a running training tells the state
// that its weights moved (the link follows at most every second).
const trainedEvery = 500

// New builds the training view, hidden, its controls holding the state's
// training settings and its regions registered with the classroom (see
// Deps.Own). It draws when it is first told a change of the view.
func New(deps Deps) *View {
	u := deps.Doc
	v := &View{u: u, deps: deps, st: deps.State}
	v.root = u.Build(markup)
	v.plot = ui.NewPlot(u, 360, deps.Scale)
	v.loss = ui.NewLossChart(u, 300, 110)
	v.surf = ui.NewSurface(u, 300)
	v.img = newImagePanel(u)
	v.ctl = newControls(v)
	v.ctl.write()
	return v
}

// Root is the view's element, for the page to place.
func (v *View) Root() dom.Elem { return v.root }

// Changed follows the state, told each change once the view is built: a
// link's settings and weights, and the view on screen (shown, it trains
// from the state's weights when it has no session; hidden, it pauses).
func (v *View) Changed(c state.Change, _ *autograd.Event) {
	if c.Has(state.Opened) { // train the link's model, from its weights
		if v.running {
			v.play() // pause
		}
		v.sess = nil
		v.switchedFrom = nil // a switch of the page before is not the link's to undo
		v.hideSwitched()
		v.ctl.write()
	}
	if c.Has(state.View) {
		v.shown()
	}
}

// shown shows the view when it is on screen (starting a session from the
// weights of the state when there is none), and pauses training when not.
func (v *View) shown() {
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
func (v *View) setTraining(change func(*state.TrainingSettings)) {
	t := v.st.Training()
	change(&t)
	v.st.SetTraining(t)
}

// classes is the number of classes of the current data (0 for regression).
func (v *View) classes() int {
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
func (v *View) reset(keep bool) {
	var params map[string]*tensor.Tensor
	doc := v.st.Model().Doc()
	if d, w := v.st.Trained(); keep && v.sess != nil && doc.Equal(v.doc) {
		params = v.sess.Params()
	} else if keep && w != nil && doc.Equal(d) {
		params = w
	}
	v.build(params)
}

// build starts a session with the given weights (nil: seeded).
func (v *View) build(params map[string]*tensor.Tensor) {
	v.doc = v.st.Model().Doc()
	v.sess, v.others = nil, nil
	v.live = false
	v.img.blank() // of the last session: the new one is drawn anew, from its step 0
	v.st.SetTrained(v.doc, nil)
	if len(params) > 0 {
		v.st.SetTrained(v.doc, func() map[string]*tensor.Tensor { return params })
	}
	if err := v.st.Model().Err(); err != nil {
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
	if cmp := v.st.Training().Compare; len(cmp) > 0 {
		others, err := trainer.NewRuns(m, cmp, data, v.st.DataFile(m.Dataset.Name))
		if err != nil {
			v.message("Cannot compare optimizers: " + err.Error())
		}
		v.others = others
	}
	v.sess = s
	v.message("")
	v.render()
}

// message shows msg (or clears it) in the view's alert line.
func (v *View) message(msg string) {
	v.ctl.msg.SetTextContent(msg)
	v.ctl.msg.Show(msg != "")
	v.ctl.nanBtn.Show(false)
}

// render draws the picture, the chart and the figures.
func (v *View) render() {
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
	draw := func() error { return v.plot.Draw(s) }
	if images {
		draw = func() error { return v.img.draw(s, v.running) }
	}
	if err := draw(); err != nil {
		v.message(err.Error())
	}
	if len(v.others) == 0 {
		v.loss.Draw(s.History())
	}
	v.showRuns()
	v.showSurface()
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
func (v *View) blank() {
	r, c := v.root, v.ctl
	r.SetAttribute("data-steps", "0")
	for _, a := range []string{"data-train-loss", "data-test-loss", "data-accuracy", "data-test-accuracy", "data-examples"} {
		r.RemoveAttribute(a)
	}
	for _, e := range []dom.Elem{c.steps, c.trainLoss, c.testLoss, c.acc, c.rate} {
		e.SetTextContent("—")
	}
	c.counts.SetTextContent("")
	v.loss.Draw(nil)
	v.showRuns()
	c.surfBox.Show(false)
	v.img.blank()
}

// figure formats a loss for the readout.
func figure(v float64) string {
	if math.IsNaN(v) {
		return "—"
	}
	return strconv.FormatFloat(v, 'f', 4, 64)
}
