package trainer

import (
	"fmt"
	"math"
	"strings"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// MaxUserPoints bounds the examples a user may add or paste.
const MaxUserPoints = 2000

// FromPoints builds a dataset from the user's examples: x one input row
// each, y one target each. classes > 0 marks y as class indices below
// classes.
func FromPoints(x [][]float64, y []float64, classes int) (*train.Dataset, error) {
	if len(x) != len(y) {
		return nil, fmt.Errorf("%d inputs but %d targets", len(x), len(y))
	}
	if len(x) == 0 {
		return nil, fmt.Errorf("no examples yet: click on the picture to add some")
	}
	w := len(x[0])
	d := &train.Dataset{X: tensor.Zeros(tensor.Shape{len(x), w}), Y: tensor.Zeros(tensor.Shape{len(y), 1}), Classes: classes}
	for i, row := range x {
		if len(row) != w {
			return nil, fmt.Errorf("example %d has %d inputs, example 0 has %d", i, len(row), w)
		}
		copy(d.X.Data[i*w:], row)
	}
	for i, v := range y {
		if classes > 0 && (v != math.Trunc(v) || v < 0 || v >= float64(classes)) {
			return nil, fmt.Errorf("example %d: target %v is not a class (want a whole number from 0 to %d)", i, v, classes-1)
		}
		d.Y.Data[i] = v
	}
	return d, nil
}

// ReadCSV reads pasted or uploaded CSV text with engine/train's reader: one
// example per row, features input columns and the target last (a class
// index when classes > 0). Errors name the line and column at fault.
func ReadCSV(text string, features, classes int) (x [][]float64, y []float64, err error) {
	d, err := train.ReadCSV(strings.NewReader(text), 1)
	if err != nil {
		return nil, nil, err
	}
	if got := d.X.Shape[1]; got != features {
		return nil, nil, fmt.Errorf("each row needs %d input columns and 1 target column (%d columns), the data has %d", features, features+1, got+1)
	}
	n := d.Len()
	if n > MaxUserPoints {
		return nil, nil, fmt.Errorf("%d rows; at most %d fit in the playground", n, MaxUserPoints)
	}
	x = make([][]float64, n)
	y = make([]float64, n)
	for i := range n {
		x[i] = append([]float64(nil), d.X.Data[i*features:(i+1)*features]...)
		y[i] = d.Y.Data[i]
		if classes > 0 && (y[i] != math.Trunc(y[i]) || y[i] < 0 || y[i] >= float64(classes)) {
			return nil, nil, fmt.Errorf("data row %d: the target %v is not a class (want a whole number from 0 to %d)", i+1, y[i], classes-1)
		}
	}
	return x, y, nil
}
