package app

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/tensor"
)

// Num formats v with 4 significant digits, as the graph and the grids show
// numbers ("-0.1235", "1.235e+05"); -0 prints as "-0" so that it is never
// mistaken for +0.
func Num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+Inf"
	case math.IsInf(v, -1):
		return "-Inf"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// Full formats v with the fewest digits that read back exactly (the
// inspector's hover text).
func Full(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// SmallLimit is the most elements a tensor may have to be shown as numbers;
// larger ones are shown as a colour grid.
const SmallLimit = 16

// Rows returns t as rows of formatted numbers: a scalar is one row of one,
// a vector one row, a matrix its rows, and higher ranks their last axis
// as rows. It returns nil for a nil tensor.
func Rows(t *tensor.Tensor) [][]string {
	if t == nil {
		return nil
	}
	cols := 1
	if r := t.Shape.Rank(); r > 0 {
		cols = t.Shape[r-1]
	}
	rows := make([][]string, 0, len(t.Data)/cols)
	for i := 0; i < len(t.Data); i += cols {
		row := make([]string, cols)
		for j := range row {
			row[j] = Num(t.Data[i+j])
		}
		rows = append(rows, row)
	}
	return rows
}

// Inline formats a tensor on one line for the chain-rule card: a scalar as
// its number, a small tensor as nested brackets, a larger one by its shape.
func Inline(t *tensor.Tensor) string {
	if t == nil {
		return "—"
	}
	if t.Shape.Rank() == 0 {
		return Num(t.Data[0])
	}
	if len(t.Data) > SmallLimit {
		return "tensor " + t.Shape.String()
	}
	rows := Rows(t)
	var b strings.Builder
	if len(rows) > 1 || t.Shape.Rank() > 1 {
		b.WriteByte('[')
	}
	for i, r := range rows {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteByte('[')
		b.WriteString(strings.Join(r, " "))
		b.WriteByte(']')
	}
	if len(rows) > 1 || t.Shape.Rank() > 1 {
		b.WriteByte(']')
	}
	return b.String()
}
