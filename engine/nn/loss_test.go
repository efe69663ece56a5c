package nn_test

import (
	"testing"

	"tapelab/engine/nn"
)

func TestParseLoss(t *testing.T) {
	for _, l := range nn.Losses() {
		if got, err := nn.ParseLoss(string(l)); got != l || err != nil {
			t.Errorf("ParseLoss(%q) = %q, %v", l, got, err)
		}
	}
	for _, name := range []string{"", "l1", "MSE", "mse "} {
		got, err := nn.ParseLoss(name)
		want := `unknown loss "` + name + `" (want mse, cross_entropy, bce_with_logits)`
		if got != "" || err == nil || err.Error() != want {
			t.Errorf("ParseLoss(%q) = %q, %v; want the error %s", name, got, err, want)
		}
	}
}
