//go:build js && wasm

package tape

import (
	"testing"

	"tapelab/wasm/dom"
)

func TestUncovered(t *testing.T) {
	region := dom.Rect{Left: 200, Top: 100, Width: 600, Height: 400}
	for _, c := range []struct {
		name   string
		drawer dom.Rect
		w, h   float64
	}{
		{"not shown", dom.Rect{}, 600, 400},
		{"beside the region", dom.Rect{Left: 820, Top: 64, Width: 300, Height: 500}, 600, 400},
		{"right beside it", dom.Rect{Left: 805, Top: 64, Width: 300, Height: 500}, 605 - drawerGap, 400},
		{"over the right side", dom.Rect{Left: 700, Top: 64, Width: 380, Height: 500}, 500 - drawerGap, 400},
		{"over the bottom", dom.Rect{Left: 12, Top: 380, Width: 1000, Height: 300}, 600, 280 - drawerGap},
		{"below the region", dom.Rect{Left: 12, Top: 520, Width: 1000, Height: 300}, 600, 400},
		{"over most of it", dom.Rect{Left: 250, Top: 110, Width: 800, Height: 500}, 600, 400},
	} {
		if w, h := uncovered(region, c.drawer); w != c.w || h != c.h {
			t.Errorf("%s: uncovered = %v × %v, want %v × %v", c.name, w, h, c.w, c.h)
		}
	}
}
