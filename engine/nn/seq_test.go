package nn

import (
	"strings"
	"testing"

	"tapelab/engine/tensor"
)

func TestNewSeqShapes(t *testing.T) {
	tests := []struct {
		name   string
		input  tensor.Shape
		layers []Layer
		out    tensor.Shape
		params []string
	}{
		{"mlp", tensor.Shape{2}, []Layer{NewLinear(16), Tanh{}, NewLinear(1)}, tensor.Shape{1},
			[]string{"0.weight [16 2]", "0.bias [16]", "2.weight [1 16]", "2.bias [1]"}},
		{"no bias", tensor.Shape{3}, []Layer{Linear{Out: 4}}, tensor.Shape{4}, []string{"0.weight [4 3]"}},
		{"cnn", tensor.Shape{1, 8, 8}, []Layer{NewConv2D(4, 3), ReLU{}, NewMaxPool2D(2), Flatten{}, NewLinear(10)}, tensor.Shape{10},
			[]string{"0.weight [4 1 3 3]", "0.bias [4]", "4.weight [10 36]", "4.bias [10]"}},
		{"conv stride padding", tensor.Shape{2, 7, 5}, []Layer{Conv2D{OutChannels: 3, KernelSize: 3, Stride: 2, Padding: 1}}, tensor.Shape{3, 4, 3},
			[]string{"0.weight [3 2 3 3]", "0.bias [3]"}},
		{"pool stride", tensor.Shape{1, 7, 7}, []Layer{MaxPool2D{KernelSize: 3, Stride: 2}}, tensor.Shape{1, 3, 3}, nil},
		{"avg pool", tensor.Shape{2, 7, 6}, []Layer{NewAvgPool2D(2), AvgPool2D{KernelSize: 2, Stride: 1}}, tensor.Shape{2, 2, 2}, nil},
		{"batch norm", tensor.Shape{5}, []Layer{NewBatchNorm(), NewDropout(), Sigmoid{}, GELU{}, NewLeakyReLU(), Softmax{}}, tensor.Shape{5},
			[]string{"0.weight [5]", "0.bias [5]", "0.running_mean [5] buffer", "0.running_var [5] buffer"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s, err := NewSeq(tc.input, tc.layers...)
			if err != nil {
				t.Fatal(err)
			}
			if !s.Output().Equal(tc.out) {
				t.Errorf("output %v, want %v", s.Output(), tc.out)
			}
			var got []string
			for _, p := range s.Params() {
				d := p.Name + " " + p.Shape.String()
				if p.Buffer {
					d += " buffer"
				}
				got = append(got, d)
			}
			if strings.Join(got, ", ") != strings.Join(tc.params, ", ") {
				t.Errorf("params %q, want %q", got, tc.params)
			}
		})
	}
}

func TestNewSeqErrors(t *testing.T) {
	tests := []struct {
		name   string
		input  tensor.Shape
		layers []Layer
		want   string
	}{
		{"linear after conv", tensor.Shape{1, 6, 6}, []Layer{NewConv2D(2, 3), NewLinear(3)},
			"layer 1 (linear, expects [features]) cannot follow layer 0 (conv2d, gives [2 4 4])"},
		{"conv on vector", tensor.Shape{4}, []Layer{NewLinear(8), ReLU{}, NewConv2D(2, 3)},
			"layer 2 (conv2d, expects [C H W]) cannot follow layer 1 (relu, gives [8])"},
		{"first layer", tensor.Shape{1, 28, 28}, []Layer{NewLinear(8)},
			"layer 0 (linear, expects [features]) cannot take the model input [1 28 28]"},
		{"pool too small", tensor.Shape{1, 3, 3}, []Layer{NewConv2D(1, 2), NewMaxPool2D(3)},
			"layer 1 (max_pool2d, expects [C H W] with H, W ≥ kernel 3) cannot follow layer 0 (conv2d, gives [1 2 2])"},
		{"bad out", tensor.Shape{2}, []Layer{NewLinear(4), Tanh{}, Linear{Out: 0}}, "layer 2 (linear): out: must be ≥ 1"},
		{"bad p", tensor.Shape{2}, []Layer{Dropout{P: 1}}, "layer 0 (dropout): p: must be in [0, 1)"},
		{"bad stride", tensor.Shape{1, 4, 4}, []Layer{MaxPool2D{KernelSize: 2}}, "layer 0 (max_pool2d): stride: must be ≥ 1"},
		{"avg pool too small", tensor.Shape{3, 4, 1}, []Layer{NewAvgPool2D(2)},
			"layer 0 (avg_pool2d, expects [C H W] with H, W ≥ kernel 2) cannot take the model input [3 4 1]"},
		{"too large", tensor.Shape{1 << 20}, []Layer{NewLinear(1 << 10)}, "layer 0 (linear): weight [1024 1048576] has more than 16777216 elements"},
		{"nil layer", tensor.Shape{2}, []Layer{nil}, "layer 0 (<nil>): missing layer"},
		{"bad input", tensor.Shape{0, 2}, []Layer{NewLinear(1)}, "model input [0 2]: needs at least one dimension, each ≥ 1"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := NewSeq(tc.input, tc.layers...)
			if err == nil || err.Error() != tc.want {
				t.Errorf("err = %v\nwant  %s", err, tc.want)
			}
		})
	}
}
