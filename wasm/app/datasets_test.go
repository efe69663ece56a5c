package app

import (
	"testing"

	"tapelab/engine/train"
)

func TestDataShape(t *testing.T) {
	want := map[string][2]int{
		"circle": {2, 2}, "xor": {2, 2}, "gauss": {2, 2}, "spiral": {2, 2}, "moons": {2, 2},
		"reg-plane": {2, 0}, "reg-gauss": {2, 0}, "sine": {1, 0},
	}
	for _, name := range train.DatasetNames() {
		f, c, err := DataShape(name)
		w, ok := want[name]
		if err != nil || !ok || f != w[0] || c != w[1] {
			t.Errorf("DataShape(%q) = %d features, %d classes, %v; want %v", name, f, c, err, w)
		}
	}
	if _, _, err := DataShape("nope"); err == nil {
		t.Error("DataShape of an unknown dataset gave no error")
	}
}
