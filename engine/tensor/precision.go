package tensor

import (
	"fmt"
	"math"
)

// Precision is the arithmetic a tape runs in. Float64 (the zero value) is
// plain float64. Float32 is "float32 storage": every leaf is rounded to the
// nearest float32 on entry and every op's result (each forward value, each
// VJP contribution, each sum of gradients) is rounded to the nearest float32
// after the op, while the arithmetic inside one op (a matmul's dot
// products, a sum, a convolution) still runs in float64. Values stay
// float64 tensors holding float32 numbers.
type Precision uint8

// The precisions.
const (
	Float64 Precision = iota
	Float32
)

// String names the precision as flags, links and the page write it.
func (p Precision) String() string {
	if p == Float32 {
		return "float32"
	}
	return "float64"
}

// ParsePrecision reads "float64" or "float32" ("" is float64). The error for
// anything else starts with field, the flag or link field the text came
// from, unless field is "" (for callers that name it themselves, as the
// flag package does).
func ParsePrecision(field, s string) (Precision, error) {
	switch s {
	case "", "float64":
		return Float64, nil
	case "float32":
		return Float32, nil
	}
	err := fmt.Errorf("unknown precision %q (want float64 or float32)", s)
	if field != "" {
		err = fmt.Errorf("%s: %w", field, err)
	}
	return Float64, err
}

// Round rounds every element of t to the precision: nothing for Float64;
// for Float32 each element becomes the nearest float32 (round to nearest,
// ties to even), ±Inf and NaN stay, finite values beyond float32's range
// become ±Inf and tiny ones a subnormal or ±0, as IEEE 754 says.
func (p Precision) Round(t *Tensor) {
	if p == Float32 { // inlined: float64 costs this one comparison
		round32(t.Data)
	}
}

// round32 rounds every element of d to float32; one copy of the loop for
// every caller of Round.
//
//go:noinline
func round32(d []float64) {
	for i, v := range d {
		d[i] = float64(float32(v))
	}
}

// Round32 is x rounded to the nearest float32 (ties to even).
func Round32(x float64) float64 { return float64(float32(x)) }

// ULPs returns a − b in units of float32's spacing at b: the gap from
// |float32(b)| to the next float32 away from zero. A value and its float32
// rounding differ by at most 0.5. It is NaN when a or b is NaN or b is
// infinite.
func ULPs(a, b float64) float64 {
	m := math.Abs(float64(float32(b)))
	if m >= math.MaxFloat32 {
		if math.IsInf(m, 0) {
			return math.NaN()
		}
		return (a - b) / (m - float64(math.Nextafter32(float32(m), 0)))
	}
	return (a - b) / (float64(math.Nextafter32(float32(m), math.MaxFloat32)) - m)
}
