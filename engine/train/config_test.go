package train

import (
	"strings"
	"testing"
)

// TestOptimizerLabels checks that each optimizer has its label, in the
// same order, and that the label names the same optimizer.
func TestOptimizerLabels(t *testing.T) {
	names, labels := OptimizerNames(), OptimizerLabels()
	if len(names) != len(labels) {
		t.Fatalf("%d names, %d labels", len(names), len(labels))
	}
	for i, n := range names {
		if !strings.EqualFold(labels[i], n) || OptimizerLabel(n) != labels[i] {
			t.Errorf("optimizer %q has the label %q (OptimizerLabel: %q)", n, labels[i], OptimizerLabel(n))
		}
	}
	if got := OptimizerLabel("rmsprop"); got != "rmsprop" {
		t.Errorf("OptimizerLabel of an unknown name: %q", got)
	}
}
