package app

import (
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// TestFitData checks the model a dataset change gives: the same layers on
// the new input when they fit, the dataset's default model when not.
func TestFitData(t *testing.T) {
	cnn := DefaultCNN(tensor.Shape{1, 8, 8}, 10)
	wide := DefaultDoc()
	wide.Layers = []nn.Layer{nn.NewLinear(8), nn.ReLU{}, nn.NewLinear(1)}
	flat := Doc{Input: tensor.Shape{2}, Layers: []nn.Layer{nn.Flatten{}, nn.NewLinear(10)}, Loss: nn.CrossEntropy, Seed: 3}
	tests := []struct {
		name     string
		doc      Doc
		dataset  string
		want     Doc
		switched bool
	}{
		{"the MLP on another set of points", wide, "moons", wide, false},
		{"the MLP on a 1-D set", DefaultDoc(), "sine", Doc{Input: tensor.Shape{1}, Layers: DefaultDoc().Layers, Loss: nn.MSE, Seed: 7}, false},
		{"the MLP on digits", DefaultDoc(), "digits", cnn, true},
		{"the MLP on shapes", DefaultDoc(), "shapes", DefaultCNN(tensor.Shape{1, 8, 8}, 5), true},
		{"the CNN on points", cnn, "circle", DefaultDoc(), true},
		{"the CNN on shapes", cnn, "shapes", cnn, false},
		{"a flattening classifier on digits", flat, "digits", Doc{Input: tensor.Shape{1, 8, 8}, Layers: flat.Layers, Loss: nn.CrossEntropy, Seed: 3}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, switched, err := FitData(tt.doc, train.DefaultData(tt.dataset))
			if err != nil {
				t.Fatal(err)
			}
			if switched != tt.switched || !got.Equal(tt.want) {
				t.Errorf("FitData = %s on %v (switched %v), want %s on %v (switched %v)",
					LayerPath(got), got.Input, switched, LayerPath(tt.want), tt.want.Input, tt.switched)
			}
			if _, _, err := got.Check(); err != nil {
				t.Errorf("the fitted model does not build: %v", err)
			}
		})
	}
	if _, _, err := FitData(DefaultDoc(), train.DataConfig{Name: "no-such-set"}); err == nil {
		t.Error("no error for an unknown dataset")
	}
}
