package op

import "tapelab/engine/tensor"

var mseLossOp = &Op{
	Name:     "mse_loss",
	Operands: []Operand{{Name: "P"}, {Name: "T"}},
	Formula:  "L = (1/n) Σ (P − T)²",
	Rule:     "dP = dL · 2(P − T)/n, dT = −dL · 2(P − T)/n",
	Infer:    sameShapeScalar,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		p, t := x[0].Data, x[1].Data
		s := 0.0
		for i := range p {
			d := p[i] - t[i]
			s += d * d
		}
		y.Data[0] = s / float64(len(p))
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		p, t := x[0].Data, x[1].Data
		c := 2 * dy.Data[0] / float64(len(p))
		if d := dx[0]; d != nil {
			for i := range p {
				d.Data[i] = c * (p[i] - t[i])
			}
		}
		if d := dx[1]; d != nil {
			for i := range p {
				d.Data[i] = -c * (p[i] - t[i])
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		p, t := x[0].Data, x[1].Data
		s := 0.0
		for i := range p {
			d := 0.0
			if dx[0] != nil {
				d += dx[0].Data[i]
			}
			if dx[1] != nil {
				d -= dx[1].Data[i]
			}
			s += 2 * (p[i] - t[i]) * d
		}
		dy.Data[0] = s / float64(len(p))
	},
	ZeroSafe: Finite,
}
