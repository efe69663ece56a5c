//go:build js && wasm

package training

import (
	"slices"
	"strconv"

	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/trainer"
)

// SetDataset switches to the named dataset: a generated set, a data file's
// (fetched first when it is not loaded yet), or the user's points
// (state.PointsDataset). A model that does not fit the data is switched
// to the dataset's default model, said beside the data menu and in the
// stepping view's notice (Deps.Note), with an Undo (UndoSwitch).
func (v *View) SetDataset(name string) {
	if v.running {
		v.play()
	}
	if name == state.PointsDataset {
		if v.st.Points() == nil {
			v.ctl.dataset.SetValue(v.st.Training().Dataset)
			v.message("You have no points yet: click on the picture, or paste a CSV below.")
			return
		}
		v.setTraining(func(t *state.TrainingSettings) { t.Dataset = state.PointsDataset })
		v.reset(false)
		return
	}
	if v.deps.Missing(name) {
		v.loadFile(name)
		return
	}
	before, doc := v.st.Training(), v.st.Model().Doc()
	v.setTraining(func(t *state.TrainingSettings) {
		if t.Data.Name != name {
			t.Data.N = train.DefaultData(name).N
		}
		t.Dataset, t.Data.Name = name, name
	})
	fit, switched, err := app.FitData(doc, v.st.Training().Data)
	if err != nil {
		v.message(err.Error())
		return
	}
	v.deps.SetDataset(name)
	if !fit.Equal(doc) {
		v.deps.Edit(fit)
	}
	v.switchedFrom = nil
	if switched {
		v.switchedFrom = &switchedFrom{training: before, doc: doc, fit: fit}
		if app.ImageData(name) { // the default CNN trains with its own settings (see useCNN)
			v.setTraining(func(t *state.TrainingSettings) { t.Optimizer, t.Batch = app.CNNOptimizer(), app.CNNBatch })
			v.ctl.write()
		}
	}
	v.ctl.sayFit(name, fit, switched)
	v.reset(false)
}

// loadFile fetches the named dataset's data file, then switches to it; the
// menu keeps the current dataset until then.
func (v *View) loadFile(name string) {
	v.ctl.dataset.SetValue(v.st.Training().Dataset)
	v.message("Loading " + name + " from " + train.DataFile(name) + " …")
	v.deps.Fetch(name, func(err error) {
		if err != nil {
			v.message(err.Error())
			return
		}
		v.ctl.dataset.SetValue(name)
		v.SetDataset(name)
	})
}

// addPoint adds an example at input position (x, y) with the chosen
// class (or target). The first point copies the generated data, so that
// clicking adds to what is on screen.
func (v *View) addPoint(x, y float64) {
	if v.sess == nil || v.sess.Model().Seq.Input().Size() != 2 {
		v.message("Points can be added on 2-D data only.")
		return
	}
	target, _ := strconv.ParseFloat(v.ctl.target.Value(), 64)
	if v.classes() > 0 {
		target, _ = strconv.ParseFloat(v.ctl.class.Value(), 64)
	}
	p := &link.Points{}
	if old := v.st.Points(); v.st.Training().Dataset == state.PointsDataset && old != nil {
		p.X, p.Y = slices.Clone(old.X), slices.Clone(old.Y)
	} else {
		tr, te := v.sess.Sets()
		for _, d := range []*train.Dataset{tr, te} {
			for i := 0; i < d.Len(); i++ {
				p.X = append(p.X, []float64{d.X.Data[2*i], d.X.Data[2*i+1]})
				p.Y = append(p.Y, d.Y.Data[i])
			}
		}
		v.st.SetPoints(p)
		v.setTraining(func(t *state.TrainingSettings) { t.Dataset = state.PointsDataset })
		v.ctl.dataset.SetValue(state.PointsDataset)
	}
	if len(p.X) >= trainer.MaxUserPoints {
		v.message("That is the most points the playground holds; clear some first.")
		return
	}
	p.X = append(p.X, []float64{x, y})
	p.Y = append(p.Y, target)
	v.st.SetPoints(p)
	v.reset(true)
}

// clearPoints forgets the user's points and goes back to generated data.
func (v *View) clearPoints() {
	v.st.SetPoints(nil)
	if t := v.st.Training(); t.Dataset == state.PointsDataset {
		name := t.Data.Name
		if name == "" {
			name = link.DefaultDataset
		}
		v.SetDataset(name)
	}
}

// useCSV trains on pasted CSV text; errors name the row and column.
func (v *View) useCSV(text string) {
	c := v.ctl
	feats := v.st.Model().Doc().Input.Size()
	x, y, err := trainer.ReadCSV(text, feats, v.classes())
	if err != nil {
		c.csvError.SetTextContent("CSV: " + err.Error())
		c.csvError.Show(true)
		return
	}
	c.csvError.Show(false)
	if v.running {
		v.play()
	}
	v.st.SetPoints(&link.Points{X: x, Y: y})
	v.setTraining(func(t *state.TrainingSettings) { t.Dataset = state.PointsDataset })
	c.dataset.SetValue(state.PointsDataset)
	v.reset(false)
}

// readFile reads an uploaded CSV file into the text box and uses it.
func (v *View) readFile(input dom.Elem) {
	tooLarge := dom.ReadFile(v.u, input, 1<<20, func(text string) {
		v.ctl.csvText.SetValue(text)
		v.useCSV(text)
	})
	if tooLarge {
		v.ctl.csvError.SetTextContent("CSV: the file is larger than 1 MiB")
		v.ctl.csvError.Show(true)
	}
}
