//go:build js && wasm

// Package stepview is the step view: everything around the tape while a
// person steps it. The model editor (or, in Program mode, the program's
// text, its examples and forward mode), the inspector with its chain-rule
// card, tensors, image cards, drawing pad and parameter gradients, the
// stepper's bar, the compiled step's listing and IR pipeline, and the
// explain panel. The hub builds it with New, puts its regions in place,
// and tells it every change of the page's state; what it needs of the
// tape, the shell or the page arrives through its Deps.
package stepview

import (
	"tapelab/engine/autograd"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/state"
)

// Deps is what the step view needs from the page around it.
type Deps struct {
	// Doc is the page's document, which the views are made in.
	Doc *dom.Document
	// State is the page's state: the views read it and change it through
	// its methods; each change comes back through the hub (View.Changed).
	State *state.State
	// Scale is the value scale, in the palette's colours, that tensors
	// are coloured on.
	Scale *app.Scale
	// Example is the batch example the images show, shared with the
	// tape's image strips, which read it through the same pointer: the
	// step view sets it (the example chosen, a drawing's).
	Example *int
	// Pace lets the browser run its tasks when start-up has run long:
	// New calls it between its views.
	Pace func()
	// ShowError shows msg in the page's error box.
	ShowError func(msg string)
	// Own registers e as a region that the classroom control governs
	// (it hides and locks it) and returns e.
	Own func(control string, e dom.Elem) dom.Elem
	// Move takes one step of the stepper, timing the redraw that follows,
	// and reports whether there was one (State.Move).
	Move func(step func(*app.Stepper) (autograd.Event, bool)) bool
	// Redraw redraws the whole stepper's state, the tape's nodes and the
	// step view's parts alike, as after a jump: forward mode's tangents or
	// the example shown changed.
	Redraw func()
	// Mark sets or clears a class of the playground's root (program-mode,
	// forward-on), which the stylesheet reads.
	Mark func(class string, on bool)
	// Tabs returns the toggles of the panels (the editor and the
	// inspector), which the stepper's bar holds.
	Tabs func() dom.Elem
	// Shortcuts shows or hides the keyboard shortcuts' dialog.
	Shortcuts func()
	// BottomBar is the bar under the tape (the stepper's bar and the
	// tape's list), above which the explain panel ends.
	BottomBar func() dom.Elem
	// DrawerMoved says that the explain panel, as a drawer, changed
	// height: the tape fits itself again to what it leaves when it is
	// fitted beside the drawer.
	DrawerMoved func()
}

// View is the step view.
type View struct {
	d       Deps
	doc     *dom.Document
	st      *state.State
	editor  *editorView
	insp    *inspectorView
	stepper *stepperView
	listing *listingView
	prog    *programView // Program mode: the program editor, gallery and forward mode
	hygiene *hygieneView // zero gradients before backward, and .grad across passes
	img     *imageView   // image models: the selected example, saliency, window card, drawing
	ex      *explainPanel
	// held is set while start-up draws the page's first step: the
	// editor's cards and the inspector are drawn in the task after it
	// (see HoldColumns and DrawColumns).
	held bool
	// optSync shows the training settings' optimizer in the update
	// phase's control.
	optSync func(state.TrainingSettings)
}

// New builds the step view's regions, drawing nothing: the hub draws the
// step once it opens the page's link.
func New(d Deps) *View {
	v := &View{d: d, doc: d.Doc, st: d.State}
	v.editor = newEditorView(v)
	d.Pace()
	v.insp = newInspectorView(v)
	d.Pace()
	v.stepper = newStepperView(v)
	v.listing = newListingView(v)
	d.Pace()
	v.prog = newProgramView(v)
	d.Pace()
	v.hygiene = newHygieneView(v)
	v.insp.root.AppendChild(v.hygiene.root)
	v.img = newImageView(v)
	v.ex = newExplainPanel(v)
	return v
}

// Editor is the model editor's region.
func (v *View) Editor() dom.Elem { return v.editor.root }

// Program is Program mode's region (hidden in Model mode).
func (v *View) Program() dom.Elem { return v.prog.root }

// Inspector is the inspector's region.
func (v *View) Inspector() dom.Elem { return v.insp.root }

// Listing is the compiled step's listing (hidden in eager mode).
func (v *View) Listing() dom.Elem { return v.listing.root }

// Stepper is the bar of step controls and counters.
func (v *View) Stepper() dom.Elem { return v.stepper.root }

// Explain is the explain panel (hidden until the classroom shows it).
func (v *View) Explain() dom.Elem { return v.ex.root }

// ModeSwitch is the Model/Program switch, for the top bar.
func (v *View) ModeSwitch() dom.Elem { return v.prog.modeSwitch() }

func (v *View) model() *app.Playground { return v.st.Model() }

// src is the source on screen: the program in Program mode, else the model.
func (v *View) src() state.Source { return v.st.Source() }

// inspect pins node i in the inspector until the next step.
func (v *View) inspect(i int) { v.st.Select(i) }

// edit applies a model edit (its error is shown on the layer at fault).
func (v *View) edit(d app.Doc) { _ = v.st.Edit(d) }

func (v *View) undo() { v.st.Undo() }

func (v *View) redo() { v.st.Redo() }
