package op

import (
	"errors"
	"fmt"

	"tapelab/engine/tensor"
)

var matmulOp = &Op{
	Name:     "matmul",
	Operands: []Operand{{Name: "A"}, {Name: "B"}},
	Formula:  "Y = A·B",
	Rule:     "dA = dY·Bᵀ, dB = Aᵀ·dY",
	// [m k]·[k n]: m·k·n.
	Work: func(_ tensor.Shape, in []tensor.Shape, _ Attrs) float64 {
		return float64(in[0].Size()) * float64(in[1][1])
	},
	Infer: func(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
		if err := rank2("A", in[0]); err != nil {
			return dst, err
		}
		if err := rank2("B", in[1]); err != nil {
			return dst, err
		}
		if in[0][1] != in[1][0] {
			return dst, fmt.Errorf("inner dimensions differ (%d vs %d)", in[0][1], in[1][0])
		}
		return append(dst[:0], in[0][0], in[1][1]), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		tensor.Gemm(false, false, 1, x[0], x[1], 0, y)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if dx[0] != nil {
			tensor.Gemm(false, true, 1, dy, x[1], 0, dx[0])
		}
		if dx[1] != nil {
			tensor.Gemm(true, false, 1, x[0], dy, 0, dx[1])
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		dy.Fill(0)
		if dx[0] != nil {
			tensor.Gemm(false, false, 1, dx[0], x[1], 1, dy)
		}
		if dx[1] != nil {
			tensor.Gemm(false, false, 1, x[0], dx[1], 1, dy)
		}
	},
	ZeroSafe: Finite,
}

var linearOp = &Op{
	Name:     "linear",
	Operands: []Operand{{Name: "X"}, {Name: "W"}, {Name: "b"}},
	Formula:  "Y = X·Wᵀ + b",
	Rule:     "dX = dY·W, dW = dYᵀ·X, db = Σ_rows dY",
	// [batch in]·[out in]ᵀ: batch·in·out.
	Work: func(_ tensor.Shape, in []tensor.Shape, _ Attrs) float64 {
		return float64(in[0].Size()) * float64(in[1][0])
	},
	Infer: func(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
		x, w, b := in[0], in[1], in[2]
		if err := rank2("X", x); err != nil {
			return dst, err
		}
		if err := rank2("W", w); err != nil {
			return dst, err
		}
		if x[1] != w[1] {
			return dst, fmt.Errorf("X has %d features but W [out in] expects %d", x[1], w[1])
		}
		if len(b) != 1 || b[0] != w[0] {
			return dst, fmt.Errorf("b must have shape [%d], has %v", w[0], b)
		}
		return append(dst[:0], x[0], w[0]), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		tensor.GemmBias(false, true, x[0], x[1], x[2].Data, y) // X·Wᵀ with b added as each sum is stored
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if dx[0] != nil {
			tensor.Gemm(false, false, 1, dy, x[1], 0, dx[0])
		}
		if dx[1] != nil {
			tensor.Gemm(true, false, 1, dy, x[0], 0, dx[1])
		}
		if dx[2] != nil {
			sumRows(dx[2], dy)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		if dx[2] != nil {
			broadcastRows(dy, dx[2])
		} else {
			dy.Fill(0)
		}
		if dx[0] != nil {
			tensor.Gemm(false, true, 1, dx[0], x[1], 1, dy)
		}
		if dx[1] != nil {
			tensor.Gemm(false, true, 1, x[0], dx[1], 1, dy)
		}
	},
	ZeroSafe: Finite,
}

var addBiasOp = &Op{
	Name:     "add_bias",
	Operands: []Operand{{Name: "X"}, {Name: "b"}},
	Formula:  "Y = X + b (b added to every row)",
	Rule:     "dX = dY, db = Σ_rows dY",
	Infer: func(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
		x, b := in[0], in[1]
		if len(x) == 0 {
			return dst, errors.New("X must have at least one dimension")
		}
		if len(b) != 1 || b[0] != x[len(x)-1] {
			return dst, fmt.Errorf("b must have shape [%d] to match the last dimension of X, has %v", x[len(x)-1], b)
		}
		return append(dst[:0], x...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		n := len(x[1].Data)
		for i, v := range x[0].Data {
			y.Data[i] = v + x[1].Data[i%n]
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		copyInto(dx[0], dy)
		if dx[1] != nil {
			sumRows(dx[1], dy)
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		if dx[1] != nil {
			broadcastRows(dy, dx[1])
		} else {
			dy.Fill(0)
		}
		if dx[0] != nil {
			for i, v := range dx[0].Data {
				dy.Data[i] += v
			}
		}
	},
	ZeroSafe: Always,
}

// broadcastRows writes the row b into every row of y (y's last dimension = len(b)).
func broadcastRows(y, b *tensor.Tensor) {
	n := len(b.Data)
	for r := 0; r < len(y.Data); r += n {
		copy(y.Data[r:r+n], b.Data)
	}
}

// sumRows writes into db the sum over rows of dy, adding rows in order.
func sumRows(db, dy *tensor.Tensor) { tensor.SumRows(db, dy) }
