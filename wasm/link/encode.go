package link

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"tapelab/engine/budget"
	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
	"tapelab/engine/program"
	"tapelab/engine/spec"
	"tapelab/engine/train"
)

// JSON returns the state's canonical envelope, uncompressed: the text a
// link carries. It validates s as Decode would.
func JSON(s *State) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	var e envelope
	if s.Program != "" {
		text := s.Program
		e.Program = &text
		if s.Params != nil {
			p, _ := program.Parse(text) // Validate parsed it
			e.Params = []paramJSON{}
			for _, l := range p.Leaves() {
				if l.Param {
					e.Params = append(e.Params, paramJSON{Name: l.Name, Data: s.Params[l.Name]})
				}
			}
		}
	} else {
		doc, err := spec.Encode(s.Model)
		if err != nil {
			return nil, &Error{Part: "model", Err: err}
		}
		e.Model = doc
	}
	if s.View != ViewStep {
		e.View = s.View
	}
	if !s.Pos.IsStart() {
		e.Pos = &posJSON{Phase: s.Pos.Phase, Node: s.Pos.Node}
	}
	if m := s.Modes; m.Compiled || m.Single || m.Eval || m.L2 != 0 {
		e.Modes = &modesJSON{Compiled: m.Compiled, Single: m.Single, Eval: m.Eval, L2: m.L2}
	}
	if f := s.Flags; len(f.Hide) > 0 || len(f.Lock) > 0 || f.Embed || f.Presenter || f.Explain {
		e.Flags = &flagsJSON{Hide: sorted(f.Hide), Lock: sorted(f.Lock), Embed: f.Embed, Presenter: f.Presenter, Explain: f.Explain}
	}
	if s.Points != nil {
		e.Points = &pointsJSON{X: s.Points.X, Y: s.Points.Y}
	}
	if s.Batch != nil {
		e.Batch = &pointsJSON{X: s.Batch.X, Y: s.Batch.Y}
	}
	e.Drawing = s.Drawing
	e.Accumulate = s.Accumulate
	e.Forward, e.Compare = s.Forward, s.Compare
	e.Update, e.Optimizer = s.Update, s.Optimizer
	return e.writeJSON()
}

// sorted returns a sorted copy without duplicates, so that equal flag sets
// encode alike. It sorts the indices of list, with the instantiation of
// slices.SortStableFunc for []int that the page links anyway: a sort of
// []string would link a sort of its own for these few short lists.
func sorted(list []string) []string {
	if len(list) == 0 {
		return nil
	}
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(list[a], list[b]) })
	out := make([]string, 0, len(list))
	for _, i := range idx {
		if len(out) == 0 || out[len(out)-1] != list[i] {
			out = append(out, list[i])
		}
	}
	return out
}

// Encode returns the link fragment of s, without the '#': Prefix followed by
// the base64url text of the deflated canonical envelope.
func Encode(s *State) (string, error) {
	raw, err := JSON(s)
	if err != nil {
		return "", err
	}
	return Pack(raw), nil
}

// Pack deflates an envelope with the v1 dictionary and adds the prefix,
// without validating it: Encode uses it, and tests use it to make links
// whose content is broken on purpose.
func Pack(raw []byte) string {
	return Prefix + Deflate(raw)
}

