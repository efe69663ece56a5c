package op_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// shapeErrors lists, per op, operand shapes (and attributes) that the shape
// rule must reject, and a fragment of the message it must give. Op.Shape
// prefixes every message with the op name and all operand shapes, which the
// test checks too.
var shapeErrors = []struct {
	op     string
	attrs  op.Attrs
	shapes []tensor.Shape
	want   string
}{
	{"add", op.Attrs{}, shapes{{2, 3}, {3, 2}}, "operand shapes differ"},
	{"sub", op.Attrs{}, shapes{{2}, {3}}, "operand shapes differ"},
	{"mul", op.Attrs{}, shapes{{2, 3}, {2}}, "operand shapes differ"},
	{"div", op.Attrs{}, shapes{{1}, {2}}, "operand shapes differ"},
	{"max", op.Attrs{}, shapes{{2, 2}, {4}}, "operand shapes differ"},
	{"min", op.Attrs{}, shapes{{2, 2}, {2, 2, 1}}, "operand shapes differ"},
	{"neg", op.Attrs{}, shapes{{2}, {2}}, "takes 1 operands, got 2"},
	{"scale", op.Attrs{}, shapes{}, "takes 1 operands, got 0"},
	{"add_bias", op.Attrs{}, shapes{{2, 3}, {2}}, "b must have shape [3]"},
	{"matmul", op.Attrs{}, shapes{{2, 3}, {4, 5}}, "inner dimensions differ (3 vs 4)"},
	{"linear", op.Attrs{}, shapes{{4, 3}, {2, 5}, {2}}, "X has 3 features but W [out in] expects 5"},
	{"tanh", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"relu", op.Attrs{}, shapes{}, "takes 1 operands, got 0"},
	{"leaky_relu", op.Attrs{Alpha: math.NaN()}, shapes{{3}}, "negative slope α must be finite"},
	{"sigmoid", op.Attrs{}, shapes{{1}, {1}, {1}}, "takes 1 operands, got 3"},
	{"gelu", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"exp", op.Attrs{}, shapes{}, "takes 1 operands, got 0"},
	{"log", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"sqrt", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"abs", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"square", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"pow", op.Attrs{Alpha: math.Inf(1)}, shapes{{2}}, "exponent c = +Inf must be finite"},
	{"softmax", op.Attrs{}, shapes{{}}, "X must have at least one dimension"},
	{"log_softmax", op.Attrs{}, shapes{{}}, "X must have at least one dimension"},
	{"sum", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"mean", op.Attrs{}, shapes{}, "takes 1 operands, got 0"},
	{"reduce_sum", op.Attrs{Axis: 2}, shapes{{2, 3}}, "axis 2 is out of range for rank 2"},
	{"reduce_sum", op.Attrs{Axis: -3}, shapes{{2, 3}}, "axis -3 is out of range for rank 2"},
	{"reduce_mean", op.Attrs{}, shapes{{}}, "axis 0 is out of range for rank 0"},
	{"reshape", op.Attrs{Shape: tensor.Shape{4}}, shapes{{2, 3}}, "cannot reshape 6 values into shape [4] (4 values)"},
	{"reshape", op.Attrs{Shape: tensor.Shape{0, 6}}, shapes{{2, 3}}, "target shape [0 6] has a dimension below 1"},
	{"flatten", op.Attrs{}, shapes{{5}}, "X must have a batch axis and at least one more, has shape [5]"},
	{"transpose", op.Attrs{}, shapes{{2, 3, 4}}, "X must be a matrix, has shape [2 3 4]"},
	{"concat", op.Attrs{}, shapes{}, "takes at least 1 operands, got 0"},
	{"concat", op.Attrs{Axis: 1}, shapes{{2, 3}, {3, 3}}, "operand 1 differs from operand 0 in axis 0 (3 vs 2)"},
	{"concat", op.Attrs{}, shapes{{2, 3}, {2, 3, 1}}, "operand 1 has rank 3, operand 0 has rank 2"},
	{"concat", op.Attrs{Axis: 2}, shapes{{2, 3}}, "axis 2 is out of range for rank 2"},
	{"broadcast_to", op.Attrs{Shape: tensor.Shape{2, 3}}, shapes{{2}}, "size 2 of axis 0 does not broadcast to 3 (only sizes equal or 1 do)"},
	{"broadcast_to", op.Attrs{Shape: tensor.Shape{3}}, shapes{{1, 3}}, "cannot broadcast rank 2 to the smaller rank 1 of [3]"},
	{"broadcast_to", op.Attrs{Shape: tensor.Shape{0, 3}}, shapes{{3}}, "target shape [0 3] has a dimension below 1"},
	{"detach", op.Attrs{}, shapes{{1}, {1}}, "takes 1 operands, got 2"},
	{"dropout", op.Attrs{Alpha: 1}, shapes{{3}}, "drop probability p = 1 must be in [0, 1)"},
	{"dropout", op.Attrs{Alpha: -0.1}, shapes{{3}}, "drop probability p = -0.1 must be in [0, 1)"},
	{"dropout", op.Attrs{Alpha: math.NaN()}, shapes{{3}}, "drop probability p = NaN must be in [0, 1)"},
	{"mse_loss", op.Attrs{}, shapes{{3, 1}, {3}}, "operand shapes differ"},
	{"cross_entropy", op.Attrs{}, shapes{{4, 3}, {3}}, "class indices c must have shape [4] (one per row of Z), has [3]"},
	{"cross_entropy", op.Attrs{}, shapes{{4}, {4}}, "logits Z [B C] must be a matrix, has shape [4]"},
	{"bce_with_logits", op.Attrs{}, shapes{{4, 1}, {4}}, "operand shapes differ"},
	{"conv2d", op.Attrs{Stride: 1}, shapes{{1, 2, 5, 5}, {3, 1, 3, 3}, {3}}, "W expects 1 input channels, X has 2"},
	{"conv2d", op.Attrs{Stride: 1}, shapes{{1, 2, 5}, {3, 2, 3, 3}, {3}}, "X must be [B C H W], has shape [1 2 5]"},
	{"conv2d", op.Attrs{Stride: 1}, shapes{{1, 2, 5, 5}, {3, 2, 3}, {3}}, "W must be [O C kH kW], has shape [3 2 3]"},
	{"conv2d", op.Attrs{Stride: 1}, shapes{{1, 2, 5, 5}, {3, 2, 3, 3}, {2}}, "b must have shape [3], has [2]"},
	{"conv2d", op.Attrs{}, shapes{{1, 2, 5, 5}, {3, 2, 3, 3}, {3}}, "stride 0 must be at least 1"},
	{"conv2d", op.Attrs{Stride: 1, Padding: -1}, shapes{{1, 2, 5, 5}, {3, 2, 3, 3}, {3}}, "padding -1 must not be negative"},
	{"conv2d", op.Attrs{Stride: 1}, shapes{{1, 1, 2, 2}, {1, 1, 3, 3}, {1}}, "the 3×3 window does not fit in the 2×2 image with padding 0"},
	{"max_pool2d", op.Attrs{Kernel: 0, Stride: 1}, shapes{{1, 1, 4, 4}}, "kernel size 0 must be at least 1"},
	{"max_pool2d", op.Attrs{Kernel: 3, Stride: 1}, shapes{{1, 1, 2, 4}}, "the 3×3 window does not fit in the 2×4 image"},
	{"max_pool2d", op.Attrs{Kernel: 2}, shapes{{1, 1, 4, 4}}, "stride 0 must be at least 1"},
	{"max_pool2d", op.Attrs{Kernel: 2, Stride: 2}, shapes{{4, 4}}, "X must be [B C H W], has shape [4 4]"},
	{"avg_pool2d", op.Attrs{Kernel: 0, Stride: 1}, shapes{{1, 1, 4, 4}}, "kernel size 0 must be at least 1"},
	{"avg_pool2d", op.Attrs{Kernel: 2, Stride: 1}, shapes{{1, 1, 4, 1}}, "the 2×2 window does not fit in the 4×1 image"},
	{"avg_pool2d", op.Attrs{Kernel: 2, Stride: -1}, shapes{{1, 1, 4, 4}}, "stride -1 must be at least 1"},
	{"avg_pool2d", op.Attrs{Kernel: 2, Stride: 2}, shapes{{1, 4, 4}}, "X must be [B C H W], has shape [1 4 4]"},
	{"batch_norm", op.Attrs{}, shapes{{1, 3}, {3}, {3}}, "train mode needs more than one row per feature"},
	{"batch_norm", op.Attrs{}, shapes{{4, 2}, {3}, {2}}, "γ must have shape [2] (one per feature of X), has [3]"},
	{"batch_norm", op.Attrs{Eps: -1}, shapes{{4, 2}, {2}, {2}}, "eps = -1 must be finite and not negative"},
	{"batch_norm", op.Attrs{}, shapes{{4, 2, 2}, {2}, {2}}, "X [B F] must be a matrix"},
	{"batch_norm_eval", op.Attrs{}, shapes{{1, 2}, {2}, {2}, {2}, {3}}, "σ² must have shape [2]"},
	{"batch_norm_eval", op.Attrs{}, shapes{{1, 2}, {2}, {2}, {2}}, "takes 5 operands, got 4"},
	{"layer_norm", op.Attrs{}, shapes{{}, {1}, {1}}, "X must have at least one dimension"},
	{"layer_norm", op.Attrs{}, shapes{{4, 3}, {4}, {3}}, "γ must have shape [3] (one per entry of X's last axis), has [4]"},
	{"layer_norm", op.Attrs{}, shapes{{4, 3}, {3}, {3, 1}}, "β must have shape [3] (one per entry of X's last axis), has [3 1]"},
	{"layer_norm", op.Attrs{Eps: math.Inf(1)}, shapes{{3}, {3}, {3}}, "eps = +Inf must be finite and not negative"},
}

