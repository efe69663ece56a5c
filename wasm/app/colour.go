package app

import (
	"errors"
	"math"
)

// Scale is the diverging, colour-blind-safe scale of every value and
// gradient: negative numbers are blue, zero is white, positive numbers are
// orange (TensorFlow Playground's choice). Its colours are the page's
// palette (the stylesheet's custom properties named in ScaleProperties),
// read where the page draws. The scale is fixed, so the same number is
// the same colour everywhere and at every step. It is soft rather than
// clipped: a number v is drawn at strength |v| / (|v| + ScaleHalf), so 0.5
// is half strength, and 5 is still distinguishable from 50.
type Scale struct {
	neg, zero, pos, nan [3]float64
	strong, pale        string // the inks readable on strong and on pale colours
}

// ScaleProperties names the palette's custom properties the scale is made
// of, in NewScale's order: the negative end, zero, the positive end, NaN,
// the ink on strong colours and the ink on pale ones.
var ScaleProperties = [6]string{"--scale-neg", "--scale-zero", "--scale-pos", "--scale-nan", "--scale-ink-strong", "--scale-ink-pale"}

// NewScale returns the scale of the colours ("#rrggbb") of
// ScaleProperties, in its order; a colour that is not "#rrggbb" is an
// error naming its property.
func NewScale(colours [6]string) (*Scale, error) {
	s := new(Scale)
	var rgb [6][3]float64
	for i, c := range colours {
		v, ok := parseHex(c)
		if !ok {
			return nil, errors.New("the palette's " + ScaleProperties[i] + " is " + quote(c) + ", not a colour #rrggbb")
		}
		rgb[i] = v
	}
	s.neg, s.zero, s.pos, s.nan = rgb[0], rgb[1], rgb[2], rgb[3]
	s.strong, s.pale = colours[4], colours[5]
	return s, nil
}

func quote(s string) string { return "\"" + s + "\"" }

// parseHex reads "#rrggbb".
func parseHex(c string) ([3]float64, bool) {
	var v [3]float64
	if len(c) != 7 || c[0] != '#' {
		return v, false
	}
	for i := 1; i < 7; i++ {
		d := hexDigit(c[i])
		if d < 0 {
			return v, false
		}
		v[(i-1)/2] = 16*v[(i-1)/2] + float64(d)
	}
	return v, true
}

func hexDigit(b byte) int {
	switch {
	case '0' <= b && b <= '9':
		return int(b - '0')
	case 'a' <= b && b <= 'f':
		return int(b-'a') + 10
	case 'A' <= b && b <= 'F':
		return int(b-'A') + 10
	}
	return -1
}

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

// RGB returns the colour of v on the scale; NaN has the palette's NaN
// colour.
func (s *Scale) RGB(v float64) [3]byte {
	t := strength(v)
	end := s.pos
	if t < 0 {
		end, t = s.neg, -t
	}
	if math.IsNaN(v) {
		end, t = s.nan, 1
	}
	var c [3]byte
	for i := range 3 {
		c[i] = byte(math.Round(s.zero[i] + (end[i]-s.zero[i])*t))
	}
	return c
}

// Colour returns the CSS colour ("#rrggbb") of v on the scale, as RGB.
func (s *Scale) Colour(v float64) string {
	const hex = "0123456789abcdef"
	b := []byte{'#', 0, 0, 0, 0, 0, 0}
	for i, c := range s.RGB(v) {
		b[1+2*i], b[2+2*i] = hex[c>>4], hex[c&15]
	}
	return string(b)
}

// InkOn returns the text colour readable on Colour(v): of the palette's
// two inks, the one that contrasts more with it. With the page's palette
// that contrast is at least 4.5:1 (WCAG AA for normal text) on every
// colour of the scale; a test holds it.
func (s *Scale) InkOn(v float64) string {
	bg := s.Colour(v)
	if Contrast(s.strong, bg) >= Contrast(s.pale, bg) {
		return s.strong
	}
	return s.pale
}

// luminance is the WCAG relative luminance of a "#rrggbb" colour (black
// for anything else).
func luminance(hex string) float64 {
	rgb, _ := parseHex(hex)
	var l float64
	for i, w := range [3]float64{0.2126, 0.7152, 0.0722} {
		c := rgb[i] / 255
		if c <= 0.04045 {
			c /= 12.92
		} else {
			c = math.Pow((c+0.055)/1.055, 2.4)
		}
		l += w * c
	}
	return l
}

// Contrast is the WCAG contrast ratio of two "#rrggbb" colours.
func Contrast(a, b string) float64 {
	la, lb := luminance(a), luminance(b)
	return (max(la, lb) + 0.05) / (min(la, lb) + 0.05)
}

// LegendTicks are the numbers the scale's legend labels.
func LegendTicks() []float64 { return []float64{-2, -0.5, -0.1, 0, 0.1, 0.5, 2} }
