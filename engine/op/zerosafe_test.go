package op_test

import (
	"fmt"
	"math"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// specials are the values that break naive zero-skipping: 0·∞ and 0/0 are
// NaN, tiny numbers square to 0 and huge ones overflow.
var specials = []float64{
	math.Inf(1), math.Inf(-1), math.NaN(), 0, math.Copysign(0, -1),
	5e-324, -5e-324, 1e-300, 1e-160, 1e160, 1e300, -1e300,
}

// TestZeroSafeIsTrue is the soundness property of the ZeroSafe certificates:
// whenever an op certifies its saved values, the VJP of an all-zero
// cotangent (with random signs of zero) gives only ±0 contributions. Operand
// entries are replaced by specials at rates from 0 to 1/2; values the op's
// domain rejects are skipped, as checked paths never record them.
func TestZeroSafeIsTrue(t *testing.T) {
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			certified, _, msg := zeroSafeCounterexample(t, c, nil)
			if msg != "" {
				t.Fatal(msg)
			}
			if certified == 0 {
				t.Errorf("no trial was certified zero-safe; the property was not exercised")
			}
		})
	}
}

// TestZeroSafePropertyFindsFalseCertificates shows that the property test
// has teeth: for every op whose certificate refused some trial, replacing it
// with op.Always (certify everything) must produce a counterexample, unless
// the refusals were all merely conservative.
func TestZeroSafePropertyFindsFalseCertificates(t *testing.T) {
	for _, c := range cases {
		t.Run(c.String(), func(t *testing.T) {
			_, refused, _ := zeroSafeCounterexample(t, c, nil)
			if refused == 0 {
				return // the certificate is Always in effect here
			}
			_, _, msg := zeroSafeCounterexample(t, c, op.Always)
			if msg == "" {
				t.Errorf("certifying everything went unnoticed, though the real certificate refused %d trials", refused)
			}
		})
	}
}

// zeroSafeCounterexample runs 300 trials of case c with special values and
// reports how many were certified and refused, and the first certified
// trial whose zero cotangent gave a nonzero contribution. cert replaces the
// op's certificate when set.
func zeroSafeCounterexample(t *testing.T, c opCase, cert func(*tensor.Tensor, []*tensor.Tensor, op.Attrs) bool) (certified, refused int, msg string) {
	for trial := uint64(0); trial < 300; trial++ {
		in := newInstance(t, c, trial)
		zeroSafe := in.o.ZeroSafe
		if cert != nil {
			zeroSafe = cert
		}
		if c.op == "scale" && trial%2 == 1 {
			in.c.attrs.Alpha = specials[trial/2%uint64(len(specials))]
		}
		rate := [...]float64{0, 0.05, 0.2, 0.5}[trial%4]
		for _, x := range in.x {
			for k := range x.Data {
				if in.rg.Float64() < rate {
					x.Data[k] = specials[in.rg.IntN(len(specials))]
				}
			}
		}
		if in.o.Check(in.x, in.c.attrs) != nil {
			continue
		}
		in.o.Forward(in.y, in.x, in.c.attrs)
		if !zeroSafe(in.y, in.x, in.c.attrs) {
			refused++
			continue
		}
		certified++
		dy := tensor.Zeros(in.y.Shape)
		for k := range dy.Data {
			dy.Data[k] = math.Copysign(0, float64(in.rg.IntN(2))-0.5)
		}
		for i, d := range in.vjp(dy, nil) {
			if d == nil {
				continue
			}
			for k, v := range d.Data {
				if v != 0 && msg == "" {
					msg = fmt.Sprintf("trial %d: certified zero-safe, but a zero cotangent gives d%s[%d] = %v\noperands %v\noutput %v",
						trial, in.o.Operands[min(i, len(in.o.Operands)-1)].Name, k, v, in.x, in.y)
				}
			}
		}
	}
	return certified, refused, msg
}

// TestEveryOpHasZeroSafe requires a certificate on every op, so that compact
// backward never has to fall back to the dense pass because of a missing one.
func TestEveryOpHasZeroSafe(t *testing.T) {
	for _, o := range op.All() {
		if o.ZeroSafe == nil {
			t.Errorf("%s has no ZeroSafe certificate", o.Name)
		}
	}
}

