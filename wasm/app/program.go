package app

import (
	"errors"
	"math"
	"slices"
	"strconv"

	"tapelab/engine/budget"
	"tapelab/engine/graph"
	"tapelab/engine/op"
	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// RoleOutput is the role of a program's output node.
const RoleOutput = "output"

// ProgramPlayground is the state behind the page's Program mode: the
// program's text with its history, the parsed program and, recorded from
// it, the same Recording and Stepper the model path steps, so that every
// view of the tape serves both. When an edit breaks the program, Err says
// where (a *program.Error with line and column) and the last program that
// ran stays recorded.
type ProgramPlayground struct {
	hist  *History[string]
	modes Modes
	err   error

	prog *program.Program // the program of the recorded tape
	rec  *Recording
	step *Stepper
}

// NewProgramPlayground returns a program playground for src, recorded in
// eager, dense mode. An error means src does not parse or run; the
// playground is still usable (edit the text to fix it).
func NewProgramPlayground(src string) (*ProgramPlayground, error) {
	p := &ProgramPlayground{hist: NewHistory(src, 200)}
	return p, p.rebuild()
}

// Text returns the program's text as it stands.
func (p *ProgramPlayground) Text() string { return p.hist.Current() }

// Err reports why the current text does not run, or nil.
func (p *ProgramPlayground) Err() error { return p.err }

// Program returns the program of the recorded tape (nil before any ran).
func (p *ProgramPlayground) Program() *program.Program { return p.prog }

// Modes reports the current modes (Compiled and Single; a program has no
// layers to put in eval mode and no weights to penalise).
func (p *ProgramPlayground) Modes() Modes { return p.modes }

// Recording returns the recorded program (nil before any ran).
func (p *ProgramPlayground) Recording() *Recording { return p.rec }

// Stepper returns the stepper of the recorded program (nil before any ran).
func (p *ProgramPlayground) Stepper() *Stepper { return p.step }

// Edit records src as an edit and records it again when it runs; the error
// is the program's *program.Error (the edit is kept, to be fixed or undone).
// Text equal to the current one is not an edit.
func (p *ProgramPlayground) Edit(src string) error {
	if src == p.hist.Current() {
		return p.err
	}
	p.hist.Push(src)
	return p.rebuild()
}

// Open replaces the text (a link, an example of the gallery) as one edit
// and sets the modes.
func (p *ProgramPlayground) Open(src string, m Modes) error {
	p.modes = programModes(m)
	if src != p.hist.Current() {
		p.hist.Push(src)
	}
	return p.rebuild()
}

// Undo takes back the last edit.
func (p *ProgramPlayground) Undo() (bool, error) {
	if !p.hist.Undo() {
		return false, nil
	}
	return true, p.rebuild()
}

// Redo repeats the last undone edit.
func (p *ProgramPlayground) Redo() (bool, error) {
	if !p.hist.Redo() {
		return false, nil
	}
	return true, p.rebuild()
}

// CanUndo reports whether there is an edit to undo.
func (p *ProgramPlayground) CanUndo() bool { return p.hist.CanUndo() }

// CanRedo reports whether there is an edit to redo.
func (p *ProgramPlayground) CanRedo() bool { return p.hist.CanRedo() }

// SetModes switches eager/compiled and dense/single-output and records
// again; the model-only modes (eval, L2) are ignored.
func (p *ProgramPlayground) SetModes(m Modes) error {
	p.modes = programModes(m)
	return p.rebuild()
}

func programModes(m Modes) Modes { return Modes{Compiled: m.Compiled, Single: m.Single} }

// rebuild parses the text and, when it runs, records a fresh tape.
func (p *ProgramPlayground) rebuild() error {
	pr, err := program.Parse(p.hist.Current())
	if err == nil {
		err = withinBudget(pr)
	}
	if err == nil {
		var rec *Recording
		if rec, err = RecordProgram(pr, p.modes); err == nil {
			var step *Stepper
			if step, err = programStepper(pr, rec); err == nil {
				if p.step != nil {
					p.step.Close()
				}
				p.prog, p.rec, p.step = pr, rec, step
			}
		}
	}
	p.err = err
	return err
}

// withinBudget returns nil when pr's forward and backward pass are within
// engine/budget's limits, and otherwise a *program.Error at the op that
// costs the most ("line 4, col 5: conv2d at line 4: 2.1e11 multiply-adds,
// the limit is 1e9 (207× over)"), which the editor marks.
func withinBudget(pr *program.Program) error {
	err := budget.CheckProgram(pr)
	var be *budget.Error
	if errors.As(err, &be) && be.Node >= 0 && be.Node < pr.Len() {
		return &program.Error{Pos: pr.Pos(be.Node), Msg: be.Error()}
	}
	return err
}

// RecordProgram records pr on a tape: eagerly on an autograd.Session, or
// compiled (graph.Builder → CompileChecked) with its SSA graph. The
// output is the recording's Loss (and Data, Pred and Metric: a program has
// no metric beside it); ParamNodes lists the param leaves.
func RecordProgram(pr *program.Program, modes Modes) (*Recording, error) {
	r := &Recording{Modes: programModes(modes)}
	if modes.Compiled {
		g, err := pr.Graph()
		if err != nil {
			return nil, err
		}
		c, err := pr.Compile()
		if err != nil {
			return nil, err
		}
		r.Graph, r.Compiled, r.Tape = g, c, c.Tape()
		r.recompile = pr.Compile // the single-output cursor steps a Compiled of its own
	} else {
		s, err := pr.Eager()
		if err != nil {
			return nil, err
		}
		r.Tape = s.Tape()
	}
	out := pr.Output()
	r.Loss, r.Data, r.Pred, r.Metric = out, out, out, out
	for i, l := range pr.Leaves() {
		if l.Param {
			r.ParamNodes = append(r.ParamNodes, i)
		}
	}
	return r, nil
}

// programStepper returns the stepper of rec (dense, or single-output when
// its modes say so) with the program's variable names as node titles.
func programStepper(pr *program.Program, rec *Recording) (*Stepper, error) {
	var s *Stepper
	var err error
	if rec.Modes.Single {
		var c *graph.Compiled
		if c, err = rec.Compile(); err != nil {
			return nil, err
		}
		s, err = NewStepper(c, rec.Loss)
	} else {
		s, err = NewDenseStepper(rec.Tape, rec.Loss)
	}
	if err != nil {
		return nil, err
	}
	NameNodes(s.nodes, pr)
	return s, nil
}

// NameNodes titles the nodes of a program's tape with its variables: a
// leaf or constant by its name, an op assigned to a variable as "name =
// op", the nodes an expression makes on the way by their op alone. The
// output gets RoleOutput; a node a grad recorded, its Origin (From).
func NameNodes(nodes []NodeInfo, pr *program.Program) {
	for i, name := range pr.Names() {
		if i >= len(nodes) {
			break
		}
		n := &nodes[i]
		n.From = pr.Origin(i)
		switch {
		case name == "" && n.Op == nil:
			n.Label = "const"
		case name == "":
		case n.Op == nil:
			n.Label = name
		default:
			n.Label = name + " = " + n.Op.Name
		}
	}
	if out := pr.Output(); out < len(nodes) {
		nodes[out].Role = RoleOutput
	}
}

// Passes compares the dense and single-output passes of the recorded
// program.
func (p *ProgramPlayground) Passes() (Passes, error) {
	if p.rec == nil {
		return Passes{}, errors.New("no program recorded")
	}
	return ComparePasses(p.rec)
}

// IRListing lists the compiled program's IR (nil in eager mode); the
// params' values are their literals.
func (p *ProgramPlayground) IRListing() ([]IRLine, error) {
	if p.rec == nil {
		return nil, nil
	}
	params := map[string]*tensor.Tensor{}
	for _, l := range p.prog.Leaves() {
		if l.Param {
			params[l.Name] = l.Value
		}
	}
	return IRListing(p.rec, params)
}

// OutputNote says how backward is seeded: a scalar output with 1, any other
// with ones (the gradients are then those of the sum of its entries).
func (p *ProgramPlayground) OutputNote() string {
	if p.prog == nil {
		return ""
	}
	name, _ := p.prog.OutputVar()
	shape := p.prog.Shape(p.prog.Output())
	if !p.prog.OnesSeed() {
		return "The output " + name + " is a scalar: backward starts from d" + name + "/d" + name + " = 1."
	}
	return "The output " + name + " is not a scalar (" + shape.String() + "): backward is seeded with ones, so every gradient is that of the sum of " + name + "'s entries."
}

// LeafNames lists the program's leaves (node ids 0, 1, …) by name.
func (p *ProgramPlayground) LeafNames() []string {
	if p.prog == nil {
		return nil
	}
	var out []string
	for _, l := range p.prog.Leaves() {
		out = append(out, l.Name)
	}
	return out
}

// Recorded reports whether the tape on screen is the current text's: false
// while an edit does not run and the last working program is shown.
func (p *ProgramPlayground) Recorded() bool { return p.err == nil && p.prog != nil }

// Recorded says where a node that a grad recorded comes from (o is its
// Origin, o.Grad > 0): in words, which derivative and which rule made it;
// the forward node whose VJP rule it is (−1 for the seed, an
// accumulation and zeros); and that rule's text in the catalogue.
func Recorded(o program.Origin) (words string, node int, rule string) {
	lead := "grad " + strconv.Itoa(o.Grad) + ", " + o.Of + ": "
	switch o.Rule {
	case "seed":
		return lead + "the seed, the 1 its backward pass starts from", -1, ""
	case "accumulate":
		return lead + "the sum of two contributions to one gradient", -1, ""
	case "zero":
		return lead + "zeros: the gradient does not reach here", -1, ""
	}
	if f, ok := op.Lookup(o.Rule); ok {
		rule = f.Rule
	}
	return lead + "the VJP rule of " + o.Rule + ", backward from", o.Node, rule
}

// Params returns the weights of the program's param leaves as the
// stepper's update phase started (Stepper.PhaseWeights), by name and
// row-major, when the update phases moved them off the literals the text
// writes; nil while they are the text's (a link carries them: SetParams).
func (p *ProgramPlayground) Params() map[string][]float64 {
	if p.prog == nil {
		return nil
	}
	var out map[string][]float64
	moved := false
	for i, l := range p.prog.Leaves() {
		if !l.Param {
			continue
		}
		w := p.step.PhaseWeights(i)
		for k, v := range w {
			moved = moved || math.Float64bits(v) != math.Float64bits(l.Value.Data[k])
		}
		if out == nil {
			out = map[string][]float64{}
		}
		out[l.Name] = slices.Clone(w)
	}
	if !moved {
		return nil
	}
	return out
}

// SetParams writes w, a link's weights (Params), into the recorded tape's
// param leaves in place of the text's literals, as the update phase writes
// its steps, and starts the stepper again: it then steps the program with
// them. A param w lacks keeps its weights; a name that is not a param, or
// a row that does not fit its param, is an error, and nothing changes.
func (p *ProgramPlayground) SetParams(w map[string][]float64) error {
	if p.prog == nil {
		return errors.New("no program recorded")
	}
	leaves, n := p.prog.Leaves(), 0
	for _, l := range leaves {
		if row, ok := w[l.Name]; ok {
			if !l.Param || len(row) != len(l.Value.Data) {
				return errors.New("params: " + l.Name + " is not a param of " + strconv.Itoa(len(row)) + " numbers")
			}
			n++
		}
	}
	if n != len(w) {
		return errors.New("params: a name that is not the program's")
	}
	for i, l := range leaves {
		if row, ok := w[l.Name]; ok {
			copy(p.rec.Tape.Node(i).Value.Data, row)
		}
	}
	p.step.Reset()
	return nil
}
