package app

import (
	"math"
	"os"
	"regexp"
	"testing"
)

// TestScaleMatchesPalette checks that the value scale Go draws has the
// ends and the middle the stylesheet's palette names (the CSS legend bar
// and the training picture's keys use those).
func TestScaleMatchesPalette(t *testing.T) {
	css, err := os.ReadFile("../../static/style.css")
	if err != nil {
		t.Fatal(err)
	}
	for prop, v := range map[string]float64{"--scale-neg": math.Inf(-1), "--scale-zero": 0, "--scale-pos": math.Inf(1)} {
		m := regexp.MustCompile(prop + `:\s*(#[0-9a-f]{6});`).FindSubmatch(css)
		if m == nil {
			t.Errorf("static/style.css defines no %s", prop)
			continue
		}
		if got := Colour(v); got != string(m[1]) {
			t.Errorf("Colour(%v) = %s, but the palette's %s is %s", v, got, prop, m[1])
		}
	}
}