// TestZeroSafeVerdicts pins the certificates' verdicts on the cases that
// matter: refusing where 0·∞ or 0/0 really arises, certifying ordinary values.
func TestZeroSafeVerdicts(t *testing.T) {
	inf, nan := math.Inf(1), math.NaN()
	v := tensor.Vector
	tests := []struct {
		op    string
		attrs op.Attrs
		x     []*tensor.Tensor
		want  bool
	}{
		{"sqrt", op.Attrs{}, []*tensor.Tensor{v(4, 0)}, false},  // dX = 0/(2·0)
		{"sqrt", op.Attrs{}, []*tensor.Tensor{v(4, inf)}, true}, // 0/∞ = 0
		{"log", op.Attrs{}, []*tensor.Tensor{v(1, 0)}, false},   // dX = 0/0
		{"log", op.Attrs{}, []*tensor.Tensor{v(1, 2)}, true},    //
		{"exp", op.Attrs{}, []*tensor.Tensor{v(1, 800)}, false}, // exp overflows: 0·∞
		{"exp", op.Attrs{}, []*tensor.Tensor{v(1, -inf)}, true}, // exp(−∞) = 0
		{"div", op.Attrs{}, []*tensor.Tensor{v(1, 2), v(3, 0)}, false},
		{"div", op.Attrs{}, []*tensor.Tensor{v(1, 2), v(3, 4)}, true},
		{"div", op.Attrs{}, []*tensor.Tensor{v(1e300), v(1e-300)}, false}, // Y overflows: dB = −0·∞
		{"softmax", op.Attrs{}, []*tensor.Tensor{v(1, 2, 3)}, true},
		{"softmax", op.Attrs{}, []*tensor.Tensor{v(1, inf)}, false}, // ∞ − ∞
		{"log_softmax", op.Attrs{}, []*tensor.Tensor{v(1, 2, -inf)}, true},
		{"gelu", op.Attrs{}, []*tensor.Tensor{v(-inf, inf, 0)}, true},
		{"gelu", op.Attrs{}, []*tensor.Tensor{v(nan)}, false},
		{"square", op.Attrs{}, []*tensor.Tensor{v(1e200)}, true}, // Y overflows, but dX = 2·0·X
		{"scale", op.Attrs{Alpha: inf}, []*tensor.Tensor{v(1)}, false},
		{"max", op.Attrs{}, []*tensor.Tensor{v(nan, inf), v(1, inf)}, true},
		{"cross_entropy", op.Attrs{}, []*tensor.Tensor{tensor.Matrix([][]float64{{1, 2}, {3, -4}}), v(0, 1)}, true},
		{"cross_entropy", op.Attrs{}, []*tensor.Tensor{tensor.Matrix([][]float64{{1, inf}, {3, -4}}), v(0, 1)}, false},
		{"batch_norm", op.Attrs{Eps: 0}, []*tensor.Tensor{tensor.Matrix([][]float64{{1}, {1}}), v(1), v(0)}, false}, // var + ε = 0
		{"batch_norm", op.Attrs{Eps: 1e-5}, []*tensor.Tensor{tensor.Matrix([][]float64{{1}, {1}}), v(1), v(0)}, true},
		{"batch_norm_eval", op.Attrs{}, []*tensor.Tensor{tensor.Matrix([][]float64{{1}}), v(1), v(0), v(0), v(0)}, false},
		{"layer_norm", op.Attrs{Eps: 0}, []*tensor.Tensor{tensor.Matrix([][]float64{{1, 2}, {3, 3}}), v(1, 1), v(0, 0)}, false}, // var + ε = 0 in row 1
		{"layer_norm", op.Attrs{Eps: 1e-5}, []*tensor.Tensor{tensor.Matrix([][]float64{{1, 2}, {3, 3}}), v(1, 1), v(0, 0)}, true},
		{"layer_norm", op.Attrs{Eps: 1e-5}, []*tensor.Tensor{v(1, 2), v(1, inf), v(0, 0)}, false}, // 0·∞ in dX̂ = dY ⊙ γ
		{"layer_norm", op.Attrs{Eps: 1e-5}, []*tensor.Tensor{v(1, inf), v(1, 1), v(0, 0)}, false},
	}
	for _, tc := range tests {
		o, _ := op.Lookup(tc.op)
		y, err := o.Eval(tc.x, tc.attrs)
		if err != nil {
			t.Fatalf("%s%v: %v", tc.op, tc.x, err)
		}
		if got := o.ZeroSafe(y, tc.x, tc.attrs); got != tc.want {
			t.Errorf("%s%v: ZeroSafe = %v, want %v", tc.op, tc.x, got, tc.want)
		}
	}
}
