//go:build js && wasm

package training

import (
	"tapelab/wasm/app"
	"tapelab/wasm/state"
)

// switchedFrom is what a dataset change replaced when the model did not
// fit the new data: the training settings and the model before, and the
// model that fits.
type switchedFrom struct {
	training state.TrainingSettings
	doc, fit app.Doc
}

// UndoSwitch takes back the dataset change that switched the model to fit
// the data (see SetDataset): the data and the model there were come back.
// It does nothing when there is no such switch to take back.
func (v *View) UndoSwitch() {
	sw := v.switchedFrom
	v.switchedFrom = nil
	v.hideSwitched()
	if sw == nil {
		return
	}
	if v.running {
		v.play()
	}
	v.st.SetTraining(sw.training)
	if v.st.Model().Doc().Equal(sw.fit) {
		v.st.Undo() // the switch was the last edit: the history goes back past it
	}
	if !v.st.Model().Doc().Equal(sw.doc) { // edited since: the model there was, as an edit
		v.deps.Edit(sw.doc)
	}
	v.deps.SetDataset(sw.training.Data.Name)
	v.ctl.write()
	v.reset(false)
}

// sayFit shows, beside the data menu, that choosing the dataset name
// switched the model to fit (the model fit, switched set), with an Undo;
// or hides the notice.
func (c *controls) sayFit(name string, fit app.Doc, switched bool) {
	if !switched {
		c.v.hideSwitched()
		return
	}
	what := "the default model (" + app.LayerPath(fit) + ")"
	if app.ImageData(name) {
		what = "the default CNN, which reads images"
	}
	said := "The model you had does not fit " + name + ", so it is now " + what + "."
	c.switchedText.SetTextContent(said)
	c.v.deps.Note(said)
	c.switched.Show(true)
}

// hideSwitched hides the notices of a model switched to fit the data, in
// both views.
func (v *View) hideSwitched() {
	v.ctl.switched.Show(false)
	v.deps.Note("")
}
