package app

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"tapelab/engine/program"
	"tapelab/engine/tensor"
)

// ForwardMode is forward mode over the recorded program: a direction over
// its leaves, every node's tangent from the ops' own JVPs (program.Forward
// on the recorded tape) and the check that the output's tangent equals
// ⟨gradient, direction⟩ from reverse mode (program.CheckForward). The page
// shows a node's tangent once the stepper knows its value.
type ForwardMode struct {
	Dir      []*tensor.Tensor
	Tangents *program.Tangents
	Check    *program.ForwardCheck
}

// Tangent returns node i's tangent: the tensor (zeros where the direction
// does not reach it), or nil with the reason when it is unknown because an
// op on the way has no JVP.
func (f *ForwardMode) Tangent(i int, shape tensor.Shape) (*tensor.Tensor, string) {
	if i < 0 || i >= len(f.Tangents.Of) {
		return nil, "no such node"
	}
	if !f.Tangents.Known[i] {
		return nil, "unknown: " + strings.Join(f.Tangents.Missing, ", ") + " has no JVP"
	}
	if t := f.Tangents.Of[i]; t != nil {
		return t, ""
	}
	return tensor.Zeros(shape), ""
}

// Forward runs forward mode along dir over the recorded tape and checks it
// against reverse mode.
func (p *ProgramPlayground) Forward(dir []*tensor.Tensor) (*ForwardMode, error) {
	if p.prog == nil {
		return nil, errors.New("no program recorded")
	}
	tg, err := p.prog.Forward(p.rec.Tape, dir)
	if err != nil {
		return nil, err
	}
	c, err := p.prog.CheckForward(dir)
	if err != nil {
		return nil, err
	}
	return &ForwardMode{Dir: dir, Tangents: tg, Check: c}, nil
}

// OneHot returns the one-hot direction at the first entry of leaf (a node
// id below len(LeafNames())).
func (p *ProgramPlayground) OneHot(leaf int) ([]*tensor.Tensor, error) {
	if p.prog == nil {
		return nil, errors.New("no program recorded")
	}
	return p.prog.OneHot(leaf, 0)
}

// DirectionRows gives a direction as rows, one per leaf holding its entries
// row-major (as a link carries it); Direction undoes it.
func DirectionRows(dir []*tensor.Tensor) [][]float64 {
	rows := make([][]float64, len(dir))
	for i, d := range dir {
		rows[i] = append([]float64(nil), d.Data...)
	}
	return rows
}

// FormatDirection writes a direction's tensor as the direction editor
// shows it: its entries, row-major, separated by spaces.
func FormatDirection(t *tensor.Tensor) string {
	parts := make([]string, len(t.Data))
	for k, v := range t.Data {
		parts[k] = Full(v)
	}
	return strings.Join(parts, " ")
}

// ParseDirection reads a direction typed per leaf: texts[i] holds leaf
// i's entries, row-major, separated by spaces or commas. An error names the
// leaf and the entry at fault.
func (p *ProgramPlayground) ParseDirection(texts []string) ([]*tensor.Tensor, error) {
	if p.prog == nil {
		return nil, errors.New("no program recorded")
	}
	leaves := p.prog.Leaves()
	if len(texts) != len(leaves) {
		return nil, fmt.Errorf("direction: %d entries for %d leaves", len(texts), len(leaves))
	}
	rows := make([][]float64, len(leaves))
	for i, l := range leaves {
		fields := strings.FieldsFunc(texts[i], func(r rune) bool { return r == ' ' || r == ',' || r == '\t' })
		rows[i] = make([]float64, len(fields))
		for k, f := range fields {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				return nil, fmt.Errorf("direction of %s, entry %d: %q is not a number", l.Name, k+1, f)
			}
			rows[i][k] = v
		}
	}
	return p.Direction(rows)
}

// Direction makes a direction of rows, one per leaf holding its entries
// row-major (as a link carries it). An error names the leaf whose row does
// not fit its shape.
func (p *ProgramPlayground) Direction(rows [][]float64) ([]*tensor.Tensor, error) {
	if p.prog == nil {
		return nil, errors.New("no program recorded")
	}
	leaves := p.prog.Leaves()
	if len(rows) != len(leaves) {
		return nil, fmt.Errorf("direction: %d entries for %d leaves", len(rows), len(leaves))
	}
	dir := make([]*tensor.Tensor, len(leaves))
	for i, l := range leaves {
		if len(rows[i]) != len(l.Value.Data) {
			return nil, fmt.Errorf("direction of %s: %d numbers, want %d (its shape is %v)", l.Name, len(rows[i]), len(l.Value.Data), l.Value.Shape)
		}
		d := tensor.Zeros(l.Value.Shape)
		copy(d.Data, rows[i])
		dir[i] = d
	}
	return dir, nil
}
