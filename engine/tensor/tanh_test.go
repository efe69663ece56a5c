package tensor

import (
	"math"
	"math/rand/v2"
	"runtime"
	"testing"
)

// tanhInputs covers every branch of tanh: zeros of both signs, the
// rational branch, the exp branch, saturation, the branch edges, ±Inf, NaN.
func tanhInputs() []float64 {
	xs := []float64{0, math.Copysign(0, -1), 1e-300, 0.1, 0.5, 0.625, math.Nextafter(0.625, 0), 1, 3, 20,
		44.014845965556525, 44.01484596555653, 50, 1e300, math.Inf(1), math.NaN(), math.SmallestNonzeroFloat64}
	for _, x := range xs[:len(xs):len(xs)] {
		xs = append(xs, -x)
	}
	r := rand.New(rand.NewPCG(7, 8))
	for range 200000 {
		xs = append(xs, (2*r.Float64()-1)*math.Pow(10, 3*r.Float64()-2))
	}
	return xs
}

// TestTanhIsMathTanh checks Tanh against math.Tanh: bit for bit in wasm,
// where math.Tanh runs the same portable algorithm; natively math.Exp may be
// assembly, so outside the branch that avoids exp Tanh may differ by a few
// units in the last place (exp's last-bit difference, amplified by 1 − 2/(s+1)).
func TestTanhIsMathTanh(t *testing.T) {
	xs := tanhInputs()
	x := Vector(xs...)
	y := Zeros(x.Shape)
	Tanh(y, x)
	exact := runtime.GOARCH == "wasm"
	off := 0
	for i, v := range xs {
		want, got := math.Tanh(v), y.Data[i]
		if math.Float64bits(got) == math.Float64bits(want) || math.IsNaN(got) && math.IsNaN(want) {
			continue
		}
		if exact || math.Abs(v) < 0.625 || ulps(got, want) > 4 {
			t.Fatalf("Tanh(%v) = %v (%#x), math.Tanh gives %v (%#x)", v, got, math.Float64bits(got), want, math.Float64bits(want))
		}
		off++
	}
	t.Logf("%d of %d results differ from math.Tanh (GOARCH %s)", off, len(xs), runtime.GOARCH)
}

// ulps is the distance between two finite floats of the same sign in units
// in the last place.
func ulps(a, b float64) uint64 {
	x, y := math.Float64bits(a), math.Float64bits(b)
	if x > y {
		return x - y
	}
	return y - x
}

func BenchmarkTanh(b *testing.B) {
	x := Zeros(Shape{32, 16})
	for i := range x.Data {
		x.Data[i] = float64(i)/256 - 1
	}
	y := Zeros(x.Shape)
	b.Run("tensor.Tanh", func(b *testing.B) {
		for b.Loop() {
			Tanh(y, x)
		}
	})
	b.Run("math.Tanh", func(b *testing.B) {
		for b.Loop() {
			for i, v := range x.Data {
				y.Data[i] = math.Tanh(v)
			}
		}
	})
}
