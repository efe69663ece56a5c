package op

import (
	"fmt"
	"math"
	"strconv"

	"tapelab/engine/tensor"
)

// pointwise describes an elementwise op of one operand X.
type pointwise struct {
	name, formula, rule string
	// f is the value Y = f(X).
	f func(x float64, a Attrs) float64
	// d is the local chain rule: the contribution to X of a cotangent g at
	// Y, given X = x and Y = y. It is linear in g, so it also maps a tangent
	// of X to the tangent of Y: one function serves both VJP and JVP.
	d func(g, x, y float64, a Attrs) float64
	// check, when set, validates the attributes (the shape rule calls it).
	check func(a Attrs) error
	// domain, when set, reports the values of X outside the op's domain.
	domain   func(x []*tensor.Tensor, a Attrs) error
	zeroSafe func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) bool
	// why, when set, is Op.Why (else noWhy).
	why func(x []float64, y float64, a Attrs, f Float) string
}

// op builds the catalogue entry of p.
func (p pointwise) op() *Op {
	f, d, check, why := p.f, p.d, p.check, p.why
	if why == nil {
		why = noWhy
	}
	return &Op{
		Name:     p.name,
		Operands: []Operand{{Name: "X"}},
		Formula:  p.formula,
		Rule:     p.rule,
		Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
			if check != nil {
				if err := check(a); err != nil {
					return dst, err
				}
			}
			return append(dst[:0], in[0]...), nil
		},
		Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
			for i, v := range x[0].Data {
				y.Data[i] = f(v, a)
			}
		},
		VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
			if dx[0] == nil {
				return
			}
			for i, g := range dy.Data {
				dx[0].Data[i] = d(g, x[0].Data[i], y.Data[i], a)
			}
		},
		JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
			if dx[0] == nil {
				dy.Fill(0)
				return
			}
			for i, t := range dx[0].Data {
				dy.Data[i] = d(t, x[0].Data[i], y.Data[i], a)
			}
		},
		Domain:   p.domain,
		ZeroSafe: p.zeroSafe,
		Why:      why,
	}
}

var expOp = pointwise{
	name: "exp", formula: "Y = exp(X)", rule: "dX = dY ⊙ Y",
	f: func(x float64, _ Attrs) float64 { return math.Exp(x) },
	d: func(g, _, y float64, _ Attrs) float64 { return g * y },
	// An overflowing exp gives +Inf, and 0·Inf is NaN.
	zeroSafe: finiteOutput,
	// (Go's amd64 exp overflows from 709.44 on, below float64's 709.78.)
	why: func(x []float64, _ float64, _ Attrs, f Float) string {
		return "exp(" + Num(x[0]) + ") = +∞: exp overflows above " + strconv.FormatFloat(f.ExpMax(), 'f', 2, 64) + " in " + f.Name
	},
}.op()

var logOp = pointwise{
	name: "log", formula: "Y = log(X)", rule: "dX = dY ⊘ X",
	f: func(x float64, _ Attrs) float64 { return math.Log(x) },
	d: func(g, x, _ float64, _ Attrs) float64 { return g / x },
	// log(0) = −Inf is a legitimate IEEE value; only X < 0 is outside the domain.
	domain: nonNegative("log"),
	why:    whyLog,
	zeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) bool {
		for _, v := range x[0].Data {
			if !safeDivisor(v) {
				return false
			}
		}
		return true
	},
}.op()

var sqrtOp = pointwise{
	name: "sqrt", formula: "Y = √X", rule: "dX = dY ⊘ (2Y)",
	f:      func(x float64, _ Attrs) float64 { return math.Sqrt(x) },
	d:      func(g, _, y float64, _ Attrs) float64 { return g / (2 * y) },
	domain: nonNegative("sqrt"),
	why:    whySqrt,
	// dX = 0/(2Y) is NaN where Y = 0.
	zeroSafe: func(y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) bool {
		for _, v := range y.Data {
			if !safeDivisor(v) {
				return false
			}
		}
		return true
	},
}.op()

var absOp = pointwise{
	name: "abs", formula: "Y = |X|", rule: "dX = dY ⊙ sign(X)",
	f: func(x float64, _ Attrs) float64 { return math.Abs(x) },
	// sign(0) = 0, as in PyTorch.
	d: func(g, x, _ float64, _ Attrs) float64 {
		switch {
		case x > 0:
			return g
		case x < 0:
			return -g
		}
		return 0
	},
	zeroSafe: Always,
}.op()

var squareOp = pointwise{
	name: "square", formula: "Y = X²", rule: "dX = 2·dY ⊙ X",
	f:        func(x float64, _ Attrs) float64 { return x * x },
	d:        func(g, x, _ float64, _ Attrs) float64 { return 2 * g * x },
	zeroSafe: finiteOperands,
	why:      func(x []float64, _ float64, _ Attrs, f Float) string { return f.overflows(Num(x[0]) + "²") },
}.op()

// whyLog explains a non-finite log(X): of 0, or of a negative X.
func whyLog(x []float64, y float64, _ Attrs, _ Float) string {
	if x[0] == 0 {
		return "log(0) = −∞"
	}
	return outside("log", x[0], y)
}

// whySqrt explains a NaN √X of a negative X.
func whySqrt(x []float64, y float64, _ Attrs, _ Float) string { return outside("√", x[0], y) }

// outside says that name(x) = y is outside the op's domain X ≥ 0.
func outside(name string, x, y float64) string {
	return name + "(" + Num(x) + ") = " + Num(y) + ": " + name + " needs X ≥ 0"
}

// noWhy is Op.Why of an elementwise op that makes no NaN or ∞ of finite
// operands: a non-finite value only passed on.
func noWhy([]float64, float64, Attrs, Float) string { return "" }

// nonNegative returns the domain check of an op defined for X ≥ 0 (−0
// included). NaN is not reported: it is not produced by the op, only passed on.
func nonNegative(name string) func(x []*tensor.Tensor, _ Attrs) error {
	return func(x []*tensor.Tensor, _ Attrs) error {
		for i, v := range x[0].Data {
			if v < 0 {
				return fmt.Errorf("X%s = %v is negative; %s needs X ≥ 0", index(x[0].Shape, i), v, name)
			}
		}
		return nil
	}
}

// index formats the multi-index of flat position i in shape s as "[1 2]".
func index(s tensor.Shape, i int) string {
	idx := make(tensor.Shape, len(s))
	for k := len(s) - 1; k >= 0; k-- {
		idx[k] = i % s[k]
		i /= s[k]
	}
	return idx.String()
}