// Deflate returns the base64url text (no padding) of raw deflated with the
// v1 dictionary: a link's body without its prefix. Documents that travel
// in fragments beside state links (lessons, whose stops are envelopes)
// pack themselves with it under their own prefix; Inflate undoes it. The
// same raw always gives the same text: compress/flate's output at a given
// level depends only on its input and dictionary.
func Deflate(raw []byte) string {
	var buf bytes.Buffer
	w, _ := deflaters.Get().(*flate.Writer)
	if w == nil {
		// The level is valid, so NewWriterDict cannot fail.
		w, _ = flate.NewWriterDict(&buf, flate.BestCompression, []byte(dictionary))
	} else {
		w.Reset(&buf)
	}
	defer deflaters.Put(w)
	// A bytes.Buffer takes every write, so neither call can fail.
	w.Write(raw)
	w.Close()
	return base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

// deflaters keeps Deflate's writers for the next link: a writer at
// BestCompression allocates about 600 KB, and the page encodes its link
// after every change. Reset makes one the same as a new one (same level,
// same dictionary), so the bytes do not change.
var deflaters sync.Pool

// Validate checks everything Decode checks after parsing: the model
// document (or the program, which must parse and check), the view, the
// position's phase, the modes, the flags' control names, and the points
// and the batch against the model (their inputs' size, their targets'
// classes).
func (s *State) Validate() error {
	if err := s.validateSource(); err != nil {
		return err
	}
	switch s.View {
	case "", ViewStep, ViewTrain:
	default:
		return &Error{Part: "view", Msg: fmt.Sprintf("%q is not a view (want %s or %s)", s.View, ViewStep, ViewTrain)}
	}
	switch s.Pos.Phase {
	case "", PhaseForward, PhaseBackward:
		if s.Pos.Node < 0 {
			return &Error{Part: "pos.node", Msg: fmt.Sprintf("must be ≥ 0 in the %s phase, got %d", s.Pos.phase(), s.Pos.Node)}
		}
	case PhaseDone:
		if s.Pos.Node != -1 {
			return &Error{Part: "pos.node", Msg: fmt.Sprintf("must be -1 when the phase is done, got %d", s.Pos.Node)}
		}
	default:
		return &Error{Part: "pos.phase", Msg: fmt.Sprintf("%q is not a phase (want forward, backward or done)", s.Pos.Phase)}
	}
	if u := s.Update; u != nil && (u.N < 0 || u.N > 0 && s.Pos.Phase != PhaseDone) {
		return &Error{Part: "update", Msg: "an update phase, with n ≥ 0 updates at the end of the backward pass"}
	}
	if l2 := s.Modes.L2; l2 < 0 || math.IsNaN(l2) || math.IsInf(l2, 0) {
		return &Error{Part: "modes.l2", Msg: fmt.Sprintf("must be a finite number ≥ 0, got %v", l2)}
	}
	for _, f := range []struct {
		name string
		list []string
	}{{"flags.hide", s.Flags.Hide}, {"flags.lock", s.Flags.Lock}} {
		for i, c := range f.list {
			if !IsControl(c) {
				return &Error{Part: fmt.Sprintf("%s[%d]", f.name, i), Msg: fmt.Sprintf("%q is not a control (want one of %v)", c, Controls())}
			}
		}
	}
	if s.Points != nil {
		if err := s.Points.check(s.Model, "points"); err != nil {
			return err
		}
	}
	if s.Batch != nil {
		if err := s.Batch.check(s.Model, "batch"); err != nil {
			return err
		}
	}
	if err := s.checkCompare(); err != nil {
		return err
	}
	if s.Drawing != nil {
		return s.Drawing.check(s.Model)
	}
	return nil
}

// checkCompare checks the optimizers compared: at most MaxCompare, of a
// model, each valid (a fault names its field, e.g. compare[1].lr); and a
// program's optimizer.
func (s *State) checkCompare() error {
	if o := s.Optimizer; o != nil {
		if err := checkOptimizer(*o, "optimizer"); err != nil {
			return err
		}
	}
	switch {
	case len(s.Compare) == 0:
		return nil
	case s.Program != "":
		return &Error{Part: "compare", Msg: "a program's link compares no optimizers (the training view trains models)"}
	case len(s.Compare) > MaxCompare:
		return &Error{Part: "compare", Msg: fmt.Sprintf("%d optimizers beside the model's; at most %d", len(s.Compare), MaxCompare)}
	}
	for i, o := range s.Compare {
		if err := checkOptimizer(o, "compare["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	return nil
}

// checkOptimizer checks o's settings; a fault names its field under part.
func checkOptimizer(o train.OptimizerConfig, part string) error {
	if err := o.Check(); err != nil {
		var fe *nn.FieldError
		if errors.As(err, &fe) {
			return &Error{Part: part + "." + fe.Field, Msg: fe.Msg}
		}
		return &Error{Part: part, Err: err}
	}
	return nil
}

func (p Position) phase() string {
	if p.Phase == "" {
		return PhaseForward
	}
	return p.Phase
}

// check validates examples against the model's input size; part names
// them in errors.
func (p *Points) check(m *spec.Model, part string) error {
	if len(p.X) != len(p.Y) {
		return &Error{Part: part, Msg: fmt.Sprintf("%d inputs but %d targets", len(p.X), len(p.Y))}
	}
	if len(p.X) == 0 {
		return &Error{Part: part, Msg: "no examples"}
	}
	if len(p.X) > MaxPoints {
		return &Error{Part: part, Msg: fmt.Sprintf("%d examples, at most %d fit in a link", len(p.X), MaxPoints)}
	}
	width := m.Input.Size()
	for i, row := range p.X {
		if len(row) != width {
			return &Error{Part: fmt.Sprintf("%s.x[%d]", part, i), Msg: fmt.Sprintf("%d numbers, the model's input %v has %d", len(row), m.Input, width)}
		}
	}
	if err := finite(p.X, part+".x"); err != nil {
		return err
	}
	if err := finite([][]float64{p.Y}, part+".y"); err != nil {
		return err
	}
	return p.checkTargets(m, part)
}

// finite checks that every number of rows is finite; part names rows in
// the error, which names the first number at fault (part[i][j], or
// part[j] for a single row, such as the targets).
func finite(rows [][]float64, part string) error {
	for i, row := range rows {
		for j, v := range row {
			if math.IsNaN(v) || math.IsInf(v, 0) {
				at := "[" + strconv.Itoa(j) + "]"
				if len(rows) > 1 || part[len(part)-1] != 'y' {
					at = "[" + strconv.Itoa(i) + "]" + at
				}
				return &Error{Part: part + at, Msg: "not a finite number"}
			}
		}
	}
	return nil
}

// checkTargets checks the targets against the model's loss: one number per
// example, and for cross-entropy a class the model's output has.
func (p *Points) checkTargets(m *spec.Model, part string) error {
	seq, err := m.Seq()
	if err != nil {
		return &Error{Part: "model", Err: err}
	}
	if tgt := m.Loss.Target(seq.Output()); tgt.Size() != 1 {
		return &Error{Part: part + ".y", Msg: fmt.Sprintf("one number per example, but the model's %s targets have shape %v", m.Loss, tgt)}
	}
	if m.Loss != nn.CrossEntropy {
		return nil
	}
	classes := seq.Output()[0]
	for i, v := range p.Y {
		if v < 0 || v >= float64(classes) || v != math.Trunc(v) {
			return &Error{Part: fmt.Sprintf("%s.y[%d]", part, i), Msg: fmt.Sprintf("class %v is not one of the model's (a whole number from 0 to %d)", v, classes-1)}
		}
	}
	return nil
}

// validateSource checks that s holds a valid model or a valid program, and
// nothing a program cannot have.
func (s *State) validateSource() error {
	if s.Program == "" {
		if s.Model == nil {
			return &Error{Part: "model", Msg: "missing"}
		}
		if err := s.Model.Validate(); err != nil {
			return &Error{Part: "model", Err: err}
		}
		switch {
		case s.Forward != nil:
			return &Error{Part: "forward", Msg: "belongs to a program; a model is stepped in reverse mode"}
		case s.Optimizer != nil:
			return &Error{Part: "optimizer", Msg: "belongs to a program; a model's optimizer is its document's"}
		case s.Params != nil:
			return &Error{Part: "params", Msg: "belong to a program; a model's weights are its document's params"}
		}
		if err := budget.CheckModel(s.Model, s.rows()); err != nil {
			return &Error{Part: "model", Err: err}
		}
		return nil
	}
	switch {
	case s.Model != nil:
		return &Error{Part: "envelope", Msg: "holds both a model and a program; a link carries one"}
	case s.Points != nil:
		return &Error{Part: "points", Msg: "belong to a model; a program's data are its inputs"}
	case s.Batch != nil:
		return &Error{Part: "batch", Msg: "belongs to a model; a program's data are its inputs"}
	case s.Drawing != nil:
		return &Error{Part: "drawing", Msg: "belongs to a model; a program's data are its inputs"}
	case s.View == ViewTrain:
		return &Error{Part: "view", Msg: "a program has no training view (want step)"}
	}
	p, err := program.Parse(s.Program)
	if err != nil {
		return &Error{Part: "program", Err: err}
	}
	if err := budget.CheckProgram(p); err != nil {
		return &Error{Part: "program", Err: err}
	}
	if err := s.checkParams(p.Leaves()); err != nil {
		return err
	}
	return checkForward(s.Forward, p.Leaves())
}

// checkParams validates a program's weights against its param leaves:
// each one's, by its name, of its size, finite. The update phase that
// moved them needs the dense pass.
func (s *State) checkParams(leaves []program.Leaf) error {
	switch {
	case s.Params == nil:
		return nil
	case s.Modes.Single:
		return &Error{Part: "params", Msg: "come from update phases, which the single-output pass has not (want the dense pass)"}
	}
	n := 0
	for _, l := range leaves {
		row, ok := s.Params[l.Name]
		part := "params." + l.Name
		switch {
		case !ok && l.Param:
			return &Error{Part: "params", Msg: "misses param " + l.Name + " (a link carries every param's weights, or none)"}
		case !ok:
			continue
		case !l.Param:
			return &Error{Part: part, Msg: l.Name + " is an input of the program, not a param"}
		}
		n++
		if err := checkRow(row, l, part); err != nil {
			return err
		}
	}
	if n == len(s.Params) {
		return nil
	}
	bad := "" // the first name, alphabetically, that is no leaf's
	for name := range s.Params {
		leaf := false
		for _, l := range leaves {
			leaf = leaf || l.Name == name
		}
		if !leaf && (bad == "" || name < bad) {
			bad = name
		}
	}
	return &Error{Part: jsontext.Join("params", bad), Msg: "not a param of the program"}
}

// rows is the most examples a pass over the state's model holds apart
// from a training batch: its examples (budget.Examples) or its stepping
// batch, whichever is larger.
func (s *State) rows() int {
	points, batch := 0, 0
	if s.Points != nil {
		points = len(s.Points.X)
	}
	if s.Batch != nil {
		batch = len(s.Batch.X)
	}
	return max(budget.Examples(s.Model, points), batch)
}

// checkForward validates forward mode's direction against the program's
// leaves (nil: reverse mode, always valid).
func checkForward(dir [][]float64, leaves []program.Leaf) error {
	if dir == nil {
		return nil
	}
	if len(dir) != len(leaves) {
		return &Error{Part: "forward", Msg: fmt.Sprintf("%d rows for the program's %d leaves", len(dir), len(leaves))}
	}
	for i, row := range dir {
		if err := checkRow(row, leaves[i], "forward["+strconv.Itoa(i)+"]"); err != nil {
			return err
		}
	}
	return nil
}

// checkRow checks row, leaf l's entries row-major: as many as l has, each
// finite; part names row in the error.
func checkRow(row []float64, l program.Leaf, part string) error {
	if n := len(l.Value.Data); len(row) != n {
		return &Error{Part: part, Msg: fmt.Sprintf("%d numbers, leaf %s of shape %v has %d", len(row), l.Name, l.Value.Shape, n)}
	}
	for j, v := range row {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return &Error{Part: part + "[" + strconv.Itoa(j) + "]", Msg: "not a finite number"}
		}
	}
	return nil
}
