package app

import (
	"errors"
	"tapelab/engine/budget"
	"tapelab/engine/ir"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// Playground is the whole state behind the page: the edited model with its
// history, the mini-batch, the modes, and the recorded step with its
// stepper. When an edit breaks the model, the editor shows why and the last
// working tape stays on screen.
type Playground struct {
	hist   *History[Doc]
	batch  Batch
	modes  Modes
	seed   uint64 // the step's randomness (dropout masks)
	status []LayerStatus
	err    error // why the current document does not build, or nil

	model *nn.Model
	rec   *Recording
	step  *Stepper
	// pipe is the model's IR pipeline in compiled mode (made on demand);
	// opened is the pipeline of an opened IR document, until the next
	// rebuild.
	pipe, opened *ir.Pipeline
}

// New returns a playground for doc on batch, with its step recorded in
// eager, dense, train mode. An error means doc does not build; the
// playground is still usable (edit the model to fix it).
func New(doc Doc, b Batch) (*Playground, error) {
	p := Unrecorded(doc)
	p.batch = b
	return p, p.rebuild()
}

// Unrecorded returns a playground for doc whose step is not recorded yet:
// it has no mini-batch, and Model, Recording and Stepper are nil until
// Open (or an edit, a mode switch, a new batch) records one. A page that
// opens a link records the link's model, not a model it never shows.
func Unrecorded(doc Doc) *Playground {
	return &Playground{hist: NewHistory(doc, 200), seed: 1}
}

// Doc returns the model as it stands.
func (p *Playground) Doc() Doc { return p.hist.Current() }

// Status reports each layer's output shape and error.
func (p *Playground) Status() []LayerStatus { return p.status }

// Err reports why the current model does not build, or nil.
func (p *Playground) Err() error { return p.err }

// Modes reports the current modes.
func (p *Playground) Modes() Modes { return p.modes }

// Model returns the model of the recorded step (nil before any built).
func (p *Playground) Model() *nn.Model { return p.model }

// Batch returns the mini-batch.
func (p *Playground) Batch() Batch { return p.batch }

// Recording returns the recorded step (nil before any model built).
func (p *Playground) Recording() *Recording { return p.rec }

// Stepper returns the stepper of the recorded step (nil before any built).
func (p *Playground) Stepper() *Stepper { return p.step }

// Edit records doc as an edit and rebuilds; the error is the engine's
// reason when doc does not build (the edit is kept, so it can be fixed or
// undone).
func (p *Playground) Edit(doc Doc) error {
	p.hist.Push(doc)
	return p.rebuild()
}

// Undo takes back the last edit.
func (p *Playground) Undo() (bool, error) {
	if !p.hist.Undo() {
		return false, nil
	}
	return true, p.rebuild()
}

// Redo repeats the last undone edit.
func (p *Playground) Redo() (bool, error) {
	if !p.hist.Redo() {
		return false, nil
	}
	return true, p.rebuild()
}

// CanUndo reports whether there is an edit to undo.
func (p *Playground) CanUndo() bool { return p.hist.CanUndo() }

// CanRedo reports whether there is an edit to redo.
func (p *Playground) CanRedo() bool { return p.hist.CanRedo() }

// SetModes switches modes and records the step again.
func (p *Playground) SetModes(m Modes) error {
	p.modes = m
	return p.rebuild()
}

// SetBatch replaces the mini-batch (a new dataset) and records again.
func (p *Playground) SetBatch(b Batch) error {
	p.batch = b
	return p.rebuild()
}

// rebuild checks the document and, when it builds, records a fresh step.
func (p *Playground) rebuild() error { return p.rebuildWith(nil) }

// rebuildWith is rebuild with the parameter values params (state_dict
// names) in place of the seeded ones, recorded once. When one of params
// does not fit the model, the step is recorded with the seeded values and
// that error returned.
func (p *Playground) rebuildWith(params map[string]*tensor.Tensor) error {
	p.pipe, p.opened = nil, nil
	doc := p.hist.Current()
	seq, st, err := doc.Check()
	p.status, p.err = st, err
	if err != nil {
		return err
	}
	if err := p.withinBudget(seq, doc.Loss); err != nil {
		p.err = err
		return err
	}
	m, err := nn.NewModel(seq, doc.Loss, doc.Seed, nn.InitPyTorch)
	if err != nil {
		p.err = err
		return err
	}
	var paramErr error
	for name, v := range params {
		if paramErr = m.SetParam(name, v); paramErr != nil {
			m, _ = nn.NewModel(seq, doc.Loss, doc.Seed, nn.InitPyTorch) // the seeded values, none of params
			break
		}
	}
	rec, err := Record(m, p.batch, p.modes, p.seed)
	if err != nil {
		// the batch does not fit the model's output: blame the last layer
		if n := len(p.status); n > 0 {
			p.status[n-1].Err = err.Error()
		}
		p.err = err
		return err
	}
	step, err := p.stepperFor(rec)
	if err != nil {
		p.err = err
		return err
	}
	if p.step != nil {
		p.step.Close()
	}
	p.model, p.rec, p.step = m, rec, step
	return paramErr
}

// withinBudget returns nil when one step of seq with loss on the batch is
// within engine/budget's limits, before any parameter is made; otherwise
// the error, also shown on the layer that costs the most.
func (p *Playground) withinBudget(seq *nn.Seq, loss nn.Loss) error {
	rows := 1
	if p.batch.X != nil && len(p.batch.X.Shape) > 0 {
		rows = p.batch.X.Shape[0]
	}
	c, err := budget.Model(seq, loss, rows)
	if err == nil {
		err = c.Check(budget.Default())
	}
	var be *budget.Error
	if errors.As(err, &be) {
		for i := range p.status {
			if i < seq.Len() && be.Part == budget.LayerPart(i, seq.Layer(i).Type()) {
				p.status[i].Err = be.Error()
			}
		}
	}
	return err
}

// stepperFor returns the stepper of rec for the current modes: the dense
// all-seeds pass, or the single-output pass when Modes.Single is set. Its
// nodes carry their roles in the step.
func (p *Playground) stepperFor(rec *Recording) (*Stepper, error) {
	var step *Stepper
	if p.modes.Single {
		// a Compiled of the cursor's own: the passes comparison runs
		// BackwardFrom on rec.Compiled
		c, err := rec.Compile()
		if err != nil {
			return nil, err
		}
		if step, err = NewStepper(c, rec.Loss); err != nil {
			return nil, err
		}
	} else {
		var err error
		if step, err = NewDenseStepper(rec.Tape, rec.Loss); err != nil {
			return nil, err
		}
	}
	for i, role := range rec.Roles() {
		step.nodes[i].Role = role
	}
	return step, nil
}

// Passes compares the dense and single-output passes of the recorded step.
func (p *Playground) Passes() (Passes, error) {
	return ComparePasses(p.rec)
}

// GradCheck compares the recorded step's parameter gradients with finite
// differences.
func (p *Playground) GradCheck(yield func()) (GradCheck, error) {
	return CheckGradients(p.model, p.batch, p.modes, p.seed, yield)
}

// IRListing lists the compiled step's IR, or the opened IR document (nil
// in eager mode).
func (p *Playground) IRListing() ([]IRLine, error) {
	if p.rec == nil {
		return nil, nil
	}
	if p.rec.IR != nil {
		return OpenedIRListing(p.rec), nil
	}
	return IRListing(p.rec, p.model.StateDict())
}
