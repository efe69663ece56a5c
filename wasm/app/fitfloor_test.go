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

func TestFitsWhole(t *testing.T) {
	folds := [][2]float64{{1200, 600}, {700, 1250}}
	for _, c := range []struct {
		w, h float64
		want bool
	}{
		{900, 450, true},  // one row at 0.75
		{762, 520, false}, // 0.635 in a row, 0.416 folded
		{975, 520, true},  // the same with the editor folded away: 0.81 in a row
		{530, 940, true},  // folded, 0.757
		{0, 0, false},
	} {
		if got := FitsWhole(folds, c.w, c.h, ReadableScale); got != c.want {
			t.Errorf("FitsWhole(%v × %v) = %v, want %v", c.w, c.h, got, c.want)
		}
	}
}
