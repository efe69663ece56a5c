package op_test

import (
	"math"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// TestVJPAtKinksAndTies pins the contributions where finite differences do
// not apply: at kinks, ties and infinities, each op's VJP follows PyTorch's
// convention (relu′(0) = 0, sign(0) = 0, ties of maximum/minimum split the
// cotangent in half, NaN takes it all) or the exact limit (gelu at ±∞).
func TestVJPAtKinksAndTies(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	v := tensor.Vector
	tests := []struct {
		op    string
		attrs op.Attrs
		x     []*tensor.Tensor
		dy    *tensor.Tensor
		want  [][]float64
	}{
		{"relu", op.Attrs{}, []*tensor.Tensor{v(0, -1, 2)}, v(3, 3, 3), [][]float64{{0, 0, 3}}},
		{"leaky_relu", op.Attrs{Alpha: 0.25}, []*tensor.Tensor{v(0, -1, 2)}, v(4, 4, 4), [][]float64{{1, 1, 4}}},
		{"abs", op.Attrs{}, []*tensor.Tensor{v(0, -1, 2)}, v(3, 3, 3), [][]float64{{0, -3, 3}}},
		{"max", op.Attrs{}, []*tensor.Tensor{v(1, 2, nan, 0), v(1, 1, 1, math.Copysign(0, -1))}, v(3, 3, 3, 3),
			[][]float64{{1.5, 3, 3, 1.5}, {1.5, 0, 3, 1.5}}},
		{"min", op.Attrs{}, []*tensor.Tensor{v(1, 2, 5), v(1, 1, nan)}, v(3, 3, 3),
			[][]float64{{1.5, 0, 3}, {1.5, 3, 3}}},
		{"max", op.Attrs{}, []*tensor.Tensor{v(2), v(1)}, v(inf), [][]float64{{inf}, {0}}}, // the loser gets 0, not 0·∞
		{"gelu", op.Attrs{}, []*tensor.Tensor{v(inf, -inf, 0)}, v(3, 3, 3), [][]float64{{3, 0, 1.5}}},
		{"sigmoid", op.Attrs{}, []*tensor.Tensor{v(inf, -inf, 0)}, v(4, 4, 4), [][]float64{{0, 0, 1}}},
		{"dropout", op.Attrs{Alpha: 0.5, Seed: 3}, []*tensor.Tensor{v(1, 1, 1, 1, 1, 1)}, v(1, 1, 1, 1, 1, 1), nil}, // mask = forward's
	}
	for _, tc := range tests {
		o, _ := op.Lookup(tc.op)
		y, err := o.Eval(tc.x, tc.attrs)
		if err != nil {
			t.Fatalf("%s: %v", tc.op, err)
		}
		dx := make([]*tensor.Tensor, len(tc.x))
		for i, x := range tc.x {
			dx[i] = tensor.Zeros(x.Shape)
		}
		o.VJP(dx, tc.dy, y, tc.x, tc.attrs)
		if tc.want == nil { // dropout: the VJP's mask is the forward's (dy = x = ones)
			tc.want = [][]float64{y.Data}
		}
		for i, w := range tc.want {
			if !tensor.Identical(dx[i], &tensor.Tensor{Shape: dx[i].Shape, Data: w}) {
				t.Errorf("%s%v: d%s = %v, want %v", tc.op, tc.x, o.Operands[i].Name, dx[i].Data, w)
			}
		}
	}
}
