package train

import (
	"math"

	"tapelab/engine/nn"
)

// Metrics summarise a model on a dataset.
type Metrics struct {
	// Loss is the model's loss over the whole dataset (mean, as in training).
	Loss float64
	// Accuracy is the fraction of correctly classified examples, or NaN
	// when it does not apply. cross_entropy: the arg-max logit is the class.
	// bce_with_logits: each output is right when (logit > 0) equals
	// (target ≥ 0.5). mse on a classification set (Classes > 0): the output
	// rounded to the nearest class is the class.
	Accuracy float64
}

// Evaluate runs m in eval mode (dropout off, batch norm on its running
// statistics) over all of d and returns the loss and accuracy.
func Evaluate(m *nn.Model, d *Dataset) (Metrics, error) {
	return evaluate(nn.NewPass(m), m, d)
}

// Evaluate is the package-level Evaluate reusing the trainer's
// evaluation pass, so that repeated evaluation allocates little.
func (t *Trainer) Evaluate(d *Dataset) (Metrics, error) {
	if t.eval == nil {
		t.eval = nn.NewFusedPass(t.model)
		t.eval.SetPrecision(t.prec)
	}
	return evaluate(t.eval, t.model, d)
}

func evaluate(p *nn.Pass, m *nn.Model, d *Dataset) (Metrics, error) {
	if d == nil || d.Len() == 0 {
		return Metrics{Loss: math.NaN(), Accuracy: math.NaN()}, nil
	}
	if err := d.fitsShapes(m); err != nil {
		return Metrics{}, err
	}
	x, y := d.Batch(m)
	// Forward checks the batch (m.CheckBatch), the rest of d.Fits.
	if err := p.Forward(x, y, nn.Eval, 0); err != nil {
		return Metrics{}, err
	}
	return Metrics{Loss: p.Loss(), Accuracy: accuracy(m, d, p)}, nil
}

func accuracy(m *nn.Model, d *Dataset, p *nn.Pass) float64 {
	out := p.Output().Data
	y := d.Y.Data
	n := d.Len()
	right, total := 0, 0
	switch {
	case m.Loss == nn.CrossEntropy:
		c := len(out) / n
		for i := 0; i < n; i++ {
			row := out[i*c : (i+1)*c]
			best := 0
			for j, v := range row {
				if v > row[best] {
					best = j
				}
			}
			if float64(best) == y[i] {
				right++
			}
			total++
		}
	case m.Loss == nn.BCEWithLogits:
		for i, v := range out {
			if (v > 0) == (y[i] >= 0.5) {
				right++
			}
			total++
		}
	case d.Classes > 0:
		for i, v := range out {
			if math.Round(v) == y[i] {
				right++
			}
			total++
		}
	default:
		return math.NaN()
	}
	return float64(right) / float64(total)
}
