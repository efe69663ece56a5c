package trainer

import (
	"errors"
	"math"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// Bounds is the rectangle of the input plane the view draws: X0…X1 across
// and Y0…Y1 up (for 1-D inputs, Y is the target's range).
type Bounds struct{ X0, X1, Y0, Y1 float64 }

// Bounds returns the extent of the data (both sets) with a margin, so that
// every point lies inside; for 2-D inputs both axes share one scale.
func (s *Session) Bounds() Bounds {
	lo := [2]float64{math.Inf(1), math.Inf(1)}
	hi := [2]float64{math.Inf(-1), math.Inf(-1)}
	oneD := s.trainSet.X.Shape[1] == 1
	for _, d := range [2]*tensor.Tensor{s.trainSet.X, s.testSet.X} {
		fx := d.Shape[1]
		for i := 0; i < d.Shape[0]; i++ {
			for k := 0; k < min(fx, 2); k++ {
				v := d.Data[i*fx+k]
				lo[k], hi[k] = math.Min(lo[k], v), math.Max(hi[k], v)
			}
		}
	}
	if oneD {
		lo[1], hi[1] = math.Inf(1), math.Inf(-1)
		for _, d := range [2]*tensor.Tensor{s.trainSet.Y, s.testSet.Y} {
			for _, v := range d.Data {
				lo[1], hi[1] = math.Min(lo[1], v), math.Max(hi[1], v)
			}
		}
	}
	for k := range 2 {
		if !(hi[k] > lo[k]) { // no data, one value or NaN
			c := 0.0
			if !math.IsInf(lo[k], 0) {
				c = lo[k]
			}
			lo[k], hi[k] = c-1, c+1
		}
	}
	if !oneD { // one scale for both axes: a circle stays round
		w := math.Max(hi[0]-lo[0], hi[1]-lo[1])
		for k := range 2 {
			c := (lo[k] + hi[k]) / 2
			lo[k], hi[k] = c-w/2, c+w/2
		}
	}
	pad := func(a, b float64) (float64, float64) { m := (b - a) * 0.08; return a - m, b + m }
	b := Bounds{}
	b.X0, b.X1 = pad(lo[0], hi[0])
	b.Y0, b.Y1 = pad(lo[1], hi[1])
	return b
}

// Field evaluates the model (eval mode) at the centres of an n×n grid over
// b, row by row from the top (Y1) down, and returns one value per cell: for
// classification 2p−1 in [−1, 1], p being the probability of class 1 (so
// class 0 is −1, blue, and class 1 is +1, orange, on the page's scale); for
// regression the model's output. The model's input must have 2 elements.
func (s *Session) Field(b Bounds, n int) ([]float64, error) {
	if s.model.Seq.Input().Size() != 2 {
		return nil, errors.New("the decision boundary needs a model with 2 inputs")
	}
	x := make([]float64, 0, 2*n*n)
	for r := 0; r < n; r++ {
		yv := b.Y1 - (float64(r)+0.5)*(b.Y1-b.Y0)/float64(n)
		for c := 0; c < n; c++ {
			x = append(x, b.X0+(float64(c)+0.5)*(b.X1-b.X0)/float64(n), yv)
		}
	}
	return s.Predict(x)
}

// Curve evaluates a model with one input at n points evenly spread over
// b.X0…b.X1 and returns them with the outputs (or, for classification,
// 2p−1).
func (s *Session) Curve(b Bounds, n int) (xs, ys []float64, err error) {
	if s.model.Seq.Input().Size() != 1 {
		return nil, nil, errors.New("the fitted curve needs a model with 1 input")
	}
	xs = make([]float64, n)
	for i := range xs {
		xs[i] = b.X0 + float64(i)*(b.X1-b.X0)/float64(n-1)
	}
	ys, err = s.Predict(xs)
	return xs, ys, err
}

// Predict runs the model in eval mode on examples given as consecutive
// rows of x and returns one value per example, as Field describes.
func (s *Session) Predict(x []float64) ([]float64, error) {
	if len(x) == 0 {
		return []float64{}, nil
	}
	out, c, err := s.outputs(x)
	if err != nil {
		return nil, err
	}
	m, n := s.model, len(out)/c
	ys := make([]float64, n)
	cls := s.Classification()
	for i := range ys {
		row := out[i*c : (i+1)*c]
		if !cls {
			ys[i] = row[0]
			continue
		}
		ys[i] = 2*probability(m.Loss, row) - 1
	}
	return ys, nil
}

// outputs runs the model in eval mode on the examples x (flattened, one
// after the other) and returns its outputs, c numbers per example.
func (s *Session) outputs(x []float64) (out []float64, c int, err error) {
	m := s.model
	in := m.Seq.Input()
	w := in.Size()
	if w == 0 || len(x)%w != 0 || len(x) == 0 {
		return nil, 0, errors.New("the inputs do not fill whole examples")
	}
	n := len(x) / w
	xt := &tensor.Tensor{Shape: append(tensor.Shape{n}, in...), Data: x}
	yt := tensor.Zeros(append(tensor.Shape{n}, m.Loss.Target(m.Seq.Output())...))
	p := nn.NewPass(m)
	if err := p.Forward(xt, yt, nn.Eval, 0); err != nil {
		return nil, 0, err
	}
	out = p.Output().Data
	return out, len(out) / n, nil
}

// probability is the model's probability of class 1 for one output row.
func probability(l nn.Loss, row []float64) float64 {
	switch {
	case l == nn.CrossEntropy && len(row) >= 2:
		mx := math.Inf(-1)
		for _, v := range row {
			mx = math.Max(mx, v)
		}
		sum := 0.0
		for _, v := range row {
			sum += math.Exp(v - mx)
		}
		return math.Exp(row[1]-mx) / sum
	case l == nn.BCEWithLogits:
		return 1 / (1 + math.Exp(-row[0]))
	}
	return math.Min(1, math.Max(0, row[0])) // mse on class indices 0 and 1
}
