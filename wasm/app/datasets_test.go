package app

import (
	"testing"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

func TestDataShape(t *testing.T) {
	want := map[string]struct {
		shape   tensor.Shape
		classes int
		image   bool
	}{
		"circle": {tensor.Shape{2}, 2, false}, "xor": {tensor.Shape{2}, 2, false}, "gauss": {tensor.Shape{2}, 2, false},
		"spiral": {tensor.Shape{2}, 2, false}, "moons": {tensor.Shape{2}, 2, false},
		"reg-plane": {tensor.Shape{2}, 0, false}, "reg-gauss": {tensor.Shape{2}, 0, false}, "sine": {tensor.Shape{1}, 0, false},
		"digits": {tensor.Shape{1, 8, 8}, 10, true}, "shapes": {tensor.Shape{1, 8, 8}, 5, true},
	}
	for _, name := range append(train.DatasetNames(), train.ImageDatasetNames()...) {
		s, c, err := DataShape(name)
		w, ok := want[name]
		if err != nil || !ok || !s.Equal(w.shape) || c != w.classes || ImageData(name) != w.image {
			t.Errorf("DataShape(%q) = %v, %d classes, %v (image %v); want %+v", name, s, c, err, ImageData(name), w)
		}
	}
	if _, _, err := DataShape("nope"); err == nil || err.Error() != `unknown dataset "nope"` {
		t.Errorf("DataShape of an unknown dataset: %v", err)
	}
}
