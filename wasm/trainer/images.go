package trainer

import (
	"errors"
	"math"

	"tapelab/engine/nn"
	"tapelab/engine/train"
)

// Generate draws the configured dataset as train.Generate does or, for a
// dataset read from a data file (train.DataFile), from file, that file as
// its reader returned it (train.ReadDigits); file is ignored otherwise.
func Generate(c train.DataConfig, file *train.Dataset) (trainSet, testSet *train.Dataset, err error) {
	path := train.DataFile(c.Name)
	if path == "" {
		return train.Generate(c)
	}
	if file == nil {
		return nil, nil, errors.New(c.Name + " is not loaded yet (from " + path + ")")
	}
	return train.GenerateFrom(c, file)
}

// Predictions are a classifier's answers on the test set.
type Predictions struct {
	// Class is the predicted class of each test example (its arg-max
	// output), Want its true class.
	Class, Want []int
	// Confusion counts the test examples by true class (row) and
	// predicted class (column).
	Confusion [][]int
}

// Classify runs the model in eval mode over the test set and returns its
// predictions. It needs a cross_entropy model on a classification set
// with a test set.
func (s *Session) Classify() (*Predictions, error) {
	d := s.testSet
	if s.model.Loss != nn.CrossEntropy || d.Classes == 0 {
		return nil, errors.New("predictions need a cross_entropy model on a classification set")
	}
	n := d.Len()
	if n == 0 {
		return nil, errors.New("there is no test set (the training data is 100%)")
	}
	out, c, err := s.outputs(d.X.Data)
	if err != nil {
		return nil, err
	}
	pr := &Predictions{Class: make([]int, n), Want: make([]int, n), Confusion: make([][]int, d.Classes)}
	for i := range pr.Confusion {
		pr.Confusion[i] = make([]int, c)
	}
	for i := range n {
		row := out[i*c : (i+1)*c]
		best := 0
		for j, v := range row {
			if v > row[best] || math.IsNaN(row[best]) {
				best = j
			}
		}
		want := int(d.Y.Data[i])
		pr.Class[i], pr.Want[i] = best, want
		if want >= 0 && want < d.Classes {
			pr.Confusion[want][best]++
		}
	}
	return pr, nil
}
