package op_test

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// TestBroadcastToValues pins broadcast_to's forward value and its VJP (the
// sum over the repeated axes) on small shapes worked out by hand.
func TestBroadcastToValues(t *testing.T) {
	tests := []struct {
		x      *tensor.Tensor
		to     tensor.Shape
		y      []float64
		dy, dx []float64
	}{
		{tensor.Vector(1, 2, 3), tensor.Shape{2, 3}, []float64{1, 2, 3, 1, 2, 3},
			[]float64{1, 10, 100, 2, 20, 200}, []float64{3, 30, 300}},
		{tensor.Scalar(5), tensor.Shape{2}, []float64{5, 5}, []float64{1, 2}, []float64{3}},
		{tensor.Matrix([][]float64{{1}, {2}}), tensor.Shape{2, 3}, []float64{1, 1, 1, 2, 2, 2},
			[]float64{1, 2, 3, 4, 5, 6}, []float64{6, 15}},
	}
	o, _ := op.Lookup("broadcast_to")
	for _, tc := range tests {
		a := op.Attrs{Shape: tc.to}
		y, err := o.Eval([]*tensor.Tensor{tc.x}, a)
		if err != nil {
			t.Fatal(err)
		}
		if !y.Shape.Equal(tc.to) || !equal(y.Data, tc.y) {
			t.Errorf("broadcast_to(%v, %v) = %v, want %v", tc.x, tc.to, y, tc.y)
		}
		dx := []*tensor.Tensor{tensor.Zeros(tc.x.Shape)}
		dy := &tensor.Tensor{Shape: tc.to, Data: tc.dy}
		o.VJP(dx, dy, y, []*tensor.Tensor{tc.x}, a)
		if !equal(dx[0].Data, tc.dx) {
			t.Errorf("broadcast_to(%v, %v): dX = %v, want %v", tc.x, tc.to, dx[0].Data, tc.dx)
		}
	}
}

// TestPowConventions checks pow where finite differences do not reach: a
// zero exponent has the zero derivative even at 0 (PyTorch's rule), and a
// negative base is outside the domain only for a non-integer exponent.
func TestPowConventions(t *testing.T) {
	o, _ := op.Lookup("pow")
	x := tensor.Vector(0, -2, 3)
	y, err := o.Eval([]*tensor.Tensor{x}, op.Attrs{Alpha: 0})
	if err != nil {
		t.Fatal(err)
	}
	dx := []*tensor.Tensor{tensor.Zeros(x.Shape)}
	o.VJP(dx, tensor.Vector(1, 1, 1), y, []*tensor.Tensor{x}, op.Attrs{Alpha: 0})
	if !equal(y.Data, []float64{1, 1, 1}) || !equal(dx[0].Data, []float64{0, 0, 0}) {
		t.Errorf("pow(x, 0) = %v with dX %v, want ones and zeros", y.Data, dx[0].Data)
	}
	if _, err := o.Eval([]*tensor.Tensor{x}, op.Attrs{Alpha: 2}); err != nil {
		t.Errorf("pow(%v, 2): %v", x, err)
	}
	_, err = o.Eval([]*tensor.Tensor{x}, op.Attrs{Alpha: 0.5})
	if err == nil || !strings.Contains(err.Error(), "X[1] = -2 is negative and the exponent 0.5 is not an integer") {
		t.Errorf("pow(%v, 0.5): error %v", x, err)
	}
	z, _ := o.Eval([]*tensor.Tensor{tensor.Vector(0)}, op.Attrs{Alpha: -1})
	if !math.IsInf(z.Data[0], 1) {
		t.Errorf("pow(0, -1) = %v, want +Inf (IEEE, not an error)", z.Data[0])
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
