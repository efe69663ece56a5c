package op

import (
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
		for i, v := range x[0].Data {
			y.Data[i] = math.Tanh(v)
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		for i, g := range dy.Data {
			t := y.Data[i]
			dx[0].Data[i] = g * (1 - t*t)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, y *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		for i, t := range dx[0].Data {
			v := y.Data[i]
			dy.Data[i] = t * (1 - v*v)
		}
	},
	ZeroSafe: Finite,
}

var reluOp = &Op{
	Name:     "relu",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = max(X, 0)",
	Rule:     "dX = dY ⊙ [X > 0]",
	Infer:    sameShape,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		for i, v := range x[0].Data {
			if v > 0 {
				y.Data[i] = v
			} else {
				y.Data[i] = 0
			}
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		for i, g := range dy.Data {
			if x[0].Data[i] > 0 {
				dx[0].Data[i] = g
			} else {
				dx[0].Data[i] = 0
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
}
