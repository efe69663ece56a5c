//go:build js && wasm

package training

import (
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/state"
)

// Deps is what the training view needs of the page around it.
type Deps struct {
	// Doc makes the view's elements and reports its faults.
	Doc *dom.Document
	// State is the page's state: the model, the training settings, the
	// user's points and the weights trained. The view reads and changes
	// it; it does not follow it (the page calls Changed).
	State *state.State
	// Scale is the page's value scale, which colours the decision plot.
	Scale *app.Scale
	// Own registers a region of the view (marked data-control in its
	// markup) as governed by the named classroom control, which hides and
	// locks it; it returns the region.
	Own func(control string, region dom.Elem) dom.Elem
	// Edit makes d the model, as an edit the history can undo; an error
	// is shown on the layer at fault.
	Edit func(d app.Doc)
	// SetDataset switches the page's dataset to name (the stepping view's
	// data and step follow).
	SetDataset func(name string)
	// Missing reports whether the named dataset is read from a data file
	// that is not loaded yet.
	Missing func(name string) bool
	// Fetch loads the named dataset's data file in the background, then
	// calls done with the error or nil.
	Fetch func(name string, done func(error))
	// Note shows said in the stepping view's notice that choosing a
	// dataset switched the model (the same words as the view's own), or
	// hides that notice when said is empty.
	Note func(said string)
}
