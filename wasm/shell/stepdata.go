//go:build js && wasm

package shell

import "tapelab/wasm/dom"

// stepNote is the stepping view's notice that choosing a dataset switched
// the model to one that fits the data, with an Undo: the same switch, and
// the same words, as the training view's notice beside its data menu
// (training.View.SetDataset). It sits above the tape, which the data menu
// (closed once a dataset is chosen) leaves in view.
type stepNote struct {
	root, text dom.Elem
}

// stepNoteMarkup is the notice's skeleton.
const stepNoteMarkup dom.HTML = `
<p id="step-switched" class="step-note" role="status" hidden><span></span>
  <button type="button" id="step-switched-undo" title="Go back to the data and the model you had">Undo</button></p>`

// newStepNote puts the notice above the tape; its Undo is the training
// view's.
func newStepNote(sh *Shell) *stepNote {
	n := &stepNote{root: sh.u.Build(stepNoteMarkup)}
	var undo dom.Elem
	n.root.Find(dom.Parts{{Sel: "span", To: &n.text}, {Sel: "#step-switched-undo", To: &undo}})
	sh.u.OnClick(undo, func() {
		if sh.tv != nil {
			sh.tv.UndoSwitch()
		}
	})
	sh.pv.tape.Notice(n.root)
	sh.pv.bar.choose = sh.chooseData
	return n
}

// chooseData is the stepping view's data menu: the dataset is chosen as
// in the training view (which is built, hidden, when it has not been
// shown yet: it keeps the training settings the data belongs to), so that
// a model that does not fit the data is switched at once to the
// dataset's default model, said above the tape with an Undo, instead of
// a model marked with an error.
func (sh *Shell) chooseData(name string) {
	if sh.tv == nil {
		sh.buildTrainView()
	}
	sh.tv.SetDataset(name)
}

// say shows said in the notice, or hides the notice when said is empty
// (the training view tells it, with its own notice beside its data menu).
func (n *stepNote) say(said string) {
	if said != "" {
		n.text.SetTextContent(said)
	}
	n.root.Show(said != "")
}
