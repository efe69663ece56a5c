package app

import (
	"math"
	"testing"
)

// TestGradCheckIsCentralDifferences pins the numeric side of the gradient
// check to central differences with step h = gradCheckStep: for a³ at 3
// they give 3a² + h² = 27 + 1e-10, where forward differences would give
// 27 + 9e-5, within the check's tolerance and so unseen by the other tests.
// At relu's kink the check must fail: the tape says 0, the differences ½.
func TestGradCheckIsCentralDifferences(t *testing.T) {
	for _, tt := range []struct {
		name, text        string
		analytic, numeric float64
		ok                bool
	}{
		{"cube", "a = param(3.0)\ny = a * a * a\n", 27, 27 + gradCheckStep*gradCheckStep, true},
		{"relu at its kink", "a = param(0.0)\ny = relu(a)\n", 0, 0.5, false},
	} {
		p, err := NewProgramPlayground(tt.text)
		if err != nil {
			t.Fatal(err)
		}
		gc, err := p.GradCheck(nil)
		if err != nil {
			t.Fatal(err)
		}
		if gc.Checked != 1 || gc.Param != "a" || gc.Index != 0 || gc.OK != tt.ok {
			t.Errorf("%s: %+v, want one element of a checked, OK %v", tt.name, gc, tt.ok)
		}
		if gc.Analytic != tt.analytic {
			t.Errorf("%s: the tape's gradient is %v, want %v", tt.name, gc.Analytic, tt.analytic)
		}
		// Rounding leaves about 27·2⁻⁵²/h ≈ 6e-10 in the cube's difference.
		if math.Abs(gc.Numeric-tt.numeric) > 1e-8 {
			t.Errorf("%s: the finite difference is %.12g, want %.12g (central, h = %g)", tt.name, gc.Numeric, tt.numeric, gradCheckStep)
		}
	}
}
