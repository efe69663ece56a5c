package app

import (
	"errors"
	"math"
	"strconv"

	"tapelab/engine/nn"
)

// Prediction is a classifier's answer for one example.
type Prediction struct {
	Class int     // the class with the largest logit
	Prob  float64 // its softmax probability
}

// Predict returns the recorded step's prediction for example ex (a
// classification model: the logits' largest entry and its softmax
// probability).
func (p *Playground) Predict(ex int) (Prediction, error) {
	if p.rec == nil || p.model == nil || p.model.Loss != nn.CrossEntropy {
		return Prediction{}, errors.New("only a classifier (cross_entropy) predicts a class")
	}
	y := p.rec.Tape.Node(p.rec.Pred).Value
	if len(y.Shape) != 2 || ex < 0 || ex >= y.Shape[0] {
		return Prediction{}, errors.New("no example " + strconv.Itoa(ex) + " in the mini-batch")
	}
	row := y.Data[ex*y.Shape[1] : (ex+1)*y.Shape[1]]
	best := 0
	for k, v := range row {
		if v > row[best] {
			best = k
		}
	}
	sum := 0.0
	for _, v := range row {
		sum += math.Exp(v - row[best])
	}
	return Prediction{Class: best, Prob: 1 / sum}, nil
}

// UseImage makes pixels (one example's values, e.g. Ink.Pixels) example ex
// of a classifier's mini-batch and records the step again with the current
// parameters, so the tape steps on it. Its target becomes its own
// prediction (a drawing has no label), which is returned.
func (p *Playground) UseImage(ex int, pixels []float64) (Prediction, error) {
	b := p.batch
	if p.model == nil || p.model.Loss != nn.CrossEntropy || ex < 0 || ex >= b.X.Shape[0] || len(pixels)*b.X.Shape[0] != len(b.X.Data) {
		return Prediction{}, errors.New("the drawing does not fit the model: a classifier of images of " + strconv.Itoa(len(pixels)) + " pixels")
	}
	x := b.X.Clone()
	copy(x.Data[ex*len(pixels):], pixels)
	nb := Batch{X: x, Y: b.Y.Clone()}
	if err := p.record(p.model, nb); err != nil {
		return Prediction{}, err
	}
	pr, err := p.Predict(ex)
	if err != nil {
		return pr, err
	}
	nb.Y.Data[ex] = float64(pr.Class)
	return pr, p.record(p.model, nb)
}

// record records the step of model m on batch b and, once it is recorded,
// makes them the playground's: its model, batch, recording and stepper.
func (p *Playground) record(m *nn.Model, b Batch) error {
	rec, err := Record(m, b, p.modes, p.seed)
	if err != nil {
		return err
	}
	step, err := p.stepperFor(rec)
	if err != nil {
		return err
	}
	p.step.Close()
	p.model, p.batch, p.rec, p.step = m, b, rec, step
	return nil
}
