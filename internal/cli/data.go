package cli

import (
	"fmt"
	"os"

	"tapelab/engine/nn"
	"tapelab/engine/train"
)

// loadData reads a data file {"x": [[...], ...], "y": [...]} with
// train.ReadJSON and checks that it suits model m (train.Dataset.Fits):
// x holds one flattened example of m's input shape per row; y holds a
// target row per example for mse and bce_with_logits, or a class index for
// cross_entropy. Errors name the file and the JSON path or example.
func loadData(path string, m *nn.Model) (*train.Dataset, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	d, err := train.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := d.Fits(m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return d, nil
}
