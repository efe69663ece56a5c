package op_test

import (
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// vjpCases are the cases of the VJP ops (op.VJPOps), appended to cases so
// that every gradient, adjoint, zero-safety and allocation test covers them.
var vjpCases = []opCase{
	{op: "tie_select", shapes: shapes{{2, 3}, {2, 3}}, gen: per(uniform, func(r *rand.Rand, _ int, t *tensor.Tensor) {
		fill(t, func() float64 { return float64(r.IntN(2)) })
	})},
	{op: "step_select", shapes: shapes{{2, 3}, {2, 3}}, gen: per(uniform, awayFrom0)},
	{op: "step_select", label: "leaky", attrs: op.Attrs{Alpha: 0.2}, shapes: shapes{{5}, {5}}, gen: per(uniform, awayFrom0)},
	{op: "normal_cdf", shapes: shapes{{2, 4}}},
	{op: "one_hot", shapes: shapes{{4, 3}, {4}}, gen: per(uniform, classes(3))},
	{op: "conv2d_input_grad", attrs: op.Attrs{Stride: 2, Padding: 1, Shape: tensor.Shape{2, 2, 5, 5}}, shapes: shapes{{2, 3, 3, 3}, {3, 2, 3, 3}}},
	{op: "conv2d_input_grad", label: "stride1", attrs: op.Attrs{Stride: 1, Shape: tensor.Shape{1, 1, 4, 3}}, shapes: shapes{{1, 2, 3, 2}, {2, 1, 2, 2}}},
	{op: "conv2d_weight_grad", attrs: op.Attrs{Stride: 2, Padding: 1, Shape: tensor.Shape{3, 2, 3, 3}}, shapes: shapes{{2, 2, 5, 5}, {2, 3, 3, 3}}},
	{op: "conv2d_weight_grad", label: "stride1", attrs: op.Attrs{Stride: 1, Shape: tensor.Shape{2, 1, 2, 2}}, shapes: shapes{{1, 1, 4, 3}, {1, 2, 3, 2}}},
	{op: "max_pool2d_scatter", attrs: op.Attrs{Kernel: 3, Stride: 2}, shapes: shapes{{2, 2, 2, 2}, {2, 2, 5, 5}}, gen: per(uniform, distinct)},
	{op: "max_pool2d_gather", attrs: op.Attrs{Kernel: 2, Stride: 2}, shapes: shapes{{1, 2, 4, 4}, {1, 2, 4, 4}}, gen: per(uniform, distinct)},
	{op: "avg_pool2d_scatter", attrs: op.Attrs{Kernel: 3, Stride: 2}, shapes: shapes{{2, 2, 2, 2}, {2, 2, 5, 5}}},
	{op: "avg_pool2d_scatter", label: "k2s1", attrs: op.Attrs{Kernel: 2, Stride: 1}, shapes: shapes{{1, 2, 2, 3}, {1, 2, 3, 4}}},
}

func init() { cases = append(cases, vjpCases...) }
