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

// InkOn returns the text colour readable on Colour(v): white or black,
// whichever contrasts more with it. On every colour of the scale that
// contrast is at least 4.5:1 (WCAG AA for normal text).
func InkOn(v float64) string {
	bg := luminance(Colour(v))
	if (1+0.05)/(bg+0.05) > (bg+0.05)/0.05 {
		return "#ffffff"
	}
	return "#000000"
}

// luminance is the WCAG relative luminance of a "#rrggbb" colour.
func luminance(hex string) float64 {
	var l float64
	for i, w := range [3]float64{0.2126, 0.7152, 0.0722} {
		c := float64(unhex(hex[1+2*i])<<4|unhex(hex[2+2*i])) / 255
		if c <= 0.04045 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}

// unhex is the value of a lower-case hexadecimal digit.
func unhex(b byte) int {
	if b >= 'a' {
		return int(b-'a') + 10
	}
	return int(b - '0')
}

// Contrast is the WCAG contrast ratio of two "#rrggbb" colours.
func Contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// LegendTicks are the numbers the scale's legend labels.
func LegendTicks() []float64 { return []float64{-2, -0.5, -0.1, 0, 0.1, 0.5, 2} }
