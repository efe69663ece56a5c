package app

import "math"

// The diverging, colour-blind-safe scale of every value and gradient:
// negative numbers are blue, zero is white, positive numbers are orange
// (TensorFlow Playground's choice). The same number on the same scale is
// the same colour everywhere.
var (
	negRGB  = [3]float64{8, 119, 189}  // #0877bd
	posRGB  = [3]float64{245, 147, 34} // #f59322
	zeroRGB = [3]float64{255, 255, 255}
)

// Colour returns the CSS colour ("#rrggbb") of v on a scale from -limit to
// +limit; values beyond the limit saturate. NaN is grey. A limit of 0 maps
// everything to white.
func Colour(v, limit float64) string {
	if math.IsNaN(v) {
		return "#9e9e9e"
	}
	t := 0.0
	if limit > 0 {
		t = math.Max(-1, math.Min(1, v/limit))
	} else if math.IsInf(v, 0) {
		t = math.Copysign(1, v)
	}
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

// InkOn returns the text colour readable on Colour(v, limit): white on
// strong colours, near-black on pale ones.
func InkOn(v, limit float64) string {
	if limit > 0 && math.Abs(v)/limit > 0.65 {
		return "#ffffff"
	}
	return "#1a1a1a"
}
