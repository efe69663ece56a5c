package train

import (
	"fmt"
	"math/rand/v2"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// Dataset holds examples as rows: X [n features] and Y [n targets], with
// each example's input flattened (it is reshaped to the model's input
// shape when batched).
type Dataset struct {
	X *tensor.Tensor
	Y *tensor.Tensor
	// Classes is the number of classes when Y holds class indices 0, 1, …
	// (the generated classification sets), 0 when Y holds numbers.
	Classes int
}

// Len reports the number of examples.
func (d *Dataset) Len() int { return d.X.Shape[0] }

// Fits checks that the dataset suits model m: as many features as m's
// input has elements, targets matching m's loss and output, and for
// cross_entropy whole class indices in range. Errors name the example.
func (d *Dataset) Fits(m *nn.Model) error {
	if err := d.fitsShapes(m); err != nil {
		return err
	}
	x, y := d.Batch(m)
	return m.CheckBatch(x, y)
}

// fitsShapes is the part of Fits that needs no look at the values: the
// feature and target counts (a pass's Forward checks the rest).
func (d *Dataset) fitsShapes(m *nn.Model) error {
	return fits(d.X.Shape[1], d.Y.Shape[1], d.Classes, m.Seq.Input(), m.Seq.Output(), m.Loss)
}

// Batch returns the whole dataset as one batch shaped for m: x [n, input...]
// and y [n, target...] (see nn.Loss.Target), sharing d's storage.
func (d *Dataset) Batch(m *nn.Model) (x, y *tensor.Tensor) {
	n := d.Len()
	x = &tensor.Tensor{Shape: append(tensor.Shape{n}, m.Seq.Input()...), Data: d.X.Data}
	y = &tensor.Tensor{Shape: append(tensor.Shape{n}, m.Loss.Target(m.Seq.Output())...), Data: d.Y.Data}
	return x, y
}

// Fits checks, without generating anything, that the configured dataset
// suits a model with the given input and output example shapes and loss.
func (c DataConfig) Fits(input, output tensor.Shape, loss nn.Loss) error {
	g, ok := generators[c.Name]
	if !ok {
		return c.Check()
	}
	if g.classes == 0 && loss != nn.MSE {
		return fmt.Errorf("%s is a regression set (numeric targets); it trains with loss mse, not %s", c.Name, loss)
	}
	return fits(g.features, 1, g.classes, input, output, loss)
}

func fits(features, targets, classes int, input, output tensor.Shape, loss nn.Loss) error {
	if features != input.Size() {
		return fmt.Errorf("examples have %d features, the model input %v needs %d", features, input, input.Size())
	}
	if loss == nn.CrossEntropy {
		if targets != 1 {
			return fmt.Errorf("cross_entropy needs one target per example (the class index), the data has %d", targets)
		}
		if len(output) == 1 && classes > output[0] {
			return fmt.Errorf("the data has %d classes, the model gives %d logits", classes, output[0])
		}
		return nil
	}
	if targets != output.Size() {
		return fmt.Errorf("examples have %d targets, the model output %v needs %d", targets, output, output.Size())
	}
	return nil
}

// shuffle permutes the examples in place.
func (d *Dataset) shuffle(r *rand.Rand) {
	fx, fy := d.X.Shape[1], d.Y.Shape[1]
	r.Shuffle(d.Len(), func(i, j int) {
		swapRows(d.X.Data, fx, i, j)
		swapRows(d.Y.Data, fy, i, j)
	})
}

func swapRows(v []float64, w, i, j int) {
	a, b := v[i*w:(i+1)*w], v[j*w:(j+1)*w]
	for k := range a {
		a[k], b[k] = b[k], a[k]
	}
}

// split returns the first k examples and the rest (nil when none are left).
func (d *Dataset) split(k int) (*Dataset, *Dataset) {
	return d.rows(0, k), d.rows(k, d.Len())
}

// rows returns examples [lo, hi) sharing d's storage, or nil when empty.
func (d *Dataset) rows(lo, hi int) *Dataset {
	if hi <= lo {
		return nil
	}
	fx, fy := d.X.Shape[1], d.Y.Shape[1]
	return &Dataset{
		X:       &tensor.Tensor{Shape: tensor.Shape{hi - lo, fx}, Data: d.X.Data[lo*fx : hi*fx]},
		Y:       &tensor.Tensor{Shape: tensor.Shape{hi - lo, fy}, Data: d.Y.Data[lo*fy : hi*fy]},
		Classes: d.Classes,
	}
}
