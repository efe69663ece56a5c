package op

import (
	"math"
	"strconv"

	"tapelab/engine/tensor"
)

// Float is the floating-point format values are stored in, as the reasons
// for a non-finite value quote it: its name and its largest finite value.
// Float64 is the only one today; a float32 format plugs in as
// Float{"float32", math.MaxFloat32}, where exp overflows above 88.72.
type Float struct {
	Name string
	Max  float64
}

// Float64 is IEEE 754 double precision, the format every tensor holds.
var Float64 = Float{"float64", math.MaxFloat64}

// ExpMax is the largest x whose exp is finite in f: 709.78 in float64,
// 88.72 in float32.
func (f Float) ExpMax() float64 { return math.Log(f.Max) }

// overflows says that expr is beyond f's largest value.
func (f Float) overflows(expr string) string {
	return expr + " overflows: beyond " + f.Name + "'s largest value " + Num(f.Max)
}

// Num formats v as a reason quotes it: NaN, +∞, −∞ or six significant digits.
func Num(v float64) string {
	switch {
	case math.IsNaN(v):
		return "NaN"
	case math.IsInf(v, 1):
		return "+∞"
	case math.IsInf(v, -1):
		return "−∞"
	}
	return strconv.FormatFloat(v, 'g', 6, 64)
}

// Index formats the multi-index of flat position i in shape s, e.g. "[1 2]".
func Index(s tensor.Shape, i int) string { return index(s, i) }

// FirstNonFinite returns the flat index of t's first NaN or infinite
// element, or -1 when every element is finite.
func FirstNonFinite(t *tensor.Tensor) int {
	for i, v := range t.Data {
		if !finite(v) {
			return i
		}
	}
	return -1
}

// whyAdd explains a non-finite A + B from its operands.
func whyAdd(x []float64, _ float64, _ Attrs, f Float) string {
	return whySum(x[0], x[1], Num(x[0])+" + "+Num(x[1]), f)
}

// whySub explains a non-finite A − B from its operands.
func whySub(x []float64, _ float64, _ Attrs, f Float) string {
	return whySum(x[0], -x[1], Num(x[0])+" − "+Num(x[1]), f)
}

// whySum explains a non-finite a + b, written e.
func whySum(a, b float64, e string, f Float) string {
	switch {
	case math.IsInf(a, 0) && math.IsInf(b, 0) && a != b:
		return e + " = NaN"
	case finite(a) && finite(b):
		return f.overflows(e)
	}
	return ""
}

// whyMul explains a non-finite A ⊙ B.
func whyMul(x []float64, _ float64, _ Attrs, f Float) string {
	a, b := x[0], x[1]
	switch {
	case a == 0 && math.IsInf(b, 0) || b == 0 && math.IsInf(a, 0):
		return Num(a) + " · " + Num(b) + " = NaN"
	case finite(a) && finite(b):
		return f.overflows(Num(a) + " · " + Num(b))
	}
	return ""
}

// whyDiv explains a non-finite A ⊘ B.
func whyDiv(x []float64, y float64, _ Attrs, f Float) string {
	a, b := x[0], x[1]
	q := Num(a) + " / " + Num(b)
	switch {
	case a == 0 && b == 0, math.IsInf(a, 0) && math.IsInf(b, 0):
		return q + " = NaN"
	case b == 0 && finite(a):
		return q + " = " + Num(y) + ": division by zero"
	case finite(a) && finite(b):
		return f.overflows(q)
	}
	return ""
}

// whyScale explains a non-finite c·X.
func whyScale(x []float64, y float64, a Attrs, f Float) string {
	return whyMul([]float64{a.Alpha, x[0]}, y, a, f)
}