// TestShapeErrors checks that each shape rule rejects what it must, with an
// error that names the op, every operand shape and what is wrong.
func TestShapeErrors(t *testing.T) {
	for _, tc := range shapeErrors {
		o, ok := op.Lookup(tc.op)
		if !ok {
			t.Fatalf("no op %q", tc.op)
		}
		_, err := o.Shape(nil, tc.shapes, tc.attrs)
		if err == nil {
			t.Errorf("%s%v: no error, want %q", tc.op, tc.shapes, tc.want)
			continue
		}
		var e *op.Error
		if !errors.As(err, &e) || e.Op != tc.op {
			t.Errorf("%s%v: error %v is not an *op.Error naming the op", tc.op, tc.shapes, err)
		}
		msg := err.Error()
		for _, s := range tc.shapes {
			if !strings.Contains(msg, s.String()) {
				t.Errorf("%s: error %q does not name shape %v", tc.op, msg, s)
			}
		}
		if !strings.HasPrefix(msg, tc.op+"(") || !strings.Contains(msg, tc.want) {
			t.Errorf("%s%v: error %q, want it to start with %q and contain %q", tc.op, tc.shapes, msg, tc.op+"(", tc.want)
		}
	}
}

// TestEveryOpHasAShapeErrorCase keeps shapeErrors complete.
func TestEveryOpHasAShapeErrorCase(t *testing.T) {
	covered := map[string]bool{}
	for _, tc := range shapeErrors {
		covered[tc.op] = true
	}
	for _, o := range op.All() {
		if !covered[o.Name] {
			t.Errorf("op %q has no case in shapeErrors", o.Name)
		}
	}
}

