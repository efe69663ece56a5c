package tensor

import (
	"math"
	"strings"
	"testing"
)

func TestPrecisionRound(t *testing.T) {
	tiny := float64(math.SmallestNonzeroFloat32)
	cases := []struct {
		in, want float64
	}{
		{0.1, float64(float32(0.1))},
		{1 + 0x1p-24, 1},                     // a tie: to even (1)
		{1 + 3*0x1p-24, 1 + 0x1p-22},         // a tie: to even (1 + 2⁻²²)
		{1 + 0x1p-24 + 0x1p-40, 1 + 0x1p-23}, // above the tie: up
		{math.MaxFloat32 * 2, math.Inf(1)},   // beyond the range
		{-math.MaxFloat32 * 2, math.Inf(-1)}, // beyond the range
		{tiny * 1.4, tiny},                   // a subnormal
		{tiny * 0.4, 0},                      // underflow to +0
		{-tiny * 0.4, math.Copysign(0, -1)},  // underflow to −0
		{math.Inf(-1), math.Inf(-1)},         // kept
		{math.MaxFloat32, math.MaxFloat32},   // exact
		{16777217, 16777216},                 // 2²⁴ + 1: a tie, to even
	}
	x := Zeros(Shape{len(cases)})
	for i, c := range cases {
		x.Data[i] = c.in
	}
	y := x.Clone()
	Float64.Round(y)
	if !Identical(x, y) {
		t.Fatalf("Float64.Round changed %v to %v", x, y)
	}
	Float32.Round(y)
	for i, c := range cases {
		if got := y.Data[i]; math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("Round32(%g) = %g, want %g", c.in, got, c.want)
		}
		if got := Round32(c.in); math.Float64bits(got) != math.Float64bits(c.want) {
			t.Errorf("Round32(%g) = %g, want %g", c.in, got, c.want)
		}
	}
	n := Vector(math.NaN())
	Float32.Round(n)
	if !math.IsNaN(n.Data[0]) {
		t.Errorf("Round(NaN) = %v", n.Data[0])
	}
}

func TestParsePrecision(t *testing.T) {
	for _, c := range []struct {
		in   string
		want Precision
	}{{"", Float64}, {"float64", Float64}, {"float32", Float32}} {
		p, err := ParsePrecision("-precision", c.in)
		if err != nil || p != c.want {
			t.Errorf("ParsePrecision(%q) = %v, %v; want %v", c.in, p, err, c.want)
		}
		if c.in != "" && p.String() != c.in {
			t.Errorf("%v.String() = %q", p, p.String())
		}
	}
	for _, bad := range []string{"float16", "Float32", "f32", " float32"} {
		_, err := ParsePrecision("-precision", bad)
		if err == nil || !strings.HasPrefix(err.Error(), "-precision: ") || !strings.Contains(err.Error(), "want float64 or float32") {
			t.Errorf("ParsePrecision(%q) = %v; want an error naming -precision and the choices", bad, err)
		}
		if _, err := ParsePrecision("", bad); err == nil || !strings.HasPrefix(err.Error(), "unknown precision ") {
			t.Errorf("ParsePrecision(\"\", %q) = %v", bad, err)
		}
	}
}

func TestULPs(t *testing.T) {
	one := 1.0
	next := float64(math.Nextafter32(1, 2))
	cases := []struct {
		a, b, want float64
	}{
		{next, one, 1},
		{one, one, 0},
		{1 + 0x1p-24, one, 0.5},
		{-next, -one, -1},
		{0, float64(math.SmallestNonzeroFloat32), -1},
		{math.MaxFloat32, float64(math.Nextafter32(math.MaxFloat32, 0)), 1},
	}
	for _, c := range cases {
		if got := ULPs(c.a, c.b); got != c.want {
			t.Errorf("ULPs(%g, %g) = %g, want %g", c.a, c.b, got, c.want)
		}
	}
	if got := ULPs(0.1, Round32(0.1)); math.Abs(got) > 0.5 {
		t.Errorf("0.1 and its float32 are %g ulps apart, want at most 0.5", got)
	}
	if !math.IsNaN(ULPs(1, math.Inf(1))) || !math.IsNaN(ULPs(math.NaN(), 1)) {
		t.Error("ULPs with an infinite b or a NaN should be NaN")
	}
}
