//go:build js && wasm

package training

import (
	"fmt"
	"time"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/state"
	"tapelab/wasm/trainer"
)

// play starts or pauses training.
func (v *View) play() {
	if v.running {
		v.running = false
		v.ctl.playing(false)
		for _, s := range v.runs() {
			if s.Measure() != nil {
				return
			}
		}
		if v.sess != nil {
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
func (v *View) loop() {
	defer func() {
		if r := recover(); r != nil {
			v.running = false
			v.ctl.playing(false)
			v.u.Report(fmt.Sprintf("training: %v", r))
		}
	}()
	chunk := 1
	for v.running {
		if !v.st.Model().Doc().Equal(v.doc) { // edited while training
			v.reset(false)
			if v.sess == nil {
				break
			}
		}
		t0 := dom.Now()
		ran := 0
		for dom.Now()-t0 < 12 {
			n, err := v.run(chunk)
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
func (v *View) stopped(err error) {
	v.running = false
	v.ctl.playing(false)
	v.render()
	v.message("Training stopped: " + err.Error() + ". Lower the learning rate or reset.")
	v.ctl.nanBtn.Show(true)
}

// openNaN opens the step training stopped at on a NaN or ∞ (its
// mini-batch, the weights it stopped with) in the stepping view, stepped
// to the first node whose value or gradient is not finite.
func (v *View) openNaN() {
	if v.sess == nil {
		return
	}
	x, y := v.sess.FaultBatch()
	err := v.st.Inspect(v.doc, v.sess.Params(), app.Batch{X: x, Y: y})
	if err != nil { // the training set is over the stepping view's budget
		x, y = v.sess.Batch()
		err = v.st.Inspect(v.doc, v.sess.Params(), app.Batch{X: x, Y: y})
	}
	if err != nil {
		v.message("Cannot show this step: " + err.Error())
		return
	}
	v.st.Jump((*app.Stepper).ToFault)
}

// stepOnce trains one mini-batch.
func (v *View) stepOnce() {
	if v.running {
		v.play() // pause
	}
	if v.sess == nil || v.sess.Err() != nil {
		v.reset(false)
	}
	if v.sess == nil {
		return
	}
	if _, err := v.run(1); err != nil {
		v.stopped(err)
		return
	}
	for _, s := range v.runs() {
		if err := s.Measure(); err != nil {
			v.stopped(err)
			return
		}
	}
	v.render()
}

// run trains every run n steps, the model's own first, and reports how
// many steps the model's own ran. It stops at the first fault, which it
// returns, naming the compared run it happened in.
func (v *View) run(n int) (int, error) {
	ran, err := v.sess.Run(n)
	if err != nil {
		return ran, err
	}
	for i, s := range v.others {
		if _, err := s.Run(n); err != nil {
			return ran, fmt.Errorf("run %d (%s): %w", i+2, trainer.RunName(s.Spec().Optimizer), err)
		}
	}
	return ran, nil
}

// inspect opens the last mini-batch's tape, with the current weights, in
// the stepping view.
func (v *View) inspect() {
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

// useCNN makes the default CNN, with its training settings, the model for
// the chosen image dataset.
func (v *View) useCNN() {
	name := v.st.Training().Dataset
	shape, classes, err := app.DataShape(name)
	if err != nil || !app.ImageData(name) {
		v.message("Choose an image dataset (digits or shapes) first.")
		return
	}
	if v.running {
		v.play()
	}
	v.deps.Edit(app.DefaultCNN(shape, classes))
	v.setTraining(func(t *state.TrainingSettings) { t.Optimizer, t.Batch = app.CNNOptimizer(), app.CNNBatch })
	v.ctl.write()
	v.reset(false)
}

// Pause pauses training, if it runs (the stepping view is to show the
// weights the training stopped at).
func (v *View) Pause() {
	if v.running {
		v.play()
	}
}
