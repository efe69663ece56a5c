package op

import (
	"errors"
	"math"

	"tapelab/engine/tensor"
)

var tanhOp = &Op{
	Name:     "tanh",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = tanh(X)",
	Rule:     "dX = dY ⊙ (1 − Y²)",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		tensor.Tanh(y, x[0]) // same bits natively and in wasm, and fast in wasm
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		tensor.TanhVJP(dx[0], dy, y) // dx = dy ⊙ (1 − y²), a wasm loop in wasm
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		for i, t := range dx[0].Data {
			v := y.Data[i]
			dy.Data[i] = t * (1 - v*v)
		}
	},
	ZeroSafe: Finite,
	Why:      noWhy,
}

var reluOp = &Op{
	Name:     "relu",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = max(X, 0)",
	Rule:     "dX = dY ⊙ [X > 0]",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		ys := y.Data[:len(x[0].Data)] // no bounds checks in the loop
		for i, v := range x[0].Data {
			if v > 0 || v != v { // NaN passes through, as in PyTorch
				ys[i] = v
			} else {
				ys[i] = 0
			}
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		d, xs := dx[0].Data[:len(dy.Data)], x[0].Data[:len(dy.Data)]
		for i, g := range dy.Data {
			if xs[i] > 0 {
				d[i] = g
			} else {
				d[i] = 0
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		for i, t := range dx[0].Data {
			if x[0].Data[i] > 0 {
				dy.Data[i] = t
			} else {
				dy.Data[i] = 0
			}
		}
	},
	ZeroSafe: Always,
	Why:      noWhy,
}

var leakyReluOp = pointwise{
	name: "leaky_relu", formula: "Y = max(X, 0) + α·min(X, 0)", rule: "dX = dY ⊙ [X > 0] + α·dY ⊙ [X ≤ 0]",
	f: func(x float64, a Attrs) float64 {
		if x > 0 {
			return x
		}
		return a.Alpha * x
	},
	d: func(g, x, _ float64, a Attrs) float64 {
		if x > 0 {
			return g
		}
		return a.Alpha * g
	},
	check: func(a Attrs) error {
		if !finite(a.Alpha) {
			return errors.New("negative slope α must be finite")
		}
		return nil
	},
	zeroSafe: finiteAlpha,
}.op()

var sigmoidOp = pointwise{
	name: "sigmoid", formula: "Y = 1 / (1 + exp(−X))", rule: "dX = dY ⊙ Y ⊙ (1 − Y)",
	f: func(x float64, _ Attrs) float64 { return sigmoid(x) },
	d: func(g, _, y float64, _ Attrs) float64 { return g * (y * (1 - y)) },
	// Y lies in [0, 1] unless X is NaN.
	zeroSafe: finiteOutput,
}.op()

var geluOp = pointwise{
	name: "gelu", formula: "Y = X·Φ(X), Φ(X) = ½·erfc(−X/√2)", rule: "dX = dY ⊙ (Φ(X) + X·φ(X)), φ(X) = exp(−X²/2)/√(2π)",
	f: func(x float64, _ Attrs) float64 {
		if math.IsInf(x, -1) {
			return math.Copysign(0, -1) // the limit; −Inf·Φ(−Inf) would be NaN
		}
		return x * normalCDF(x)
	},
	d: func(g, x, _ float64, _ Attrs) float64 {
		if math.IsInf(x, 0) {
			if x > 0 {
				return g
			}
			return 0
		}
		return g * (normalCDF(x) + x*math.Exp(-0.5*x*x)*invSqrt2Pi)
	},
	// The local derivative is finite everywhere except at NaN.
	zeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) bool { return noNaN(x[0]) },
}.op()

const (
	invSqrt2   = 0.70710678118654752440084436210484903928483593768847
	invSqrt2Pi = 0.39894228040143267793994605993438186847585863116493
)

// normalCDF is Φ(x), the standard normal distribution function, in the
// erfc form that stays accurate for negative x (GELU's exact form:
// x·Φ(x) = 0.5·x·(1 + erf(x/√2)), PyTorch's approximate="none").
func normalCDF(x float64) float64 { return 0.5 * math.Erfc(-x*invSqrt2) }

// sigmoid is 1/(1+exp(−x)), computed without overflow for either sign.
func sigmoid(x float64) float64 {
	if x >= 0 {
		return 1 / (1 + math.Exp(-x))
	}
	e := math.Exp(x)
	return e / (1 + e)
}
