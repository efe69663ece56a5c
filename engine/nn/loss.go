package nn

import (
	"fmt"
	"slices"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Loss names a loss function; each averages over the batch as PyTorch's
// default reduction ("mean") does.
type Loss string

// The losses a model can train with.
const (
	// MSE is torch.nn.MSELoss: the mean of (output − target)² over every
	// element; targets have the output's shape.
	MSE Loss = "mse"
	// CrossEntropy is torch.nn.CrossEntropyLoss on logits [batch classes]
	// and integer class targets [batch] (stored as float64).
	CrossEntropy Loss = "cross_entropy"
	// BCEWithLogits is torch.nn.BCEWithLogitsLoss: targets in [0, 1] with
	// the output's shape.
	BCEWithLogits Loss = "bce_with_logits"
)

// String returns the loss's name, as documents write it ("mse").
func (l Loss) String() string { return string(l) }

// Losses lists every loss, in the order documents and errors show them.
func Losses() []Loss { return []Loss{MSE, CrossEntropy, BCEWithLogits} }

// ParseLoss returns the loss with the given name; an unknown name is an
// error listing the losses.
func ParseLoss(name string) (Loss, error) {
	if l := Loss(name); slices.Contains(Losses(), l) {
		return l, nil
	}
	return "", fmt.Errorf("unknown loss %q (want mse, cross_entropy, bce_with_logits)", name)
}

// Check reports whether the loss applies to a model whose examples have
// output shape out: cross_entropy needs 1-D logits [classes].
func (l Loss) Check(out tensor.Shape) error {
	switch l {
	case MSE, BCEWithLogits:
		return nil
	case CrossEntropy:
		if len(out) != 1 {
			return fmt.Errorf("cross_entropy needs 1-D logits [classes], the model gives %v", out)
		}
		return nil
	}
	_, err := ParseLoss(string(l))
	return err
}

// Target returns the shape of one example's target for model output shape
// out: [] (a class index) for cross_entropy, out itself (shared, not
// copied) otherwise.
func (l Loss) Target(out tensor.Shape) tensor.Shape {
	if l == CrossEntropy {
		return tensor.Shape{}
	}
	return out
}

// Apply records the loss of output batch pred against target batch target
// as a scalar. An unknown loss records nothing and returns op.NoValue.
func (l Loss) Apply(o op.Ops, pred, target op.Value) op.Value {
	switch l {
	case CrossEntropy:
		return op.CrossEntropy(o, pred, target)
	case BCEWithLogits:
		return op.BCEWithLogits(o, pred, target)
	case MSE:
		return op.MSELoss(o, pred, target)
	}
	return op.NoValue
}
