package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

// broadcastToOp is NumPy's and PyTorch's broadcast_to (PyTorch's expand):
// X's dimensions are aligned with the target shape from the right, and each
// one must equal the target's or be 1 (then it is repeated); missing leading
// dimensions are added. It is what elementwise arithmetic on tensors of
// different shapes is made of: broadcast each operand, then apply add, sub,
// mul or div to alike shapes.
var broadcastToOp = &Op{
	Name:     "broadcast_to",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = X repeated along the broadcast axes to shape",
	Rule:     "dX = dY summed over the broadcast axes",
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if err := Broadcastable(in[0], a.Shape); err != nil {
			return dst, err
		}
		return append(dst[:0], a.Shape...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		src := broadcastIndex(x[0].Shape, y.Shape)
		for i := range y.Data {
			y.Data[i] = x[0].Data[src(i)]
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		if dx[0] == nil {
			return
		}
		dx[0].Fill(0)
		src := broadcastIndex(dx[0].Shape, dy.Shape)
		for i, g := range dy.Data {
			dx[0].Data[src(i)] += g
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		if dx[0] == nil {
			dy.Fill(0)
			return
		}
		src := broadcastIndex(dx[0].Shape, dy.Shape)
		for i := range dy.Data {
			dy.Data[i] = dx[0].Data[src(i)]
		}
	},
	ZeroSafe: Always,
}

// Broadcastable reports why x cannot be broadcast to shape to (NumPy's rule:
// align from the right; each dimension of x equals to's or is 1; to has at
// least x's rank and no dimension below 1), or nil when it can.
func Broadcastable(x, to tensor.Shape) error {
	if !to.Valid() {
		return fmt.Errorf("target shape %v has a dimension below 1", to)
	}
	if len(x) > len(to) {
		return fmt.Errorf("cannot broadcast rank %d to the smaller rank %d of %v", len(x), len(to), to)
	}
	off := len(to) - len(x)
	for i, d := range x {
		if d != 1 && d != to[off+i] {
			return fmt.Errorf("size %d of axis %d does not broadcast to %d (only sizes equal or 1 do)", d, i, to[off+i])
		}
	}
	return nil
}

// broadcastIndex returns the map from a flat index of the broadcast shape
// to to the flat index of the (broadcastable) shape from that it repeats.
func broadcastIndex(from, to tensor.Shape) func(int) int {
	// stride[k] is from's stride along target axis k, 0 where it repeats.
	stride := make([]int, len(to))
	off := len(to) - len(from)
	s := 1
	for k := len(from) - 1; k >= 0; k-- {
		if from[k] != 1 {
			stride[off+k] = s
		}
		s *= from[k]
	}
	return func(i int) int {
		j := 0
		for k := len(to) - 1; k >= 0; k-- {
			j += (i % to[k]) * stride[k]
			i /= to[k]
		}
		return j
	}
}
