package train

import (
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"tapelab/engine/jsontext"
	"tapelab/engine/tensor"
)

// MaxValues bounds the numbers a data file may hold.
const MaxValues = 1 << 24

// ReadCSV reads a CSV file of numbers, one example per row: all columns but
// the last targets are the example's (flattened) input and the last targets
// columns its target (for cross_entropy, one column holding the class
// index). A first row in which no field is a number is taken as a header and
// skipped; blank lines are skipped. Errors name the line and column: a row
// with a different number of fields than the first, a field that is not a
// finite number.
func ReadCSV(r io.Reader, targets int) (*Dataset, error) {
	if targets < 1 {
		return nil, fmt.Errorf("need at least one target column, got %d", targets)
	}
	text, err := io.ReadAll(r)
	if err != nil {
		return nil, err
	}
	cr := csvReader{text: text, line: 1}
	var x, y []float64
	width, firstLine, rows := 0, 0, 0
	for {
		more, err := cr.next()
		if err != nil {
			return nil, err
		}
		if !more {
			break
		}
		rec, line := cr.fields, cr.recLine
		if rows == 0 && width == 0 && header(rec) {
			continue
		}
		if width == 0 {
			width, firstLine = len(rec), line
			if width <= targets {
				return nil, fmt.Errorf("line %d: %d columns; need at least one input column and %d target column(s)", line, width, targets)
			}
		} else if len(rec) != width {
			return nil, fmt.Errorf("line %d: %d columns, but line %d has %d", line, len(rec), firstLine, width)
		}
		if (rows+1)*width > MaxValues {
			return nil, fmt.Errorf("line %d: more than %d numbers", line, MaxValues)
		}
		for j, f := range rec {
			v, err := strconv.ParseFloat(strings.TrimSpace(f), 64)
			if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
				return nil, fmt.Errorf("line %d, column %d (field %d): %q is not a finite number", line, cr.cols[j], j+1, f)
			}
			if j < width-targets {
				x = append(x, v)
			} else {
				y = append(y, v)
			}
		}
		rows++
	}
	if rows == 0 {
		return nil, errors.New("no data rows")
	}
	return &Dataset{
		X: &tensor.Tensor{Shape: tensor.Shape{rows, width - targets}, Data: x},
		Y: &tensor.Tensor{Shape: tensor.Shape{rows, targets}, Data: y},
	}, nil
}

// header reports whether no field of rec parses as a number.
func header(rec []string) bool {
	for _, f := range rec {
		if _, err := strconv.ParseFloat(strings.TrimSpace(f), 64); err == nil {
			return false
		}
	}
	return true
}

// ReadJSON reads a data document {"x": [[...], ...], "y": [...]}: x holds
// one flattened example per row; y holds one row of targets per example,
// or one number per example (a class index for cross_entropy). Errors name
// the JSON path ("x[3]: 3 numbers, x[0] has 2").
func ReadJSON(r io.Reader) (*Dataset, error) {
	text, err := io.ReadAll(io.LimitReader(r, 1<<30))
	if err != nil {
		return nil, fmt.Errorf("data: %v", err)
	}
	doc, err := jsontext.Parse(text, jsontext.Options{})
	var se *jsontext.SyntaxError
	switch {
	case errors.As(err, &se) && se.EOF:
		return nil, errors.New("data: unexpected EOF")
	case err != nil:
		return nil, fmt.Errorf("data: %v", err)
	case doc.Kind != jsontext.Object:
		return nil, errors.New("data: want an object {\"x\": [...], \"y\": [...]}")
	}
	var xs, ys []*jsontext.Value
	for _, m := range doc.Members {
		var dst *[]*jsontext.Value
		switch m.Key {
		case "x":
			dst = &xs
		case "y":
			dst = &ys
		default:
			return nil, fmt.Errorf("data: json: unknown field %q", m.Key)
		}
		switch m.Value.Kind {
		case jsontext.Null:
		case jsontext.Array:
			*dst = m.Value.Elems
		default:
			return nil, fmt.Errorf("%s: want a list of examples, got %s", m.Key, abbrev(text[m.Value.Start:m.Value.End]))
		}
	}
	if len(xs) == 0 {
		return nil, errors.New("x: missing or empty (want a list of examples)")
	}
	if len(ys) != len(xs) {
		return nil, fmt.Errorf("y: %d entries for %d examples in x", len(ys), len(xs))
	}
	x, fx, err := rows("x", xs, text)
	if err != nil {
		return nil, err
	}
	y, fy, err := rows("y", ys, text)
	if err != nil {
		return nil, err
	}
	n := len(xs)
	return &Dataset{
		X: &tensor.Tensor{Shape: tensor.Shape{n, fx}, Data: x},
		Y: &tensor.Tensor{Shape: tensor.Shape{n, fy}, Data: y},
	}, nil
}

// rows decodes each entry as a list of numbers (or one number) of equal
// length; text is the document the entries were parsed from.
func rows(name string, entries []*jsontext.Value, text []byte) ([]float64, int, error) {
	var out []float64
	width := -1
	for i, e := range entries {
		items := []*jsontext.Value{e}
		if e.Kind == jsontext.Array {
			items = e.Elems
		}
		row := make([]float64, len(items))
		for j, it := range items {
			if it.Kind == jsontext.Null {
				return nil, 0, fmt.Errorf("%s[%d]: null is not a number", name, i)
			}
			v, err := strconv.ParseFloat(it.Text, 64)
			if it.Kind != jsontext.Number || err != nil {
				return nil, 0, fmt.Errorf("%s[%d]: want a list of numbers or a number, got %s", name, i, abbrev(text[e.Start:e.End]))
			}
			row[j] = v
		}
		if width < 0 {
			width = len(row)
			if width == 0 {
				return nil, 0, fmt.Errorf("%s[0]: empty", name)
			}
		} else if len(row) != width {
			return nil, 0, fmt.Errorf("%s[%d]: %d numbers, %s[0] has %d", name, i, len(row), name, width)
		}
		if len(out)+width > MaxValues {
			return nil, 0, fmt.Errorf("%s: more than %d numbers", name, MaxValues)
		}
		out = append(out, row...)
	}
	return out, width, nil
}

func abbrev(m []byte) string {
	s := string(m)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return s
}
