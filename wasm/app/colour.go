package app

import "math"

// The diverging, colour-blind-safe scale of every value and gradient:
// negative numbers are blue, zero is white, positive numbers are orange
// (TensorFlow Playground's choice). The scale is fixed, so the same number
// is the same colour everywhere and at every step. It is soft rather than
// clipped: a number v is drawn at strength |v| / (|v| + ScaleHalf), so 0.5
// is half strength, and 5 is still distinguishable from 50.
var (
	negRGB  = [3]float64{8, 119, 189}  // #0877bd
	posRGB  = [3]float64{245, 147, 34} // #f59322
	zeroRGB = [3]float64{255, 255, 255}
)

// ScaleHalf is the magnitude drawn at half strength.
const ScaleHalf = 0.5

// strength maps v to [-1, 1].
func strength(v float64) float64 {
	switch {
	case math.IsNaN(v):
		return 0
	case math.IsInf(v, 0):
		return math.Copysign(1, v)
	}
	return v / (math.Abs(v) + ScaleHalf)
}

// Colour returns the CSS colour ("#rrggbb") of v on the scale; NaN is grey.
func Colour(v float64) string {
	if math.IsNaN(v) {
		return "#9e9e9e"
	}
	t := strength(v)
	end := posRGB
	if t < 0 {
		end, t = negRGB, -t
	}
	const hex = "0123456789abcdef"
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i := range 3 {
		c := int(math.Round(zeroRGB[i] + (end[i]-zeroRGB[i])*t))
		b[1+2*i], b[2+2*i] = hex[c>>4], hex[c&15]
	}
	return string(b)
}

// InkOn returns the text colour readable on Colour(v): white on strong
// colours, near-black on pale ones.
func InkOn(v float64) string {
	if math.Abs(strength(v)) > 0.7 {
		return "#ffffff"
	}
	return "#1a1a1a"
}

// LegendTicks are the numbers the scale's legend labels.
func LegendTicks() []float64 { return []float64{-2, -0.5, -0.1, 0, 0.1, 0.5, 2} }
