package op_test

import (
	"reflect"
	"strings"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// recorder is an op.Ops that records the last application.
type recorder struct {
	op    *op.Op
	attrs op.Attrs
	args  []op.Value
}

func (r *recorder) Apply(o *op.Op, a op.Attrs, x, y, z op.Value) op.Value {
	r.op, r.attrs, r.args = o, a, nil
	for _, v := range []op.Value{x, y, z} {
		if v != op.NoValue {
			r.args = append(r.args, v)
		}
	}
	return 100
}

func (r *recorder) ApplyN(o *op.Op, a op.Attrs, xs []op.Value) op.Value {
	r.op, r.attrs, r.args = o, a, append([]op.Value(nil), xs...)
	return 100
}

func (r *recorder) Const(*tensor.Tensor) op.Value { return 0 }
func (r *recorder) Err() error                    { return nil }

// TestBuilders checks that each builder function applies the right op to
// its operands in order, with the right attributes, and that together the
// builders reach every op of the catalogue.
func TestBuilders(t *testing.T) {
	shape := tensor.Shape{3, 4}
	tests := []struct {
		call  func(o op.Ops) op.Value
		op    string
		attrs op.Attrs
		args  []op.Value
	}{
		{func(o op.Ops) op.Value { return op.Add(o, 1, 2) }, "add", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.Sub(o, 1, 2) }, "sub", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.Mul(o, 1, 2) }, "mul", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.Div(o, 2, 1) }, "div", op.Attrs{}, []op.Value{2, 1}},
		{func(o op.Ops) op.Value { return op.Max(o, 1, 2) }, "max", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.Min(o, 1, 2) }, "min", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.Neg(o, 1) }, "neg", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Scale(o, 1, 2.5) }, "scale", op.Attrs{Alpha: 2.5}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.AddBias(o, 1, 2) }, "add_bias", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.MatMul(o, 1, 2) }, "matmul", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.Linear(o, 1, 2, 3) }, "linear", op.Attrs{}, []op.Value{1, 2, 3}},
		{func(o op.Ops) op.Value { return op.Tanh(o, 1) }, "tanh", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Relu(o, 1) }, "relu", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.LeakyRelu(o, 1, 0.01) }, "leaky_relu", op.Attrs{Alpha: 0.01}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Sigmoid(o, 1) }, "sigmoid", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.GELU(o, 1) }, "gelu", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Exp(o, 1) }, "exp", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Log(o, 1) }, "log", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Sqrt(o, 1) }, "sqrt", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Abs(o, 1) }, "abs", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Square(o, 1) }, "square", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Pow(o, 1, -0.5) }, "pow", op.Attrs{Alpha: -0.5}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Softmax(o, 1) }, "softmax", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.LogSoftmax(o, 1) }, "log_softmax", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Sum(o, 1) }, "sum", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Mean(o, 1) }, "mean", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.ReduceSum(o, 1, -1) }, "reduce_sum", op.Attrs{Axis: -1}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.ReduceMean(o, 1, 2) }, "reduce_mean", op.Attrs{Axis: 2}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Reshape(o, 1, shape) }, "reshape", op.Attrs{Shape: tensor.Shape{3, 4}}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Flatten(o, 1) }, "flatten", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Transpose(o, 1) }, "transpose", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Concat(o, 1, 4, 5, 6) }, "concat", op.Attrs{Axis: 1}, []op.Value{4, 5, 6}},
		{func(o op.Ops) op.Value { return op.BroadcastTo(o, 1, shape) }, "broadcast_to", op.Attrs{Shape: tensor.Shape{3, 4}}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Detach(o, 1) }, "detach", op.Attrs{}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.Dropout(o, 1, 0.25, 9) }, "dropout", op.Attrs{Alpha: 0.25, Seed: 9}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.MSELoss(o, 1, 2) }, "mse_loss", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.CrossEntropy(o, 1, 2) }, "cross_entropy", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.BCEWithLogits(o, 1, 2) }, "bce_with_logits", op.Attrs{}, []op.Value{1, 2}},
		{func(o op.Ops) op.Value { return op.Conv2D(o, 1, 2, 3, 2, 1) }, "conv2d", op.Attrs{Stride: 2, Padding: 1}, []op.Value{1, 2, 3}},
		{func(o op.Ops) op.Value { return op.MaxPool2D(o, 1, 3, 2) }, "max_pool2d", op.Attrs{Kernel: 3, Stride: 2}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.AvgPool2D(o, 1, 2, 1) }, "avg_pool2d", op.Attrs{Kernel: 2, Stride: 1}, []op.Value{1}},
		{func(o op.Ops) op.Value { return op.BatchNorm(o, 1, 2, 3, 1e-5) }, "batch_norm", op.Attrs{Eps: 1e-5}, []op.Value{1, 2, 3}},
		{func(o op.Ops) op.Value { return op.BatchNormEval(o, 1, 2, 3, 4, 5, 1e-3) }, "batch_norm_eval", op.Attrs{Eps: 1e-3}, []op.Value{1, 2, 3, 4, 5}},
		{func(o op.Ops) op.Value { return op.LayerNorm(o, 1, 2, 3, 1e-5) }, "layer_norm", op.Attrs{Eps: 1e-5}, []op.Value{1, 2, 3}},
	}
	reached := map[string]bool{}
	for _, tc := range tests {
		var r recorder
		if got := tc.call(&r); got != 100 {
			t.Errorf("%s: builder returned %v, not the backend's value", tc.op, got)
		}
		if r.op == nil || r.op.Name != tc.op {
			t.Errorf("builder for %s applied %v", tc.op, r.op)
			continue
		}
		reached[tc.op] = true
		if !reflect.DeepEqual(r.attrs, tc.attrs) || !reflect.DeepEqual(r.args, tc.args) {
			t.Errorf("%s: applied with attrs %+v to %v, want %+v to %v", tc.op, r.attrs, r.args, tc.attrs, tc.args)
		}
	}
	for _, o := range op.All() {
		if !reached[o.Name] {
			t.Errorf("no builder test reaches op %q", o.Name)
		}
	}
	// Reshape keeps its own copy of the target shape.
	var r recorder
	op.Reshape(&r, 1, shape)
	shape[0] = 99
	if r.attrs.Shape[0] != 3 {
		t.Errorf("Reshape shares the caller's shape slice")
	}
}

// TestRulesNameTheirOperands checks the text the playground shows: the
// formula mentions every operand, and the chain rule gives a "d<name> = …"
// for every operand that takes a gradient.
func TestRulesNameTheirOperands(t *testing.T) {
	for _, o := range op.All() {
		if o.Formula == "" || o.Rule == "" {
			t.Errorf("%s: empty formula or rule", o.Name)
		}
		for i, x := range o.Operands {
			if !strings.Contains(o.Formula, x.Name) {
				t.Errorf("%s: formula %q does not mention operand %s", o.Name, o.Formula, x.Name)
			}
			if o.Grads(i) && !strings.Contains(o.Rule, "d"+x.Name) {
				t.Errorf("%s: rule %q gives no d%s", o.Name, o.Rule, x.Name)
			}
		}
	}
}
