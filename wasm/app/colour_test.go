package app

import (
	"math"
	"testing"
)

// TestInkOnIsReadable checks that the text colour InkOn picks contrasts at
// least 4.5:1 (WCAG AA) with every colour of the scale, from -1000 to 1000
// and at the ends.
func TestInkOnIsReadable(t *testing.T) {
	vs := []float64{math.Inf(-1), math.Inf(1), math.NaN(), 0}
	for v := -1000.0; v <= 1000; v += 0.001 * (1 + math.Abs(v)) {
		vs = append(vs, v)
	}
	sc := paletteScale(t)
	for _, v := range vs {
		bg, ink := sc.Colour(v), sc.InkOn(v)
		if c := Contrast(ink, bg); c < 4.5 {
			t.Errorf("%v: %s on %s contrasts %.2f:1, want ≥ 4.5", v, ink, bg, c)
		}
	}
}

// TestContrast checks the ratio against WCAG's known values.
func TestContrast(t *testing.T) {
	for _, c := range []struct {
		a, b string
		want float64
	}{{"#000000", "#ffffff", 21}, {"#ffffff", "#ffffff", 1}, {"#767676", "#ffffff", 4.54}} {
		if got := Contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Contrast(%s, %s) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}
