package trainer

import (
	"testing"

	"tapelab/engine/spec"
	"tapelab/engine/train"
	"tapelab/static"
	"tapelab/wasm/app"
)

// readDigits reads the page's digits file as the page does after
// decompressing it.
func readDigits(t *testing.T) *train.Dataset {
	t.Helper()
	d, err := static.Digits()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

// cnnModel is the default CNN with the default CNN training on the named
// image dataset, with the given seed.
func cnnModel(name string, seed uint64) *spec.Model {
	d := app.DefaultCNN(train.ExampleShape(name), len(train.ClassNames(name)))
	m := spec.New(d.Input, d.Loss, d.Layers...)
	m.Seed = seed
	m.Dataset = train.DefaultData(name)
	m.Optimizer = app.CNNOptimizer()
	m.BatchSize = app.CNNBatch
	return m
}

// TestDefaultCNNOnDigits trains the page's default CNN on digits as the
// training view does (its seed 1, and seed 7, the seed of a model built
// in the editor from the starting model) and checks the test accuracy the
// page states, and that the confusion matrix counts every test image.
func TestDefaultCNNOnDigits(t *testing.T) {
	file := readDigits(t)
	for _, c := range []struct {
		seed  uint64
		steps int
		want  float64
	}{{1, 500, 0.959}, {7, 500, 0.94}} {
		s, err := New(cnnModel("digits", c.seed), nil, file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Run(c.steps); err != nil {
			t.Fatal(err)
		}
		_, te := s.Sets()
		m, err := train.Evaluate(s.Model(), te)
		if err != nil {
			t.Fatal(err)
		}
		acc := m.Accuracy
		t.Logf("seed %d: test accuracy %.4f after %d steps", c.seed, acc, s.Steps())
		if acc < c.want {
			t.Errorf("seed %d: test accuracy %.4f after %d steps, want ≥ %v", c.seed, acc, c.steps, c.want)
		}
		p, err := s.Classify()
		if err != nil {
			t.Fatal(err)
		}
		total, right := 0, 0
		for i, row := range p.Confusion {
			for j, k := range row {
				total += k
				if i == j {
					right += k
				}
			}
		}
		if total != te.Len() || float64(right)/float64(total) != acc {
			t.Errorf("confusion matrix counts %d images, %d right; the test set has %d, accuracy %v", total, right, te.Len(), acc)
		}
	}
}

// TestMetricsEveryFewSteps checks that metrics on digits (1,797 images)
// are recorded every 16 steps, and on 500 points at every step.
func TestMetricsEveryFewSteps(t *testing.T) {
	for _, c := range []struct {
		m     *spec.Model
		file  *train.Dataset
		every int
	}{{cnnModel("digits", 1), readDigits(t), 16}, {defaultModel("circle"), nil, 1}} {
		s, err := New(c.m, nil, c.file)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Run(2 * c.every); err != nil {
			t.Fatal(err)
		}
		var steps []int
		for _, r := range s.History() {
			steps = append(steps, r.Step)
		}
		if len(steps) != 3 || steps[1] != c.every || steps[2] != 2*c.every {
			t.Errorf("%s: records at steps %v, want 0, %d, %d", c.m.Dataset.Name, steps, c.every, 2*c.every)
		}
		// One more step, then Measure: the figures are of that step.
		if _, err := s.Run(1); err != nil {
			t.Fatal(err)
		}
		if err := s.Measure(); err != nil {
			t.Fatal(err)
		}
		if err := s.Measure(); err != nil {
			t.Fatal(err)
		}
		if h := s.History(); len(h) != 4 || h[3].Step != 2*c.every+1 {
			t.Errorf("%s: after a step and Measure (twice) %d records, the last of step %d; want 4, step %d", c.m.Dataset.Name, len(h), h[len(h)-1].Step, 2*c.every+1)
		}
	}
}

// TestImageDataNeedsFile checks that digits without its file is a clear
// error and that shapes is generated.
func TestImageDataNeedsFile(t *testing.T) {
	if _, err := New(cnnModel("digits", 1), nil, nil); err == nil || err.Error() != "digits is not loaded yet (from data/digits.csv.gz)" {
		t.Errorf("digits without its file: %v", err)
	}
	s, err := New(cnnModel("shapes", 1), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr, te := s.Sets(); tr.Len()+te.Len() != train.DefaultData("shapes").N || tr.X.Shape[1] != 64 {
		t.Errorf("shapes: %d + %d examples of %v", tr.Len(), te.Len(), tr.X.Shape)
	}
}

// TestClassifyNeedsClassifier checks Classify's errors.
func TestClassifyNeedsClassifier(t *testing.T) {
	s, err := New(defaultModel("reg-plane"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Classify(); err == nil {
		t.Error("Classify on a regression model: no error")
	}
}
