package trainer

import (
	"math"
	"testing"
)

func TestSmooth(t *testing.T) {
	nan := math.NaN()
	for _, c := range []struct {
		name string
		v    []float64
		span float64
		want []float64
	}{
		{"empty", nil, 5, []float64{}},
		{"span 1 copies", []float64{3, 1, 2}, 1, []float64{3, 1, 2}},
		{"constant stays", []float64{2, 2, 2, 2}, 9, []float64{2, 2, 2, 2}},
		// a = 2/(3+1) = 0.5. Forward: 1, (0.5·0.5+0.5·2)/0.75 = 5/3.
		// Backward: 5/3, then (0.25·5/3 + 0.5·1)/0.75 = 11/9.
		{"two values", []float64{1, 2}, 3, []float64{11.0 / 9, 5.0 / 3}},
		{"NaN skipped", []float64{1, nan, 2}, 3, []float64{11.0 / 9, nan, 5.0 / 3}},
		{"Inf skipped", []float64{math.Inf(1), 4}, 3, []float64{nan, 4}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := Smooth(c.v, c.span)
			if len(got) != len(c.want) {
				t.Fatalf("len %d, want %d", len(got), len(c.want))
			}
			for i := range got {
				if math.IsNaN(c.want[i]) != math.IsNaN(got[i]) || !math.IsNaN(got[i]) && math.Abs(got[i]-c.want[i]) > 1e-12 {
					t.Errorf("Smooth(%v, %v)[%d] = %v, want %v", c.v, c.span, i, got[i], c.want[i])
				}
			}
		})
	}
}

// A noisy series around a falling trend: the smoothed series follows the
// trend closer than the raw one and moves less from record to record.
func TestSmoothFollowsTrend(t *testing.T) {
	n := 400
	v, trend := make([]float64, n), make([]float64, n)
	for i := range v {
		trend[i] = 1 - float64(i)/float64(n)/2
		v[i] = trend[i] + 0.1*math.Sin(float64(i)*2.3) // jitter faster than the span
	}
	s := Smooth(v, SmoothSpan(n))
	errRaw, errSmooth, moveRaw, moveSmooth := 0.0, 0.0, 0.0, 0.0
	for i := 1; i < n; i++ {
		errRaw += math.Abs(v[i] - trend[i])
		errSmooth += math.Abs(s[i] - trend[i])
		moveRaw += math.Abs(v[i] - v[i-1])
		moveSmooth += math.Abs(s[i] - s[i-1])
	}
	if errSmooth > errRaw/5 {
		t.Errorf("smoothed series is %.3g from the trend, the raw one %.3g: want a fifth or less", errSmooth, errRaw)
	}
	if moveSmooth > moveRaw/10 {
		t.Errorf("smoothed series moves %.3g, the raw one %.3g: want a tenth or less", moveSmooth, moveRaw)
	}
}

// A sudden fall stays where it happened: the smoothed step is symmetric
// about it, where a one-way average would put its middle span records
// later.
func TestSmoothHasNoLag(t *testing.T) {
	v := make([]float64, 100)
	for i := range v {
		if i < 50 {
			v[i] = 1
		}
	}
	s := Smooth(v, 10)
	for d := 0; d < 20; d++ {
		if got := s[49-d] + s[50+d]; math.Abs(got-1) > 1e-3 {
			t.Errorf("s[%d] + s[%d] = %v, want 1 (a step centred on the fall)", 49-d, 50+d, got)
		}
	}
	// One span from the fall the step is within 10% of its level.
	if s[39] < 0.9 || s[60] > 0.1 {
		t.Errorf("the step is smeared: s[39] = %v, s[60] = %v", s[39], s[60])
	}
}

func TestSmoothSpan(t *testing.T) {
	for _, c := range []struct {
		n    int
		want float64
	}{{0, 1}, {7, 1}, {8, 1}, {40, 2}, {400, 20}} {
		if got := SmoothSpan(c.n); got != c.want {
			t.Errorf("SmoothSpan(%d) = %v, want %v", c.n, got, c.want)
		}
	}
}
