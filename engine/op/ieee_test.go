package op_test

import (
	"math"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// TestIEEEValuesFlowThrough checks that infinities, signed zeros and NaN
// inputs give exactly the IEEE (or limit) value, bit for bit, and that no
// legitimate value is reported as an error.
func TestIEEEValuesFlowThrough(t *testing.T) {
	inf, nan, negz := math.Inf(1), math.NaN(), math.Copysign(0, -1)
	v, m := tensor.Vector, tensor.Matrix
	img := func(vals ...float64) *tensor.Tensor {
		t := v(vals...)
		t.Shape = tensor.Shape{1, 1, 2, 2}
		return t
	}
	tests := []struct {
		op    string
		attrs op.Attrs
		x     []*tensor.Tensor
		want  []float64
	}{
		{"exp", op.Attrs{}, []*tensor.Tensor{v(inf, -inf, 800, negz)}, []float64{inf, 0, inf, 1}},
		{"log", op.Attrs{}, []*tensor.Tensor{v(0, negz, inf, 1)}, []float64{-inf, -inf, inf, 0}},
		{"sqrt", op.Attrs{}, []*tensor.Tensor{v(inf, negz, 0)}, []float64{inf, negz, 0}},
		{"div", op.Attrs{}, []*tensor.Tensor{v(1, -1, 0, 1), v(0, 0, 0, negz)}, []float64{inf, -inf, nan, -inf}},
		{"sigmoid", op.Attrs{}, []*tensor.Tensor{v(inf, -inf, -800, 800)}, []float64{1, 0, 0, 1}},
		{"gelu", op.Attrs{}, []*tensor.Tensor{v(inf, -inf, -40, negz)}, []float64{inf, negz, negz, negz}},
		{"leaky_relu", op.Attrs{Alpha: 0.1}, []*tensor.Tensor{v(-inf, inf, negz)}, []float64{-inf, inf, negz}},
		{"relu", op.Attrs{}, []*tensor.Tensor{v(nan, -inf, inf, negz)}, []float64{nan, 0, inf, 0}}, // NaN passes, as in PyTorch
		{"abs", op.Attrs{}, []*tensor.Tensor{v(-inf, negz)}, []float64{inf, 0}},
		{"square", op.Attrs{}, []*tensor.Tensor{v(-inf, 1e200)}, []float64{inf, inf}},
		{"max", op.Attrs{}, []*tensor.Tensor{v(nan, 1, 0, -inf), v(1, nan, negz, -inf)}, []float64{nan, nan, 0, -inf}},
		{"min", op.Attrs{}, []*tensor.Tensor{v(nan, 0, inf), v(1, negz, inf)}, []float64{nan, negz, inf}},
		{"softmax", op.Attrs{}, []*tensor.Tensor{v(-inf, 0, 0)}, []float64{0, 0.5, 0.5}},
		{"softmax", op.Attrs{}, []*tensor.Tensor{v(1000, 1000)}, []float64{0.5, 0.5}}, // no overflow
		{"log_softmax", op.Attrs{}, []*tensor.Tensor{v(-inf, 0)}, []float64{-inf, 0}},
		{"log_softmax", op.Attrs{}, []*tensor.Tensor{v(-1000, 0)}, []float64{-1000, 0}},
		{"reduce_sum", op.Attrs{Axis: 1}, []*tensor.Tensor{m([][]float64{{inf, 1}, {inf, -inf}})}, []float64{inf, nan}},
		{"cross_entropy", op.Attrs{}, []*tensor.Tensor{m([][]float64{{0, -inf}}), v(0)}, []float64{0}},
		{"cross_entropy", op.Attrs{}, []*tensor.Tensor{m([][]float64{{1000, 0}}), v(1)}, []float64{1000}},
		{"bce_with_logits", op.Attrs{}, []*tensor.Tensor{v(inf, -inf), v(1, 0)}, []float64{0}},
		{"bce_with_logits", op.Attrs{}, []*tensor.Tensor{v(inf), v(0)}, []float64{inf}},
		{"bce_with_logits", op.Attrs{}, []*tensor.Tensor{v(-1000), v(1)}, []float64{1000}},
		{"max_pool2d", op.Attrs{Kernel: 2, Stride: 2}, []*tensor.Tensor{img(1, -inf, nan, 2)}, []float64{nan}},
		{"max_pool2d", op.Attrs{Kernel: 2, Stride: 2}, []*tensor.Tensor{img(-inf, -inf, -inf, -inf)}, []float64{-inf}},
		{"avg_pool2d", op.Attrs{Kernel: 2, Stride: 2}, []*tensor.Tensor{img(1, -inf, 3, 2)}, []float64{-inf}},
		{"avg_pool2d", op.Attrs{Kernel: 2, Stride: 2}, []*tensor.Tensor{img(inf, -inf, 3, 2)}, []float64{nan}},
		{"avg_pool2d", op.Attrs{Kernel: 2, Stride: 2}, []*tensor.Tensor{img(1e308, 1e308, -1e308, 0)}, []float64{inf}}, // the sum overflows before the division, as in PyTorch
		{"dropout", op.Attrs{Alpha: 0.5, Seed: 1}, []*tensor.Tensor{v(inf, inf, inf, inf, inf, inf, inf, inf)},
			dropped(1, 0.5, 8, inf)},
	}
	for _, tc := range tests {
		o, _ := op.Lookup(tc.op)
		y, err := o.Eval(tc.x, tc.attrs)
		if err != nil {
			t.Errorf("%s%v: %v", tc.op, tc.x, err)
			continue
		}
		want := &tensor.Tensor{Shape: y.Shape, Data: tc.want}
		if !tensor.Identical(y, want) {
			t.Errorf("%s%v = %v, want %v", tc.op, tc.x, y.Data, tc.want)
		}
	}
}

// dropped returns what dropout keeps of n copies of v: v·2 (p = 0.5) where
// kept and exactly 0 where dropped, using the op itself on ones to find the mask.
func dropped(seed uint64, p float64, n int, v float64) []float64 {
	o, _ := op.Lookup("dropout")
	ones := tensor.Zeros(tensor.Shape{n})
	ones.Fill(1)
	y, _ := o.Eval([]*tensor.Tensor{ones}, op.Attrs{Alpha: p, Seed: seed})
	out := make([]float64, n)
	for i, k := range y.Data {
		if k != 0 {
			out[i] = v
		}
	}
	return out
}

// TestDropoutMask checks the mask's promises: the same seed gives the same
// mask, another seed another one, each entry is kept with probability 1 − p,
// and kept entries are scaled by exactly 1/(1 − p).
func TestDropoutMask(t *testing.T) {
	o, _ := op.Lookup("dropout")
	x := tensor.Zeros(tensor.Shape{200, 250})
	x.Fill(3)
	for _, p := range []float64{0, 0.1, 0.5, 0.9} {
		a := op.Attrs{Alpha: p, Seed: 99}
		y1, _ := o.Eval([]*tensor.Tensor{x}, a)
		y2, _ := o.Eval([]*tensor.Tensor{x}, a)
		if !tensor.Identical(y1, y2) {
			t.Errorf("p = %v: the same seed gave different masks", p)
		}
		kept := 0
		for _, v := range y1.Data {
			switch v {
			case 0:
			case 3 * (1 / (1 - p)):
				kept++
			default:
				t.Fatalf("p = %v: entry %v is neither 0 nor 3/(1−p)", p, v)
			}
		}
		n := float64(len(x.Data))
		// The kept count is Binomial(n, 1−p): allow five standard deviations.
		if sd := math.Sqrt(n * p * (1 - p)); math.Abs(float64(kept)-n*(1-p)) > 5*sd+0.5 {
			t.Errorf("p = %v: kept %d of %v, expected about %v", p, kept, n, n*(1-p))
		}
		if p > 0 {
			a.Seed = 100
			y3, _ := o.Eval([]*tensor.Tensor{x}, a)
			if tensor.Identical(y1, y3) {
				t.Errorf("p = %v: seeds 99 and 100 gave the same mask", p)
			}
		}
	}
}
