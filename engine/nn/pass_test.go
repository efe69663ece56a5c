package nn_test

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

func mustModel(t *testing.T, loss nn.Loss, input tensor.Shape, layers ...nn.Layer) *nn.Model {
	t.Helper()
	seq, err := nn.NewSeq(input, layers...)
	if err != nil {
		t.Fatal(err)
	}
	m, err := nn.NewModel(seq, loss, 1, nn.InitPyTorch)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDropoutMasks(t *testing.T) {
	const n, p = 4000, 0.3
	m := mustModel(t, nn.MSE, tensor.Shape{n}, nn.Dropout{P: p})
	x := tensor.Zeros(tensor.Shape{1, n})
	for i := range x.Data {
		x.Data[i] = 1 + float64(i%5)
	}
	pass := nn.NewPass(m)
	run := func(mode nn.Mode, seed uint64) []float64 {
		if err := pass.Forward(x, nil, mode, seed); err != nil {
			t.Fatal(err)
		}
		return append([]float64(nil), pass.Output().Data...)
	}
	a, b, c := run(nn.Train, 5), run(nn.Train, 5), run(nn.Train, 6)
	dropped, differ := 0, 0
	for i, v := range a {
		switch v {
		case 0:
			dropped++
		case x.Data[i] / (1 - p):
		default:
			t.Fatalf("output %d = %v, want 0 or %v", i, v, x.Data[i]/(1-p))
		}
		if b[i] != v {
			t.Fatal("the same seed gave a different mask")
		}
		if (c[i] == 0) != (v == 0) {
			differ++
		}
	}
	if f := float64(dropped) / n; math.Abs(f-p) > 0.03 {
		t.Errorf("dropped fraction %v, want about %v", f, p)
	}
	if differ == 0 {
		t.Error("different seeds gave the same mask")
	}
	for i, v := range run(nn.Eval, 5) {
		if v != x.Data[i] {
			t.Fatalf("eval mode changed element %d: %v", i, v)
		}
	}
}

func TestBatchNormBuffers(t *testing.T) {
	m := mustModel(t, nn.MSE, tensor.Shape{2}, nn.NewBatchNorm())
	x := tensor.Matrix([][]float64{{1, 10}, {3, 10}, {5, 13}})
	y := tensor.Zeros(tensor.Shape{3, 2})
	p := nn.NewPass(m)
	if err := p.Forward(x, y, nn.Eval, 0); err != nil {
		t.Fatal(err)
	}
	rm, rv := m.Params[m.Index("0.running_mean")], m.Params[m.Index("0.running_var")]
	if rm.Data[0] != 0 || rv.Data[0] != 1 {
		t.Fatalf("eval mode changed the buffers: %v %v", rm, rv)
	}
	if err := p.Forward(x, y, nn.Train, 0); err != nil {
		t.Fatal(err)
	}
	// mean (3, 11), unbiased var (4, 3); momentum 0.1
	want := [][]float64{{0.1 * 3, 0.1 * 11}, {0.9 + 0.1*4, 0.9 + 0.1*3}}
	for j := range 2 {
		if math.Abs(rm.Data[j]-want[0][j]) > 1e-15 || math.Abs(rv.Data[j]-want[1][j]) > 1e-15 {
			t.Fatalf("running stats %v %v, want %v", rm, rv, want)
		}
	}
	one := tensor.Matrix([][]float64{{1, 2}})
	err := p.Forward(one, tensor.Zeros(tensor.Shape{1, 2}), nn.Train, 0)
	if err == nil || !strings.Contains(err.Error(), "layer 0 (batch_norm)") {
		t.Errorf("batch of one in train mode: err = %v", err)
	}
}

func TestPassErrors(t *testing.T) {
	ce := mustModel(t, nn.CrossEntropy, tensor.Shape{2}, nn.NewLinear(3))
	mse := mustModel(t, nn.MSE, tensor.Shape{2}, nn.NewLinear(3), nn.Tanh{})
	tests := []struct {
		name string
		m    *nn.Model
		x, y *tensor.Tensor
		want string
	}{
		{"input shape", mse, tensor.Zeros(tensor.Shape{4, 3}), tensor.Zeros(tensor.Shape{4, 3}), "inputs have shape [4 3], want [batch 2] for examples of shape [2]"},
		{"target shape", mse, tensor.Zeros(tensor.Shape{4, 2}), tensor.Zeros(tensor.Shape{4, 1}), "targets have shape [4 1], want [4 3] for 4 examples and mse"},
		{"class shape", ce, tensor.Zeros(tensor.Shape{2, 2}), tensor.Zeros(tensor.Shape{2, 1}), "targets have shape [2 1], want [2] for 2 examples and cross_entropy"},
		{"class range", ce, tensor.Zeros(tensor.Shape{2, 2}), tensor.Vector(2, 3), "example 1: class index 3 is out of range (want a whole number from 0 to 2)"},
		{"class fraction", ce, tensor.Zeros(tensor.Shape{2, 2}), tensor.Vector(0.5, 1), "example 0: class index 0.5 is out of range (want a whole number from 0 to 2)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := nn.NewPass(tc.m).Forward(tc.x, tc.y, nn.Train, 0)
			if err == nil || err.Error() != tc.want {
				t.Errorf("err = %v\nwant  %s", err, tc.want)
			}
		})
	}
	p := nn.NewPass(mse)
	if err := p.Backward(); err == nil {
		t.Error("Backward before Forward: no error")
	}
	if err := p.Forward(tensor.Zeros(tensor.Shape{1, 2}), nil, nn.Train, 0); err != nil {
		t.Fatal(err)
	}
	if err := p.Backward(); err == nil || !math.IsNaN(p.Loss()) {
		t.Errorf("Backward without targets: err = %v, loss = %v", err, p.Loss())
	}
}

