package op

import (
	"math"

	"tapelab/engine/tensor"
)

// The ZeroSafe certificates below are narrower than Finite: each states
// exactly which saved values its op's VJP multiplies or divides a zero
// cotangent by, so that it certifies as many tapes as is true.

// finiteOperands certifies ops whose VJP multiplies the cotangent by operand
// values only (never by the output): every operand must be finite.
func finiteOperands(_ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) bool {
	for _, t := range x {
		if !t.Finite() {
			return false
		}
	}
	return true
}

// finiteOutput certifies ops whose VJP multiplies the cotangent by values
// of the output only: the output must be finite.
func finiteOutput(y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) bool {
	return y.Finite()
}

// finiteAlpha certifies ops whose VJP multiplies the cotangent by the
// attribute Alpha or passes it on: Alpha must be finite.
func finiteAlpha(_ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) bool {
	return a.Alpha-a.Alpha == 0
}

// noNaN reports whether t holds no NaN.
func noNaN(t *tensor.Tensor) bool {
	for _, v := range t.Data {
		if math.IsNaN(v) {
			return false
		}
	}
	return true
}

// safeDivisor reports whether 0/v is ±0: v is neither zero nor NaN
// (0/±Inf is ±0).
func safeDivisor(v float64) bool { return v != 0 && !math.IsNaN(v) }

// finite reports whether v is neither NaN nor ±Inf.
func finite(v float64) bool { return v-v == 0 }
