package app

import "testing"

func TestFitFloor(t *testing.T) {
	// The default model's tape in one row and folded in two, in world px.
	folds := [][2]float64{{1000, 440}, {560, 900}}
	for _, c := range []struct {
		name       string
		presenting bool
		w, h       float64
		want       float64
	}{
		{"not presenting", false, 300, 200, ReadableScale},
		{"presenting with room", true, 1900, 900, PresenterScale},
		{"presenting, a row fits just", true, 1000 * PresenterScale, 440 * PresenterScale, PresenterScale},
		{"presenting on a small screen: as large as it fits", true, 960, 400, 400.0 / 440},
		{"presenting on a tiny screen: readable, and panned", true, 300, 200, ReadableScale},
		{"presenting, a fold fits better", true, 500, 1000, 500.0 / 560},
	} {
		if got := FitFloor(c.presenting, folds, c.w, c.h); got != c.want {
			t.Errorf("%s: FitFloor(%v × %v) = %v, want %v", c.name, c.w, c.h, got, c.want)
		}
	}
	if got := FitFloor(true, nil, 100, 100); got != ReadableScale {
		t.Errorf("no folds: %v, want ReadableScale", got)
	}
}
