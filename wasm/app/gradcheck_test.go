package app

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

// TestCentralDifferencesAreGonums checks that the page's finite differences
// have the bits of gonum's diff/fd, which the engine's tests use.
func TestCentralDifferencesAreGonums(t *testing.T) {
	cases := []struct {
		name string
		f    func([]float64) float64
		x    []float64
	}{
		{"sum of squares", func(x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s += v * v
			}
			return s
		}, []float64{0.3, -1.7, 2e-3, 0}},
		{"tanh of a product", func(x []float64) float64 { return math.Tanh(x[0] * x[1]) }, []float64{0.7, -0.2}},
		{"log-sum-exp", func(x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s += math.Exp(v)
			}
			return math.Log(s)
		}, []float64{1, 2, 3, -4, 0.125}},
		{"changes its argument", func(x []float64) float64 {
			v := math.Sin(x[0]) + x[1]*x[0]
			x[0], x[1] = 99, -99
			return v
		}, []float64{0.4, 1.1}},
	}
	for _, c := range cases {
		x := append([]float64(nil), c.x...)
		got := centralDifferences(c.f, x)
		want := fd.Gradient(nil, c.f, c.x, &fd.Settings{Formula: fd.Central, Step: gradCheckStep})
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Errorf("%s: element %d is %v, gonum's is %v", c.name, i, got[i], want[i])
			}
			if x[i] != c.x[i] {
				t.Errorf("%s: x[%d] changed to %v", c.name, i, x[i])
			}
		}
	}
}
