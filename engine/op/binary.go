package op

import (
	"math"

	"tapelab/engine/tensor"
)

// This file holds the elementwise binary ops beyond add, sub and mul: div,
// maximum and minimum.

var divOp = &Op{
	Name:     "div",
	Operands: []Operand{{Name: "A"}, {Name: "B"}},
	Formula:  "Y = A ⊘ B",
	Rule:     "dA = dY ⊘ B, dB = −(dY ⊘ B) ⊙ Y",
	Infer:    sameShape,
	// Division by zero is legitimate IEEE arithmetic (±Inf, or NaN for 0/0),
	// so div has no domain check.
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		a, b := x[0].Data, x[1].Data
		for i := range y.Data {
			y.Data[i] = a[i] / b[i]
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		b := x[1].Data
		for i, g := range dy.Data {
			q := g / b[i]
			if dx[0] != nil {
				dx[0].Data[i] = q
			}
			if dx[1] != nil {
				dx[1].Data[i] = -(q * y.Data[i])
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		b := x[1].Data
		for i := range dy.Data {
			t := 0.0
			if dx[0] != nil {
				t = dx[0].Data[i]
			}
			if dx[1] != nil {
				t -= y.Data[i] * dx[1].Data[i]
			}
			dy.Data[i] = t / b[i]
		}
	},
	// 0/B is ±0 unless B is 0 or NaN, and ±0·Y is ±0 unless Y is infinite or NaN.
	ZeroSafe: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) bool {
		for i, b := range x[1].Data {
			if !safeDivisor(b) || !finite(y.Data[i]) {
				return false
			}
		}
		return true
	},
	Why: whyDiv,
}

var maxOp = extremum("max", "Y = max(A, B)",
	"dA = dY ⊙ [A > B] + ½dY ⊙ [A = B], dB = dY ⊙ [B > A] + ½dY ⊙ [A = B]",
	math.Max, func(a, b float64) bool { return a < b })

var minOp = extremum("min", "Y = min(A, B)",
	"dA = dY ⊙ [A < B] + ½dY ⊙ [A = B], dB = dY ⊙ [B < A] + ½dY ⊙ [A = B]",
	math.Min, func(a, b float64) bool { return a > b })

// extremum builds the elementwise maximum or minimum. pick is math.Max or
// math.Min (NaN propagates; max(+0, −0) = +0). loses(a, b) reports that a is
// not selected against b. As in PyTorch's torch.maximum and torch.minimum,
// a tie sends half the cotangent to each operand, and where an operand is
// NaN both receive the whole cotangent.
func extremum(name, formula, rule string, pick func(a, b float64) float64, loses func(a, b float64) bool) *Op {
	// share passes g to the operand holding a, against the other operand b.
	// It selects instead of multiplying, so an infinite cotangent sent
	// nowhere leaves a 0, not NaN.
	share := func(g, a, b float64) float64 {
		switch {
		case a == b:
			return g * 0.5
		case loses(a, b):
			return 0
		}
		return g
	}
	return &Op{
		Name:     name,
		Operands: []Operand{{Name: "A"}, {Name: "B"}},
		Formula:  formula,
		Rule:     rule,
		Infer:    sameShape,
		Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
			a, b := x[0].Data, x[1].Data
			for i := range y.Data {
				y.Data[i] = pick(a[i], b[i])
			}
		},
		VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
			a, b := x[0].Data, x[1].Data
			for i, g := range dy.Data {
				if dx[0] != nil {
					dx[0].Data[i] = share(g, a[i], b[i])
				}
				if dx[1] != nil {
					dx[1].Data[i] = share(g, b[i], a[i])
				}
			}
		},
		JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
			a, b := x[0].Data, x[1].Data
			for i := range dy.Data {
				t := 0.0
				if dx[0] != nil {
					t = share(dx[0].Data[i], a[i], b[i])
				}
				if dx[1] != nil {
					t += share(dx[1].Data[i], b[i], a[i])
				}
				dy.Data[i] = t
			}
		},
		ZeroSafe: Always,
		Why:      noWhy,
	}
}
