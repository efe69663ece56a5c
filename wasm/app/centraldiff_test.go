package app

import (
	"math"
	"math/rand/v2"
	"testing"

	"gonum.org/v1/gonum/diff/fd"
)

// TestCentralDifferencesMatchGonum compares centralDifferences with gonum's
// fd.Gradient (fd.Central, the step given), bit for bit, including the
// order of f's calls, on functions whose differences round, cancel to ±0,
// overflow and give NaN.
func TestCentralDifferencesMatchGonum(t *testing.T) {
	funcs := map[string]func([]float64) float64{
		"sum of squares": func(x []float64) float64 {
			s := 0.0
			for _, v := range x {
				s += v * v
			}
			return s
		},
		"product": func(x []float64) float64 {
			p := 1.0
			for _, v := range x {
				p *= v
			}
			return p
		},
		"sin·exp":   func(x []float64) float64 { return math.Sin(x[0]) * math.Exp(x[len(x)-1]) },
		"-0":        func(x []float64) float64 { return math.Copysign(0, -1) },
		"zero in x": func(x []float64) float64 { return 0 * x[0] },
		"overflow":  func(x []float64) float64 { return math.Exp(800 * x[0]) },
		"nan":       func(x []float64) float64 { return math.Sqrt(x[0]) },
		"abs":       func(x []float64) float64 { return math.Abs(x[0]) + x[len(x)-1] },
	}
	r := rand.New(rand.NewPCG(1, 2))
	for name, f := range funcs {
		for _, h := range []float64{gradCheckStep, 1e-3, 0.5} {
			for trial := range 4 {
				x := make([]float64, 1+trial*2)
				for i := range x {
					x[i] = r.NormFloat64() * math.Pow(10, float64(r.IntN(7)-3))
				}
				if trial == 0 {
					x[0] = 0
				}
				var gotCalls, wantCalls [][]float64
				record := func(calls *[][]float64) func([]float64) float64 {
					return func(v []float64) float64 {
						*calls = append(*calls, append([]float64(nil), v...))
						return f(v)
					}
				}
				got := centralDifferences(record(&gotCalls), x, h)
				want := fd.Gradient(nil, record(&wantCalls), x, &fd.Settings{Formula: fd.Central, Step: h})
				if !sameFloatBits(got, want) {
					t.Errorf("%s, h=%g, x=%v: got %v, gonum %v", name, h, x, got, want)
				}
				if len(gotCalls) != len(wantCalls) {
					t.Fatalf("%s: %d calls of f, gonum makes %d", name, len(gotCalls), len(wantCalls))
				}
				for k := range gotCalls {
					if !sameFloatBits(gotCalls[k], wantCalls[k]) {
						t.Errorf("%s: call %d of f at %v, gonum's at %v", name, k, gotCalls[k], wantCalls[k])
					}
				}
			}
		}
	}
}

func sameFloatBits(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Float64bits(a[i]) != math.Float64bits(b[i]) {
			return false
		}
	}
	return true
}
