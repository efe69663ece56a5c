// Package train trains nn models: optimizers (SGD with momentum, Adam), the
// playground's seeded datasets (2-D points, a curve, 8×8 images: generated
// shapes and the handwritten digits read from their file), data files read
// from CSV or JSON, a mini-batch training loop that stops on NaN or
// infinite values, and metrics.
package train

import (
	"math"
	"strconv"

	"tapelab/engine/nn"
)

// OptimizerConfig selects and tunes an optimizer. Its zero value is not
// valid; start from DefaultOptimizer.
type OptimizerConfig struct {
	// Name is "sgd", "momentum" (SGD with momentum, 0.9 by default) or "adam".
	Name string
	// LR is the learning rate, > 0.
	LR float64
	// Momentum is SGD's momentum factor in [0, 1) (sgd and momentum only).
	Momentum float64
	// Betas are Adam's decay rates for the first and second moments, each in [0, 1).
	Betas [2]float64
	// Eps is Adam's denominator term, > 0.
	Eps float64
	// WeightDecay adds WeightDecay·p to every gradient (L2, as torch.optim does), ≥ 0.
	WeightDecay float64
}

// OptimizerNames lists the optimizers.
func OptimizerNames() []string { return []string{"sgd", "momentum", "adam"} }

// OptimizerLabels lists the optimizers' names as people write them (SGD,
// momentum, Adam), in the order of OptimizerNames.
func OptimizerLabels() []string { return []string{"SGD", "momentum", "Adam"} }

// OptimizerLabel returns the label of the named optimizer, or the name
// itself for one it does not know.
func OptimizerLabel(name string) string {
	for i, n := range OptimizerNames() {
		if n == name {
			return OptimizerLabels()[i]
		}
	}
	return name
}

// DefaultOptimizer returns the defaults for the named optimizer: learning
// rate 0.03 (the playground's) for sgd and momentum, 0.001 (PyTorch's) for
// adam; momentum 0.9 for momentum, 0 otherwise; betas (0.9, 0.999), eps
// 1e-8 and no weight decay. An unknown name is kept, so that Check reports it.
func DefaultOptimizer(name string) OptimizerConfig {
	c := OptimizerConfig{Name: name, LR: 0.03, Betas: [2]float64{0.9, 0.999}, Eps: 1e-8}
	switch name {
	case "momentum":
		c.Momentum = 0.9
	case "adam":
		c.LR = 0.001
	}
	return c
}

// Check reports the first invalid setting as an *nn.FieldError naming the
// field as the model spec writes it ("lr", "betas[1]").
func (c OptimizerConfig) Check() error {
	switch {
	case c.Name != "sgd" && c.Name != "momentum" && c.Name != "adam":
		return &nn.FieldError{Field: "name", Msg: "unknown optimizer " + strconv.Quote(c.Name) + " (want sgd, momentum, adam)"}
	case !(c.LR > 0) || math.IsInf(c.LR, 1):
		return &nn.FieldError{Field: "lr", Msg: "must be a finite number > 0"}
	case !unit(c.Momentum):
		return &nn.FieldError{Field: "momentum", Msg: "must be in [0, 1)"}
	case !unit(c.Betas[0]):
		return &nn.FieldError{Field: "betas[0]", Msg: "must be in [0, 1)"}
	case !unit(c.Betas[1]):
		return &nn.FieldError{Field: "betas[1]", Msg: "must be in [0, 1)"}
	case !(c.Eps > 0) || math.IsInf(c.Eps, 1):
		return &nn.FieldError{Field: "eps", Msg: "must be a finite number > 0"}
	case !(c.WeightDecay >= 0) || math.IsInf(c.WeightDecay, 1):
		return &nn.FieldError{Field: "weight_decay", Msg: "must be a finite number ≥ 0"}
	}
	return nil
}

func unit(v float64) bool { return v >= 0 && v < 1 }

// Limits on generated datasets.
const (
	MaxExamples = 100000
	MaxBatch    = 65536
)

// DataConfig selects a generated dataset (see DatasetNames).
type DataConfig struct {
	// Name is the dataset; "" means none.
	Name string
	// N is the number of examples generated (for digits, taken from the
	// file), split into train and test; 2 ≤ N ≤ MaxExamples (DigitsImages
	// for digits).
	N int
	// Noise in [0, 1] perturbs the data as each generator documents
	// (the playground's 0–50% slider is 0–0.5).
	Noise float64
	// TrainSplit in (0, 1] is the fraction of examples used for training
	// (rounded down, at least one); the rest is the test set.
	TrainSplit float64
	// Seed drives generation and the shuffle before the split.
	Seed uint64
}

// DefaultData returns the defaults for the named dataset: 500 examples
// (the playground's; all DigitsImages for digits), no noise, half for
// training, seed 0.
func DefaultData(name string) DataConfig {
	c := DataConfig{Name: name, N: 500, TrainSplit: 0.5}
	if name == "digits" {
		c.N = DigitsImages
	}
	return c
}

// Check reports the first invalid setting as an *nn.FieldError.
func (c DataConfig) Check() error {
	if c.Name == "" {
		return &nn.FieldError{Field: "name", Msg: "missing (want one of " + datasetList + ")"}
	}
	if _, ok := generators[c.Name]; !ok {
		return &nn.FieldError{Field: "name", Msg: "unknown dataset " + strconv.Quote(c.Name) + " (want " + datasetList + ")"}
	}
	most := MaxExamples
	if c.Name == "digits" {
		most = DigitsImages
	}
	switch {
	case c.N < 2 || c.N > most:
		return &nn.FieldError{Field: "n", Msg: "must be a whole number from 2 to " + strconv.Itoa(most)}
	case !(c.Noise >= 0 && c.Noise <= 1):
		return &nn.FieldError{Field: "noise", Msg: "must be in [0, 1]"}
	case !(c.TrainSplit > 0 && c.TrainSplit <= 1):
		return &nn.FieldError{Field: "train_split", Msg: "must be in (0, 1]"}
	}
	return nil
}
