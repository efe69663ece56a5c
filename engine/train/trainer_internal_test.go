package train

import (
	"math"
	"testing"
)

func TestAllFinite(t *testing.T) {
	for n := 0; n < 11; n++ {
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(i) - 3.5
		}
		if !allFinite(d) {
			t.Fatalf("finite %v reported as not finite", d)
		}
		for i := range d {
			for _, bad := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
				keep := d[i]
				d[i] = bad
				if allFinite(d) {
					t.Fatalf("%v at %d of %d not noticed", bad, i, n)
				}
				d[i] = keep
			}
		}
	}
	if !allFinite([]float64{math.MaxFloat64, -math.MaxFloat64, math.SmallestNonzeroFloat64}) {
		t.Error("extreme finite values reported as not finite")
	}
}
