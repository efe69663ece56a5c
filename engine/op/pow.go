package op

import (
	"errors"
	"fmt"
	"math"

	"tapelab/engine/tensor"
)

// powOp raises X to a constant power c (the attribute Alpha), like
// torch.pow(X, c) for a number c. A zero exponent has the zero derivative,
// as in PyTorch (not 0·X⁻¹, which is NaN at 0).
var powOp = pointwise{
	name: "pow", formula: "Y = X^c", rule: "dX = c·X^(c−1) ⊙ dY",
	f: func(x float64, a Attrs) float64 { return math.Pow(x, a.Alpha) },
	d: func(g, x, _ float64, a Attrs) float64 {
		if a.Alpha == 0 {
			return 0
		}
		return g * (a.Alpha * math.Pow(x, a.Alpha-1))
	},
	check: func(a Attrs) error {
		if !finite(a.Alpha) {
			return errors.New("exponent c = " + fmt.Sprint(a.Alpha) + " must be finite")
		}
		return nil
	},
	domain: func(x []*tensor.Tensor, a Attrs) error {
		if a.Alpha == math.Trunc(a.Alpha) {
			return nil
		}
		for i, v := range x[0].Data {
			if v < 0 {
				return fmt.Errorf("X%s = %v is negative and the exponent %v is not an integer", index(x[0].Shape, i), v, a.Alpha)
			}
		}
		return nil
	},
	why: func(xs []float64, y float64, a Attrs, f Float) string {
		x := xs[0]
		e := Num(x) + "^" + Num(a.Alpha)
		switch {
		case x == 0:
			return e + " = " + Num(y) + ": a negative power of 0"
		case x < 0 && a.Alpha != math.Trunc(a.Alpha):
			return e + " = NaN: a negative number to a fractional power"
		}
		return f.overflows(e)
	},
	// dX = 0·c·X^(c−1) is NaN where X^(c−1) is infinite or NaN.
	zeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, a Attrs) bool {
		if a.Alpha == 0 {
			return true
		}
		for _, v := range x[0].Data {
			if !finite(a.Alpha * math.Pow(v, a.Alpha-1)) {
				return false
			}
		}
		return true
	},
}.op()