func TestSetParam(t *testing.T) {
	m := mustModel(t, nn.MSE, tensor.Shape{2}, nn.NewLinear(3))
	if err := m.SetParam("0.weight", tensor.Zeros(tensor.Shape{2, 3})); err == nil || err.Error() != `parameter "0.weight": shape [3 2] expected, got [2 3]` {
		t.Errorf("err = %v", err)
	}
	if err := m.SetParam("1.weight", tensor.Zeros(tensor.Shape{3, 2})); err == nil || err.Error() != `no parameter "1.weight" in this model` {
		t.Errorf("err = %v", err)
	}
	if err := m.SetParam("0.bias", tensor.Vector(1, 2, 3)); err != nil || m.Params[1].Data[2] != 3 {
		t.Errorf("err = %v, bias = %v", err, m.Params[1])
	}
}

// TestInitIsSeeded: the same seed gives the same parameters; PyTorch's
// default scheme stays within ±1/sqrt(fan_in); Xavier zeroes biases.
func TestInitIsSeeded(t *testing.T) {
	seq, err := nn.NewSeq(tensor.Shape{1, 5, 5}, nn.NewConv2D(4, 3), nn.Flatten{}, nn.NewLinear(16), nn.NewBatchNorm())
	if err != nil {
		t.Fatal(err)
	}
	a, b, c := seq.Init(3, nn.InitPyTorch), seq.Init(3, nn.InitPyTorch), seq.Init(4, nn.InitPyTorch)
	same, diff := true, false
	for i := range a {
		same = same && tensor.Identical(a[i], b[i])
		diff = diff || !tensor.Identical(a[i], c[i])
	}
	if !same || !diff {
		t.Fatalf("init not reproducible (same=%v) or ignores the seed (diff=%v)", same, diff)
	}
	bounds := map[string]float64{"0.weight": 1 / 3.0, "0.bias": 1 / 3.0, "2.weight": 1 / 6.0, "2.bias": 1 / 6.0}
	for i, p := range seq.Params() {
		if bd, ok := bounds[p.Name]; ok {
			for _, v := range a[i].Data {
				if math.Abs(v) > bd {
					t.Errorf("%s value %v outside ±%v", p.Name, v, bd)
				}
			}
		}
	}
	x := seq.Init(3, nn.InitXavier)
	for i, p := range seq.Params() {
		switch p.Name {
		case "0.bias", "2.bias", "3.bias", "3.running_mean":
			for _, v := range x[i].Data {
				if v != 0 {
					t.Errorf("xavier %s = %v, want 0", p.Name, x[i])
				}
			}
		case "2.weight":
			bd := math.Sqrt(6.0 / (36 + 16))
			for _, v := range x[i].Data {
				if math.Abs(v) > bd {
					t.Errorf("xavier %s value %v outside ±%v", p.Name, v, bd)
				}
			}
		case "3.weight", "3.running_var":
			for _, v := range x[i].Data {
				if v != 1 {
					t.Errorf("%s = %v, want 1", p.Name, x[i])
				}
			}
		}
	}
}
