package trainer

import (
	"fmt"

	"tapelab/engine/spec"
	"tapelab/engine/train"
)

// NewRuns builds one session per optimizer of opts, each training m (its
// layers, parameters, seeded or given, and data, as New takes them) with
// that optimizer in place of m's: runs side by side from the same initial
// weights, in the same batch order (m.Seed's). Each run is the session New
// builds of the same settings alone, so it trains to the same bits. An
// error names the run (1-based) and its optimizer.
func NewRuns(m *spec.Model, opts []train.OptimizerConfig, data, file *train.Dataset) ([]*Session, error) {
	runs := make([]*Session, len(opts))
	for i, o := range opts {
		mi := *m
		mi.Optimizer = o
		s, err := New(&mi, data, file)
		if err != nil {
			return nil, fmt.Errorf("run %d (%s): %w", i+1, RunName(o), err)
		}
		runs[i] = s
	}
	return runs, nil
}

// RunName names a run by its optimizer's settings, as the chart's legend
// says it: "SGD, lr 0.03", "momentum 0.9, lr 0.03", "Adam, lr 0.001".
func RunName(o train.OptimizerConfig) string {
	lr := ", lr " + fmt.Sprint(o.LR)
	switch o.Name {
	case "adam":
		return "Adam" + lr
	case "momentum":
		return "momentum " + fmt.Sprint(o.Momentum) + lr
	}
	if o.Momentum != 0 {
		return "SGD, momentum " + fmt.Sprint(o.Momentum) + lr
	}
	return "SGD" + lr
}
