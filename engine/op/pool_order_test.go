package op

import (
	"math"
	"math/rand/v2"
	"testing"

	"tapelab/engine/tensor"
)

// winnerScan is the max pool's winner as it was first written (3339261):
// from −Inf, an element wins when it is greater than the best so far or NaN.
func winnerScan(xs []float64, at, w, ks int) int {
	best, win := math.Inf(-1), at
	for p := 0; p < ks; p++ {
		for q := 0; q < ks; q++ {
			if v := xs[at+p*w+q]; v > best || math.IsNaN(v) {
				best, win = v, at+p*w+q
			}
		}
	}
	return win
}

// TestPoolWinnerKeepsTheScan checks winner, its 2×2 form included, against
// the first scan on windows full of ties, NaNs, infinities and signed
// zeros, and that the pool's forward and VJP route through it.
func TestPoolWinnerKeepsTheScan(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 40))
	values := []float64{math.NaN(), math.Inf(-1), math.Inf(1), math.Copysign(0, -1), 0, 1, -1, 2}
	x := tensor.Zeros(tensor.Shape{4, 3, 7, 7})
	for i := range x.Data {
		x.Data[i] = values[r.IntN(len(values))]
	}
	for _, a := range []Attrs{{Kernel: 1, Stride: 1}, {Kernel: 2, Stride: 2}, {Kernel: 2, Stride: 1}, {Kernel: 3, Stride: 2}, {Kernel: 3, Stride: 3}} {
		ys, err := poolShape(nil, []tensor.Shape{x.Shape}, a)
		if err != nil {
			t.Fatal(err)
		}
		y, dy, dx, want := tensor.Zeros(ys), tensor.Zeros(ys), tensor.Zeros(x.Shape), tensor.Zeros(x.Shape)
		for i := range dy.Data {
			dy.Data[i] = float64(i%5) - 2
		}
		maxPoolInto(y, x, a)
		maxPoolBack(dx, dy, y, x, a)
		k := 0
		for plane := 0; plane < 12; plane++ {
			for i := 0; i < ys[2]; i++ {
				for j := 0; j < ys[3]; j++ {
					at := plane*49 + i*a.Stride*7 + j*a.Stride
					win := winnerScan(x.Data, at, 7, a.Kernel)
					if got := winner(x.Data, at, 7, a.Kernel); got != win {
						t.Fatalf("%+v: window at %d: winner %d, the scan's %d", a, at, got, win)
					}
					if math.Float64bits(y.Data[k]) != math.Float64bits(x.Data[win]) {
						t.Fatalf("%+v: Y[%d] = %v, want X[%d] = %v", a, k, y.Data[k], win, x.Data[win])
					}
					want.Data[win] += dy.Data[k]
					k++
				}
			}
		}
		for i := range want.Data {
			if math.Float64bits(dx.Data[i]) != math.Float64bits(want.Data[i]) {
				t.Fatalf("%+v: dX[%d] = %v, want %v", a, i, dx.Data[i], want.Data[i])
			}
		}
	}
}
