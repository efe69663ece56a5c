package op

import "tapelab/engine/tensor"

var sumOp = &Op{
	Name:     "sum",
	Operands: []Operand{{Name: "X"}},
	Formula:  "y = Σ X",
	Rule:     "dX = dy (every entry)",
	Infer:    scalarOut,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		s := 0.0
		for _, v := range x[0].Data {
			s += v
		}
		y.Data[0] = s
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		dx[0].Fill(dy.Data[0])
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		s := 0.0
		for _, v := range dx[0].Data {
			s += v
		}
		dy.Data[0] = s
	},
	ZeroSafe: Always,
}

var meanOp = &Op{
	Name:     "mean",
	Operands: []Operand{{Name: "X"}},
	Formula:  "y = (1/n) Σ X",
	Rule:     "dX = dy / n (every entry)",
	Infer:    scalarOut,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		s := 0.0
		for _, v := range x[0].Data {
			s += v
		}
		y.Data[0] = s / float64(len(x[0].Data))
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		dx[0].Fill(dy.Data[0] / float64(len(dx[0].Data)))
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		s := 0.0
		for _, v := range dx[0].Data {
			s += v
		}
		dy.Data[0] = s / float64(len(dx[0].Data))
	},
	ZeroSafe: Always,
}
