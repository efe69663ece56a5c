package autograd

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

func TestSessionScalarGradients(t *testing.T) {
	th := math.Tanh(0.5) // a variable, so that Go does not fold the expected values exactly
	tests := []struct {
		name    string
		x       float64
		program func(s *Session, x op.Value) op.Value
		y, dydx float64
	}{
		{"2x+1", 3, func(s *Session, x op.Value) op.Value {
			return op.Add(s, op.Scale(s, x, 2), s.Const(tensor.Scalar(1)))
		}, 7, 2},
		// x feeds two nodes and one node twice: gradients must accumulate (+=).
		{"x*x+x", 3, func(s *Session, x op.Value) op.Value {
			return op.Add(s, op.Mul(s, x, x), x)
		}, 12, 7},
		{"tanh(x)-x", 0.5, func(s *Session, x op.Value) op.Value {
			return op.Sub(s, op.Tanh(s, x), x)
		}, th - 0.5, -1 + (1 - th*th)}, // x gets −1 from sub first, then tanh's term
		{"relu(-x)", 2, func(s *Session, x op.Value) op.Value {
			return op.Relu(s, op.Neg(s, x))
		}, 0, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession()
			x := s.Param(tensor.Scalar(tc.x), "x")
			y := tc.program(s, x)
			var g Grads
			if err := s.Backward(y, &g); err != nil {
				t.Fatal(err)
			}
			if got := s.Tape().Node(int(y)).Value.Data[0]; got != tc.y {
				t.Errorf("y = %v, want %v", got, tc.y)
			}
			if got := g.Of(int(x)).Data[0]; got != tc.dydx {
				t.Errorf("dy/dx = %v, want %v", got, tc.dydx)
			}
		})
	}
}

func TestSessionErrorsNameTheNode(t *testing.T) {
	tests := []struct {
		name    string
		program func(s *Session) op.Value
		want    []string
	}{
		{"shape mismatch", func(s *Session) op.Value {
			a := s.Input(tensor.Zeros(tensor.Shape{2, 3}), "a")
			b := s.Input(tensor.Zeros(tensor.Shape{4, 5}), "b")
			return op.MatMul(s, a, b)
		}, []string{"node 2", "matmul", "[2 3]", "[4 5]", "inner dimensions differ"}},
		{"missing operand", func(s *Session) op.Value {
			a := s.Input(tensor.Zeros(tensor.Shape{2}), "a")
			return op.Add(s, a, op.Value(7))
		}, []string{"node 1", "add", "node 7", "does not exist"}},
		{"first error is kept", func(s *Session) op.Value {
			a := s.Input(tensor.Zeros(tensor.Shape{2}), "a")
			b := s.Input(tensor.Zeros(tensor.Shape{3}), "b")
			c := op.Add(s, a, b)
			return op.Tanh(s, op.MatMul(s, c, c))
		}, []string{"node 2", "add([2], [3])", "operand shapes differ"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession()
			if out := tc.program(s); out != op.NoValue {
				t.Fatalf("program returned %d, want NoValue after an error", out)
			}
			err := s.Err()
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestBackwardRejectsBadSeeds(t *testing.T) {
	s := NewSession()
	x := s.Param(tensor.Vector(1, 2), "x")
	y := op.Sum(s, op.Mul(s, x, x))
	var g Grads
	tp := s.Tape()
	if err := tp.BackwardDense(int(y), tensor.Vector(1, 1), &g); err == nil || !strings.Contains(err.Error(), "seed has shape [2]") {
		t.Errorf("wrong-shape seed: err = %v", err)
	}
	if err := tp.BackwardDense(9, tensor.Scalar(1), &g); err == nil || !strings.Contains(err.Error(), "node 9 does not exist") {
		t.Errorf("missing node: err = %v", err)
	}
	if err := tp.BackwardDenseFrom(nil, &g); err == nil {
		t.Error("BackwardDenseFrom with no seeds: no error")
	}
}
