package app

import (
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

func TestDocEqual(t *testing.T) {
	base := DefaultDoc()
	moved, _ := base.Move(0, 2)
	wider, _ := base.Replace(0, nn.NewLinear(5))
	tests := []struct {
		name string
		d    Doc
		want bool
	}{
		{"same", DefaultDoc(), true},
		{"copy of the layers", base.with(append([]nn.Layer(nil), base.Layers...)), true},
		{"input", Doc{Input: tensor.Shape{1}, Layers: base.Layers, Loss: base.Loss, Seed: base.Seed}, false},
		{"loss", Doc{Input: base.Input, Layers: base.Layers, Loss: nn.BCEWithLogits, Seed: base.Seed}, false},
		{"seed", Doc{Input: base.Input, Layers: base.Layers, Loss: base.Loss, Seed: 8}, false},
		{"a setting", wider, false},
		{"order", moved, false},
		{"one more layer", base.Insert(1, nn.ReLU{}), false},
	}
	for _, tt := range tests {
		if got := base.Equal(tt.d); got != tt.want {
			t.Errorf("%s: Equal = %v, want %v", tt.name, got, tt.want)
		}
		if got := tt.d.Equal(base); got != tt.want {
			t.Errorf("%s (reversed): Equal = %v, want %v", tt.name, got, tt.want)
		}
	}
}
