//go:build js && wasm

package main

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// line is the demo's function y = 2·x + 1, written once against op.Ops.
func line(o op.Ops, x op.Value) op.Value {
	return op.Add(o, op.Scale(o, x, 2), o.Const(tensor.Scalar(1)))
}

// lineResult is one evaluation of line: y, dy/dx and the tape that computed them.
type lineResult struct {
	y, dydx float64
	nodes   []nodeRow
}

// nodeRow describes one tape node for the demo's table.
type nodeRow struct {
	id      int
	what    string // "param x", "scale(#0) c=2", …
	rule    string // the op's chain rule, empty for leaves
	value   float64
	grad    float64
	hasGrad bool // the reverse pass reached the node
}

// evalLine records line on s at x, runs the reverse pass into g and reads
// back y, dy/dx and the tape. s and g are reused across calls.
func evalLine(s *autograd.Session, g *autograd.Grads, x float64) (lineResult, error) {
	s.Reset()
	xv := s.Param(tensor.Scalar(x), "x")
	y := line(s, xv)
	if err := s.Err(); err != nil {
		return lineResult{}, err
	}
	if err := s.Backward(y, g); err != nil {
		return lineResult{}, err
	}
	dx := g.Of(int(xv))
	if dx == nil {
		return lineResult{}, errors.New("the reverse pass did not reach x")
	}
	tape := s.Tape()
	r := lineResult{y: tape.Node(int(y)).Value.At(), dydx: dx.At()}
	for i := range tape.Len() {
		n := tape.Node(i)
		row := nodeRow{id: i, what: describe(n), value: n.Value.At()}
		if n.Op != nil {
			row.rule = n.Op.Rule
		}
		if gi := g.Of(i); gi != nil {
			row.grad, row.hasGrad = gi.At(), true
		}
		r.nodes = append(r.nodes, row)
	}
	return r, nil
}

// describe names a node as the table shows it.
func describe(n *autograd.Node) string {
	if n.Op == nil {
		return strings.TrimSpace(n.Kind.String() + " " + n.Name)
	}
	ids := make([]string, len(n.Parents))
	for i, p := range n.Parents {
		ids[i] = fmt.Sprintf("#%d", p)
	}
	s := n.Op.Name + "(" + strings.Join(ids, ", ") + ")"
	if n.Op.Name == "scale" {
		s += " c=" + formatNumber(n.Attrs.Alpha)
	}
	return s
}

// parseX reads the demo's input, naming what is wrong with it.
func parseX(s string) (float64, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, errors.New("type a number for x")
	}
	x, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(x, 0) || math.IsNaN(x) {
		return 0, fmt.Errorf("x must be a finite number, not %q", s)
	}
	return x, nil
}

// formatNumber shows v with up to 6 significant digits.
func formatNumber(v float64) string {
	return strconv.FormatFloat(v, 'g', 6, 64)
}
