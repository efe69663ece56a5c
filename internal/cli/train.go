package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/static"
)

// runTrain is `go run . train -model M.json [-data D.json] -steps N`: it
// trains with the spec's optimizer, batch size and seed on the data file,
// or on the spec's dataset, generated or built in (its train split; the
// rest is the test set), and prints one JSON line per logged step,
//
//	{"step": 10, "loss": 0.41, "train_loss": 0.39, "test_loss": 0.44, "test_accuracy": 0.9}
//
// (loss is the step's mini-batch loss before its update; train_loss and
// test_loss evaluate the whole sets in eval mode after it; accuracies
// appear where they apply), then the final parameters, buffers included,
// in the spec's params form: {"params": {"0.weight": [[...]], ...}}.
// A NaN or infinite value stops training with an error naming the step and
// the layer. -precision float32 trains in float32 storage
// (train.Trainer.SetPrecision: the parameters are float32 numbers).
func runTrain(_ context.Context, args []string, stdout, stderr io.Writer) error {
	flags := NewFlagSet("train", stderr)
	model := flags.String("model", "", "model spec `M.json`")
	data := flags.String("data", "", "data file `D.json` (default: the spec's dataset)")
	steps := &countFlag{max: spec.MaxSteps}
	flags.Var(steps, "steps", "number of training steps `N` (default: the spec's steps)")
	every := &countFlag{max: spec.MaxSteps}
	flags.Var(every, "every", "log every `K` steps (default: steps/20, at least 1); the last step is always logged")
	var prec precisionFlag
	flags.Var(&prec, "precision", precisionUsage)
	if err := parseFlags(flags, args); err != nil {
		return err
	}
	sm, m, err := loadModel(*model)
	if err != nil {
		return err
	}
	n := sm.Steps
	if steps.n != 0 {
		n = steps.n
	}
	k := max(1, n/20)
	if every.n != 0 {
		k = every.n
	}
	trainSet, testSet, err := trainingData(*data, *model, sm, m)
	if err != nil {
		return err
	}
	tr, err := train.NewTrainer(m, trainSet, sm.Optimizer, sm.BatchSize, sm.Seed)
	if err != nil {
		return err
	}
	tr.SetPrecision(prec.p)
	var b bytes.Buffer
	for step := 1; step <= n; step++ {
		loss, err := tr.Step()
		if err != nil {
			return err
		}
		if step%k != 0 && step != n {
			continue
		}
		b.Reset()
		if err := logStep(&b, tr, step, loss, trainSet, testSet); err != nil {
			return err
		}
		if _, err := stdout.Write(b.Bytes()); err != nil {
			return err
		}
	}
	b.Reset()
	b.WriteString(`{"params": `)
	if err := writeParams(&b, m, "params", func(i int) *tensor.Tensor { return m.Params[i] }); err != nil {
		return err
	}
	b.WriteString("}\n")
	_, err = stdout.Write(b.Bytes())
	return err
}

// trainingData returns the data file at dataPath, checked against m, as the
// training set (no test set), or else the spec's dataset (generated, or
// read from its built-in file) split into training and test sets.
// modelPath names the spec in errors.
func trainingData(dataPath, modelPath string, sm *spec.Model, m *nn.Model) (trainSet, testSet *train.Dataset, err error) {
	switch {
	case dataPath != "":
		trainSet, err = loadData(dataPath, m)
		return trainSet, nil, err
	case sm.Dataset.Name != "":
		if trainSet, testSet, err = static.Load(sm.Dataset); err != nil {
			return nil, nil, fmt.Errorf("%s: dataset: %w", modelPath, err)
		}
		return trainSet, testSet, nil
	}
	return nil, nil, errors.New(`no data: give -data D.json or a "dataset" in the model spec`)
}

// logStep writes the log line of a step: its mini-batch loss, then the
// loss (and accuracy, where it applies) of each non-empty set evaluated
// after the update.
func logStep(b *bytes.Buffer, tr *train.Trainer, step int, loss float64, trainSet, testSet *train.Dataset) error {
	fmt.Fprintf(b, `{"step": %d`, step)
	if err := logNumber(b, "loss", loss); err != nil {
		return err
	}
	for _, set := range []struct {
		name string
		d    *train.Dataset
	}{{"train", trainSet}, {"test", testSet}} {
		if set.d == nil || set.d.Len() == 0 {
			continue
		}
		mt, err := tr.Evaluate(set.d)
		if err != nil {
			return fmt.Errorf("step %d: evaluating the %s set: %w", step, set.name, err)
		}
		if err := logNumber(b, set.name+"_loss", mt.Loss); err != nil {
			return err
		}
		if !math.IsNaN(mt.Accuracy) {
			if err := logNumber(b, set.name+"_accuracy", mt.Accuracy); err != nil {
				return err
			}
		}
	}
	b.WriteString("}\n")
	return nil
}

// logNumber appends `, "key": v` to a log line.
func logNumber(b *bytes.Buffer, key string, v float64) error {
	fmt.Fprintf(b, `, %q: `, key)
	return jsonNumber(b, v, func() string { return key })
}

// countFlag is a flag holding a whole number from 1 to max, written as an
// integer or in exponent form (1e6). Set refuses anything else, naming the
// range, so a count of 0 means the flag was not given: a given 0 is an
// error, never taken for the default.
type countFlag struct {
	n   int
	max int
}

// String returns the count, 0 when the flag was not given.
func (c *countFlag) String() string { return strconv.Itoa(c.n) }

// Set parses s as the count.
func (c *countFlag) Set(s string) error {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || f != math.Trunc(f) || f < 1 || f > float64(c.max) {
		return fmt.Errorf("want a whole number from 1 to %d", c.max)
	}
	c.n = int(f)
	return nil
}
