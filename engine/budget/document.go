package budget

import (
	"tapelab/engine/program"
	"tapelab/engine/spec"
)

// CheckProgram returns nil when one forward and backward pass of p is
// within the default limits, and otherwise an *Error naming the op and
// line that cost the most.
func CheckProgram(p *program.Program) error {
	c, err := Program(p)
	if err != nil {
		return err
	}
	return c.Check(Default())
}

// CheckModel returns nil when the passes the playground runs on m are
// within the default limits, and otherwise an *Error naming the layer
// that costs the most. rows is the most examples an evaluation of m holds
// (see Examples; the stepping batch when that is larger). Two passes are
// measured: a training step on a batch of m.BatchSize examples (forward
// and backward) and a forward pass over rows.
func CheckModel(m *spec.Model, rows int) error {
	seq, err := m.Seq()
	if err != nil {
		return err
	}
	c, err := Model(seq, m.Loss, max(m.BatchSize, 1))
	if err != nil {
		return err
	}
	if err := c.Check(Default()); err != nil || rows < 1 {
		return err
	}
	if c, err = Evaluation(seq, m.Loss, rows); err != nil {
		return err
	}
	return c.Check(Default())
}

// Examples returns the number of examples m is trained and evaluated on:
// points, the number of the user's own examples, when there are any, and
// otherwise its dataset's size (0 without a dataset).
func Examples(m *spec.Model, points int) int {
	if points > 0 || m.Dataset.Name == "" {
		return points
	}
	return m.Dataset.N
}
