package lesson

import (
	"fmt"

	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// BatchSize is the stepping view's mini-batch when a state carries none:
// the first BatchSize examples of the model's dataset, as the page takes
// them.
const BatchSize = 4

// Open records the step a stop's state shows and returns its stepper,
// standing at the state's position: for a model, one training step of the
// model (with the state's weights, on its batch or the first BatchSize
// examples of its dataset, in its modes), as the page records it; for a
// program, the program on its leaves (eager, or compiled with
// Modes.Compiled), differentiated by the single-output pass with
// Modes.Single and by the dense pass otherwise. A position the tape never
// reaches is a *link.Error naming it.
func Open(st *link.State) (*app.Stepper, error) {
	var s *app.Stepper
	var err error
	if st.Program != "" {
		s, err = openProgram(st)
	} else {
		s, err = openModel(st)
	}
	if err != nil {
		return nil, err
	}
	if err := link.Seek(s, st.Pos); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func openProgram(st *link.State) (*app.Stepper, error) {
	p, err := app.NewProgramPlayground(st.Program)
	if err != nil {
		return nil, err
	}
	if err := p.Open(st.Program, st.Modes); err != nil {
		return nil, err
	}
	return p.Stepper(), nil
}

func openModel(st *link.State) (*app.Stepper, error) {
	m := st.Model
	doc := app.Doc{Input: m.Input, Layers: m.Layers, Loss: m.Loss, Seed: m.Seed}
	b, err := batch(st, m)
	if err != nil {
		return nil, err
	}
	pg := app.Unrecorded(doc)
	if err := pg.Open(doc, st.Modes, m.Params, b); err != nil {
		return nil, err
	}
	return pg.Stepper(), nil
}

// batch is the mini-batch the stepping view records: the state's own, or
// the first BatchSize examples of the model's dataset.
func batch(st *link.State, m *spec.Model) (app.Batch, error) {
	if p := st.Batch; p != nil {
		y := make([][]float64, len(p.Y))
		for i, v := range p.Y {
			y[i] = []float64{v}
		}
		return app.MiniBatch(tensor.Matrix(p.X), tensor.Matrix(y), len(p.X), m.Loss)
	}
	name := m.Dataset.Name
	if name == "" {
		name = link.DefaultDataset
	}
	tr, _, err := train.Generate(train.DefaultData(name))
	if err != nil {
		return app.Batch{}, err
	}
	return app.MiniBatch(tr.X, tr.Y, BatchSize, m.Loss)
}

// Answer steps s on from where it stands until the number q asks for is
// computed (the node's value is known, or its gradient is final) and
// returns it. A node the tape does not have, an element its value does
// not have, and a number the passes never compute are *Errors of path
// "question.node" or "question.element".
func Answer(s *app.Stepper, q *Question) (float64, error) {
	n := len(s.Nodes())
	if q.Node >= n {
		return 0, &Error{Path: "question.node", Msg: fmt.Sprintf("the tape has nodes 0 to %d, not %d", n-1, q.Node)}
	}
	want := app.Known
	if q.Of == OfGrad {
		want = app.Final
	}
	for !s.State(q.Node).Has(want) {
		if _, ok := s.Step(); !ok {
			if err := s.Err(); err != nil {
				return 0, &Error{Path: "question", Err: err}
			}
			return 0, &Error{Path: "question.node", Msg: fmt.Sprintf("the stepper never computes node %d's %s", q.Node, q.Of)}
		}
	}
	v := s.Value(q.Node)
	if q.Of == OfGrad {
		v = s.Grad(q.Node)
	}
	if q.Element >= len(v.Data) {
		return 0, &Error{Path: "question.element", Msg: fmt.Sprintf("node %d's %s has %d elements (shape %v), so no element %d", q.Node, q.Of, len(v.Data), v.Shape, q.Element)}
	}
	return v.Data[q.Element], nil
}

// hidden checks that the number q asks for is not complete yet at the
// stepper's position (a value not yet known, a gradient not yet final): a
// prediction must come before the step that completes it.
func hidden(s *app.Stepper, q *Question) error {
	if q.Node >= len(s.Nodes()) {
		return nil // Answer names it
	}
	st := s.State(q.Node)
	if q.Of == OfValue && st.Has(app.Known) || q.Of == OfGrad && st.Has(app.Final) {
		return &Error{Path: "question.node", Msg: fmt.Sprintf("node %d's %s is already complete at this stop's position; ask before the step that completes it", q.Node, q.Of)}
	}
	return nil
}

// Check opens every stop of l, looks for its selected node and computes
// its question's answer (which must not be complete yet at the stop's
// position), so that a lesson whose positions, selections or questions do
// not fit its states is
// refused with an *Error naming the stop and field (Decode checks the
// document alone, without running anything).
func Check(l *Lesson) error {
	for i, stop := range l.Stops {
		s, err := Open(stop.State)
		if err != nil {
			return stateError(i, err)
		}
		if n := len(s.Nodes()); stop.Select != nil && *stop.Select >= n {
			err = &Error{Path: "select", Msg: fmt.Sprintf("the tape has nodes 0 to %d, not %d", n-1, *stop.Select)}
		}
		if q := stop.Question; q != nil && err == nil {
			err = hidden(s, q)
			if err == nil {
				_, err = Answer(s, q)
			}
		}
		s.Close()
		if e, ok := err.(*Error); ok {
			return &Error{Path: stopPath(i, e.Path), Msg: e.Msg, Err: e.Err}
		}
	}
	return nil
}
