package tensor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// rowsInputs returns n values with zeros of both signs, infinities, NaN
// and values of every size among them.
func rowsInputs(r *rand.Rand, n int) []float64 {
	special := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), 1e308, -1e-308, 0.5}
	xs := make([]float64, n)
	for i := range xs {
		if r.IntN(4) == 0 {
			xs[i] = special[r.IntN(len(special))]
		} else {
			xs[i] = (2*r.Float64() - 1) * math.Pow(10, 6*r.Float64()-3)
		}
	}
	return xs
}

// sameBits reports whether a and b are the same float64, any NaN matching any NaN.
func sameBits(a, b float64) bool {
	return math.Float64bits(a) == math.Float64bits(b) || math.IsNaN(a) && math.IsNaN(b)
}

// TestTanhVJPIsTheLoop checks TanhVJP against dy·(1 − y²) element by
// element, bit for bit, for sizes around the loops' lengths.
func TestTanhVJPIsTheLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 7, 16, 512, 1001} {
		dy, y := Vector(rowsInputs(r, n)...), Vector(rowsInputs(r, n)...)
		dx := Zeros(dy.Shape)
		TanhVJP(dx, dy, y)
		for i := range n {
			want := dy.Data[i] * (1 - y.Data[i]*y.Data[i])
			if !sameBits(dx.Data[i], want) {
				t.Fatalf("n=%d: dx[%d] = %v, want %v (dy %v, y %v)", n, i, dx.Data[i], want, dy.Data[i], y.Data[i])
			}
		}
		TanhVJP(dy, dy, y) // in place
		for i := range n {
			if !sameBits(dy.Data[i], dx.Data[i]) {
				t.Fatalf("n=%d, in place: dy[%d] = %v, want %v", n, i, dy.Data[i], dx.Data[i])
			}
		}
	}
}

// TestSumRowsIsTheLoop checks SumRows against sums taken row by row in
// order, bit for bit, for several shapes, one row among them.
func TestSumRowsIsTheLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, sh := range [][2]int{{1, 1}, {1, 16}, {2, 3}, {32, 1}, {32, 16}, {64, 128}, {5, 7}} {
		rows, n := sh[0], sh[1]
		x, _ := New(Shape{rows, n}, rowsInputs(r, rows*n))
		s := Zeros(Shape{n})
		SumRows(s, x)
		for j := range n {
			want := x.Data[j]
			for i := 1; i < rows; i++ {
				want += x.Data[i*n+j]
			}
			if !sameBits(s.Data[j], want) {
				t.Fatalf("%d×%d: s[%d] = %v, want %v", rows, n, j, s.Data[j], want)
			}
		}
	}
}
