package op

import (
	"fmt"
	"math"

	"tapelab/engine/tensor"
)

var mseLossOp = &Op{
	Name:     "mse_loss",
	Operands: []Operand{{Name: "P"}, {Name: "T"}},
	Formula:  "L = (1/n) Σ (P − T)²",
	Rule:     "dP = dL · 2(P − T)/n, dT = −dL · 2(P − T)/n",
	Infer:    sameShapeScalar,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		p := x[0].Data
		t := x[1].Data[:len(p)] // no bounds checks in the loops
		s := 0.0
		for i := range p {
			d := p[i] - t[i]
			s += d * d
		}
		y.Data[0] = s / float64(len(p))
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		p := x[0].Data
		t := x[1].Data[:len(p)]
		c := 2 * dy.Data[0] / float64(len(p))
		if d := dx[0]; d != nil {
			ds := d.Data[:len(p)]
			for i := range p {
				ds[i] = c * (p[i] - t[i])
			}
		}
		if d := dx[1]; d != nil {
			ds := d.Data[:len(p)]
			for i := range p {
				ds[i] = -c * (p[i] - t[i])
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

var crossEntropyOp = &Op{
	Name:     "cross_entropy",
	Operands: []Operand{{Name: "Z"}, {Name: "c", NoGrad: true}},
	Formula:  "L = (1/B) Σ_b (log Σ_j exp(Z[b,j]) − Z[b,c[b]])",
	Rule:     "dZ = dL · (softmax(Z) − onehot(c)) / B",
	Infer: func(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
		z, c := in[0], in[1]
		if err := rank2("logits Z [B C]", z); err != nil {
			return dst, err
		}
		if len(c) != 1 || c[0] != z[0] {
			return dst, fmt.Errorf("class indices c must have shape [%d] (one per row of Z), has %v", z[0], c)
		}
		return dst[:0], nil
	},
	Domain: func(x []*tensor.Tensor, _ Attrs) error {
		classes := x[0].Shape[1]
		for b, v := range x[1].Data {
			if classIndex(v, classes) < 0 {
				if v != math.Trunc(v) {
					return fmt.Errorf("row %d: class index %v is not an integer", b, v)
				}
				return fmt.Errorf("row %d: class index %v is out of range [0, %d)", b, v, classes)
			}
		}
		return nil
	},
	// An invalid class index (which Domain reports on checked paths) gives NaN.
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		z, classes := x[0], x[0].Shape[1]
		s := 0.0
		for b, v := range x[1].Data {
			row := z.Data[b*classes : (b+1)*classes]
			m, e := logSumExpParts(row)
			if c := classIndex(v, classes); c >= 0 {
				s += m + math.Log(e) - row[c]
			} else {
				s = math.NaN() // an out-of-range class (unchecked path) poisons the mean
			}
		}
		y.Data[0] = s / float64(len(x[1].Data))
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if dx[0] == nil {
			return
		}
		z, classes := x[0], x[0].Shape[1]
		g := dy.Data[0] / float64(len(x[1].Data))
		for b, v := range x[1].Data {
			row, d := z.Data[b*classes:(b+1)*classes], dx[0].Data[b*classes:(b+1)*classes]
			m, e := rowMax(row), 0.0
			for j, zj := range row { // the terms of logSumExpParts, kept in dZ
				d[j] = math.Exp(zj - m)
				e += d[j]
			}
			c := classIndex(v, classes)
			for j := range d {
				p := d[j] / e
				if j == c {
					p--
				}
				d[j] = g * p
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if dx[0] == nil {
			dy.Data[0] = 0
			return
		}
		z, classes := x[0], x[0].Shape[1]
		s := 0.0
		for b, v := range x[1].Data {
			row, t := z.Data[b*classes:(b+1)*classes], dx[0].Data[b*classes:(b+1)*classes]
			m, e := logSumExpParts(row)
			c := classIndex(v, classes)
			for j, zj := range row {
				p := math.Exp(zj-m) / e
				if j == c {
					p--
				}
				s += p * t[j]
			}
		}
		dy.Data[0] = s / float64(len(x[1].Data))
	},
	// softmax(Z) − onehot(c) is finite whenever Z is.
	ZeroSafe: func(_ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) bool { return x[0].Finite() },
}

// classIndex returns v as a class index in [0, classes), or −1 when v is
// not an integer in that range (NaN included).
func classIndex(v float64, classes int) int {
	if !(v >= 0 && v < float64(classes)) || v != math.Trunc(v) {
		return -1
	}
	return int(v)
}

var bceWithLogitsOp = &Op{
	Name:     "bce_with_logits",
	Operands: []Operand{{Name: "Z"}, {Name: "T"}},
	Formula:  "L = (1/n) Σ (max(Z, 0) − Z ⊙ T + log(1 + exp(−|Z|)))",
	Rule:     "dZ = dL · (σ(Z) − T) / n, dT = −dL · Z / n",
	Infer:    sameShapeScalar,
	// Forward computes each term as bce does, so that ±Inf logits give the
	// exact loss (0 when the target agrees, +Inf otherwise), never NaN.
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		z, t := x[0].Data, x[1].Data
		s := 0.0
		for i, v := range z {
			s += bce(v, t[i])
		}
		y.Data[0] = s / float64(len(z))
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		z, t := x[0].Data, x[1].Data
		g := dy.Data[0] / float64(len(z))
		if d := dx[0]; d != nil {
			for i, v := range z {
				d.Data[i] = g * (sigmoid(v) - t[i])
			}
		}
		if d := dx[1]; d != nil {
			for i, v := range z {
				d.Data[i] = -(g * v)
			}
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		z, t := x[0].Data, x[1].Data
		s := 0.0
		for i, v := range z {
			if dx[0] != nil {
				s += (sigmoid(v) - t[i]) * dx[0].Data[i]
			}
			if dx[1] != nil {
				s -= v * dx[1].Data[i]
			}
		}
		dy.Data[0] = s / float64(len(z))
	},
	ZeroSafe: finiteOperands,
}

// bce is one term of bce_with_logits, max(z, 0) − z·t + log(1 + exp(−|z|)),
// written per sign of z as z·(1 − t) or −z·t so that a factor that is
// exactly 0 (the target agrees with an infinite logit) gives 0, not 0·∞.
func bce(z, t float64) float64 {
	if z > 0 {
		return timesFactor(z, 1-t) + math.Log1p(math.Exp(-z))
	}
	return timesFactor(-z, t) + math.Log1p(math.Exp(z))
}

// timesFactor returns a·c, taking 0·a as exactly 0 even for infinite a.
func timesFactor(a, c float64) float64 {
	if c == 0 {
		return 0
	}
	return a * c
}
