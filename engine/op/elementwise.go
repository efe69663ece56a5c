package op

import "tapelab/engine/tensor"

var addOp = &Op{
	Name:     "add",
	Operands: []Operand{{Name: "A"}, {Name: "B"}},
	Formula:  "Y = A + B",
	Rule:     "dA = dY, dB = dY",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		a, b := x[0].Data, x[1].Data
		for i := range y.Data {
			y.Data[i] = a[i] + b[i]
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		copyInto(dx[0], dy)
		copyInto(dx[1], dy)
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		linearTangent(dy, dx, 1, 1)
	},
	ZeroSafe: Always,
	Why:      whyAdd,
}

var subOp = &Op{
	Name:     "sub",
	Operands: []Operand{{Name: "A"}, {Name: "B"}},
	Formula:  "Y = A − B",
	Rule:     "dA = dY, dB = −dY",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		a, b := x[0].Data, x[1].Data
		for i := range y.Data {
			y.Data[i] = a[i] - b[i]
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		copyInto(dx[0], dy)
		if d := dx[1]; d != nil {
			for i, g := range dy.Data {
				d.Data[i] = -g
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		linearTangent(dy, dx, 1, -1)
	},
	ZeroSafe: Always,
	Why:      whySub,
}

var mulOp = &Op{
	Name:     "mul",
	Operands: []Operand{{Name: "A"}, {Name: "B"}},
	Formula:  "Y = A ⊙ B",
	Rule:     "dA = dY ⊙ B, dB = dY ⊙ A",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		a, b := x[0].Data, x[1].Data
		for i := range y.Data {
			y.Data[i] = a[i] * b[i]
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if d := dx[0]; d != nil {
			b := x[1].Data
			for i, g := range dy.Data {
				d.Data[i] = g * b[i]
			}
		}
		if d := dx[1]; d != nil {
			a := x[0].Data
			for i, g := range dy.Data {
				d.Data[i] = g * a[i]
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			for i, t := range dx[0].Data {
				dy.Data[i] += t * x[1].Data[i]
			}
		}
		if dx[1] != nil {
			for i, t := range dx[1].Data {
				dy.Data[i] += x[0].Data[i] * t
			}
		}
	},
	ZeroSafe: Finite,
	Why:      whyMul,
}

var negOp = &Op{
	Name:     "neg",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = −X",
	Rule:     "dX = −dY",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		for i, v := range x[0].Data {
			y.Data[i] = -v
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		for i, g := range dy.Data {
			dx[0].Data[i] = -g
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		linearTangent(dy, dx, -1)
	},
	ZeroSafe: Always,
	Why:      noWhy,
}

var scaleOp = &Op{
	Name:     "scale",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = c·X",
	Rule:     "dX = c·dY",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		for i, v := range x[0].Data {
			y.Data[i] = a.Alpha * v
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		for i, g := range dy.Data {
			dx[0].Data[i] = a.Alpha * g
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		linearTangent(dy, dx, a.Alpha)
	},
	// c·0 is ±0 for finite c; an infinite or NaN c is not certified.
	ZeroSafe: func(_ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) bool {
		return a.Alpha-a.Alpha == 0
	},
	Why: whyScale,
}

// copyInto copies src into dst when dst is wanted.
func copyInto(dst, src *tensor.Tensor) {
	if dst != nil {
		copy(dst.Data, src.Data)
	}
}

// linearTangent writes dy = Σ c[i]·dx[i] for ops that are linear maps of
// their operands with scalar coefficients; nil tangents count as zero.
func linearTangent(dy *tensor.Tensor, dx []*tensor.Tensor, c ...float64) {
	dy.Fill(0)
	for k, t := range dx {
		if t == nil {
			continue
		}
		for i, v := range t.Data {
			dy.Data[i] += c[k] * v
		}
	}
}