// TestDomainErrors checks each domain check: what it rejects, with a message
// naming the element or row, and that legitimate IEEE values pass.
func TestDomainErrors(t *testing.T) {
	v, m := tensor.Vector, tensor.Matrix
	inf, nan := math.Inf(1), math.NaN()
	logits := m([][]float64{{1, 2, 3}, {4, 5, 6}})
	tests := []struct {
		op   string
		x    []*tensor.Tensor
		want string // "" = accepted
	}{
		{"log", []*tensor.Tensor{v(1, -2)}, "log([2]): X[1] = -2 is negative; log needs X ≥ 0"},
		{"log", []*tensor.Tensor{v(0, math.Copysign(0, -1), inf, nan)}, ""}, // log(0) = −Inf is IEEE
		{"sqrt", []*tensor.Tensor{m([][]float64{{1, 2}, {3, -0.5}})}, "X[1 1] = -0.5 is negative; sqrt needs X ≥ 0"},
		{"sqrt", []*tensor.Tensor{v(math.Copysign(0, -1), inf)}, ""},
		{"sqrt", []*tensor.Tensor{v(-inf)}, "X[0] = -Inf is negative"},
		{"div", []*tensor.Tensor{v(1, 0), v(0, 0)}, ""}, // division by zero is IEEE
		{"cross_entropy", []*tensor.Tensor{logits, v(0, 2.5)}, "row 1: class index 2.5 is not an integer"},
		{"cross_entropy", []*tensor.Tensor{logits, v(3, 0)}, "row 0: class index 3 is out of range [0, 3)"},
		{"cross_entropy", []*tensor.Tensor{logits, v(0, -1)}, "row 1: class index -1 is out of range [0, 3)"},
		{"cross_entropy", []*tensor.Tensor{logits, v(nan, 0)}, "row 0: class index NaN is not an integer"},
		{"cross_entropy", []*tensor.Tensor{logits, v(0, inf)}, "row 1: class index +Inf is out of range [0, 3)"},
		{"cross_entropy", []*tensor.Tensor{logits, v(2, 0)}, ""},
		{"batch_norm_eval", []*tensor.Tensor{m([][]float64{{1, 2}}), v(1, 1), v(0, 0), v(0, 0), v(1, -1)},
			"running variance σ²[1] = -1 is negative"},
		{"batch_norm_eval", []*tensor.Tensor{m([][]float64{{1, 2}}), v(1, 1), v(0, 0), v(0, 0), v(1, 0)}, ""},
	}
	for _, tc := range tests {
		o, _ := op.Lookup(tc.op)
		_, err := o.Eval(tc.x, op.Attrs{})
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s%v: unexpected error %v", tc.op, tc.x, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), tc.op+"(")):
			t.Errorf("%s%v: error %v, want one starting with %q and containing %q", tc.op, tc.x, err, tc.op+"(", tc.want)
		}
	}
}
