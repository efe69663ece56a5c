package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

var sumOp = &Op{
	Name:     "sum",
	Operands: []Operand{{Name: "X"}},
	Formula:  "y = Σ X",
	Rule:     "dX = dy (every entry)",
	Infer:    scalarOut,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) {
		y.Data[0] = total(x[0].Data)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		dx[0].Fill(dy.Data[0])
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		dy.Data[0] = total(dx[0].Data)
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
		y.Data[0] = total(x[0].Data) / float64(len(x[0].Data))
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		dx[0].Fill(dy.Data[0] / float64(len(dx[0].Data)))
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		dy.Data[0] = total(dx[0].Data) / float64(len(dx[0].Data))
	},
	ZeroSafe: Always,
}

var reduceSumOp = &Op{
	Name:     "reduce_sum",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = Σ_axis X",
	Rule:     "dX = dY broadcast along axis",
	Infer:    dropAxis,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		sumAxis(y, x[0], a.Axis, 1)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		spreadAxis(dx[0], dy, a.Axis, 1)
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		sumAxis(dy, dx[0], a.Axis, 1)
	},
	ZeroSafe: Always,
}

var reduceMeanOp = &Op{
	Name:     "reduce_mean",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = (1/n) Σ_axis X",
	Rule:     "dX = dY / n broadcast along axis",
	Infer:    dropAxis,
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		sumAxis(y, x[0], a.Axis, axisLen(x[0].Shape, a.Axis))
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		spreadAxis(dx[0], dy, a.Axis, axisLen(dx[0].Shape, a.Axis))
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		sumAxis(dy, dx[0], a.Axis, axisLen(dx[0].Shape, a.Axis))
	},
	ZeroSafe: Always,
}

// dropAxis is the shape rule of reduce_sum and reduce_mean: X's shape
// without the reduced axis (negative axes count from the end).
func dropAxis(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
	x := in[0]
	k, err := normAxis(a.Axis, len(x))
	if err != nil {
		return dst, err
	}
	dst = append(dst[:0], x[:k]...)
	return append(dst, x[k+1:]...), nil
}

// normAxis maps axis in [−rank, rank) to [0, rank).
func normAxis(axis, rank int) (int, error) {
	if axis < -rank || axis >= rank {
		return 0, fmt.Errorf("axis %d is out of range for rank %d", axis, rank)
	}
	if axis < 0 {
		axis += rank
	}
	return axis, nil
}

// axisLen is the length of a (checked) axis of s, as a float64 divisor.
func axisLen(s tensor.Shape, axis int) float64 {
	k, _ := normAxis(axis, len(s))
	return float64(s[k])
}

// splitAxis views s as [outer, n, inner] around the (checked) axis.
func splitAxis(s tensor.Shape, axis int) (outer, n, inner int) {
	k, _ := normAxis(axis, len(s))
	outer, inner = 1, 1
	for _, d := range s[:k] {
		outer *= d
	}
	for _, d := range s[k+1:] {
		inner *= d
	}
	return outer, s[k], inner
}

// sumAxis writes into y the sum of x along axis, adding the slices in axis
// order, divided by div (1 for a plain sum).
func sumAxis(y, x *tensor.Tensor, axis int, div float64) {
	outer, n, inner := splitAxis(x.Shape, axis)
	for o := 0; o < outer; o++ {
		row := y.Data[o*inner : (o+1)*inner]
		copy(row, x.Data[o*n*inner:])
		for k := 1; k < n; k++ {
			src := x.Data[(o*n+k)*inner:]
			for i := range row {
				row[i] += src[i]
			}
		}
		if div != 1 {
			for i := range row {
				row[i] /= div
			}
		}
	}
}

// spreadAxis writes dy/div into every slice of dx along axis.
func spreadAxis(dx, dy *tensor.Tensor, axis int, div float64) {
	outer, n, inner := splitAxis(dx.Shape, axis)
	for o := 0; o < outer; o++ {
		g := dy.Data[o*inner : (o+1)*inner]
		for k := 0; k < n; k++ {
			dst := dx.Data[(o*n+k)*inner : (o*n+k+1)*inner]
			for i, v := range g {
				dst[i] = v / div
			}
		}
	}
}

// total returns the sum of xs in index order.
func total(xs []float64) float64 {
	s := 0.0
	for _, v := range xs {
		s += v
	}
	return s
}
