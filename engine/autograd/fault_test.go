package autograd_test

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

var vec = tensor.Vector

// TestForwardFault checks, per case, the node a tape's first non-finite
// value is reported at, its element, its reason and where it came from.
func TestForwardFault(t *testing.T) {
	for _, c := range []struct {
		name string
		// build records the tape and returns the node to explain and the
		// node the value came from (-1: the node made it).
		build    func(s *autograd.Session) (node, from op.Value)
		elem     string
		why      string
		finiteOK bool
	}{
		{"log of 0", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Log(s, s.Param(vec(1, 0, 2), "x")), -1
		}, "[1]", "log(0) = −∞", false},
		{"log of a negative number", func(s *autograd.Session) (op.Value, op.Value) {
			x := s.Param(vec(-1), "x")
			return op.Log(s, op.Neg(s, op.Neg(s, x))), -1
		}, "[0]", "", true}, // the domain check refuses it: the session never records it
		{"exp of 710", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Exp(s, s.Param(vec(3, 710), "x")), -1
		}, "[1]", "exp(710) = +∞: exp overflows above 709.78 in float64", false},
		{"0 times inf", func(s *autograd.Session) (op.Value, op.Value) {
			e := op.Exp(s, s.Param(vec(1000), "p"))
			return op.Mul(s, s.Param(vec(0), "z"), e), e
		}, "[0]", "0 · +∞ = NaN (B[0] = +∞ came from node 1)", false},
		{"inf minus inf", func(s *autograd.Session) (op.Value, op.Value) {
			e := op.Exp(s, s.Param(vec(1, 1000), "p"))
			return op.Sub(s, e, e), e
		}, "[1]", "+∞ − +∞ = NaN (A[1] = +∞ came from node 1)", false},
		{"+inf plus −inf", func(s *autograd.Session) (op.Value, op.Value) {
			e := op.Exp(s, s.Param(vec(1000), "p"))
			return op.Add(s, e, op.Neg(s, e)), e
		}, "[0]", "+∞ + −∞ = NaN", false},
		{"0 over 0", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Div(s, s.Param(vec(1, 0), "a"), s.Param(vec(2, 0), "b")), -1
		}, "[1]", "0 / 0 = NaN", false},
		{"1 over 0", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Div(s, s.Param(vec(1), "a"), s.Param(vec(0), "b")), -1
		}, "[0]", "1 / 0 = +∞: division by zero", false},
		{"sum overflows", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Add(s, s.Param(vec(1e308), "a"), s.Param(vec(1e308), "b")), -1
		}, "[0]", "1e+308 + 1e+308 overflows: beyond float64's largest value 1.79769e+308", false},
		{"square overflows", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Square(s, s.Param(vec(1e200), "x")), -1
		}, "[0]", "1e+200² overflows", false},
		{"negative power of 0", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Pow(s, s.Param(vec(0), "x"), -1), -1
		}, "[0]", "0^-1 = +∞: a negative power of 0", false},
		{"spread through add", func(s *autograd.Session) (op.Value, op.Value) {
			l := op.Log(s, s.Param(vec(0), "x"))
			return op.Add(s, l, s.Param(vec(1), "one")), l
		}, "[0]", "input already −∞: A[0] = −∞ came from node 1", false},
		{"spread through tanh", func(s *autograd.Session) (op.Value, op.Value) {
			l := op.Div(s, s.Param(vec(0), "a"), s.Param(vec(0), "b"))
			return op.Tanh(s, l), l
		}, "[0]", "input already NaN: X[0] = NaN came from node 2", false},
		{"spread through a sum", func(s *autograd.Session) (op.Value, op.Value) {
			l := op.Log(s, s.Param(vec(1, 0), "x"))
			return op.Sum(s, l), l
		}, "", "input already NaN or ∞: X[1] = −∞ (from node 1)", false},
		{"matmul overflows", func(s *autograd.Session) (op.Value, op.Value) {
			a := s.Param(tensor.Matrix([][]float64{{1e200, 1}}), "a")
			b := s.Param(tensor.Matrix([][]float64{{-3e200}, {2}}), "b")
			return op.MatMul(s, a, b), -1
		}, "[0 0]", "float64 overflowed: no operand is NaN or ∞; the largest are A[0 0] = 1e+200, B[0 0] = -3e+200", false},
		{"a finite node", func(s *autograd.Session) (op.Value, op.Value) {
			return op.Exp(s, s.Param(vec(709), "x")), -1
		}, "", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := autograd.NewSession()
			n, from := c.build(s)
			if s.Err() != nil {
				if !c.finiteOK {
					t.Fatal(s.Err())
				}
				return
			}
			f, ok := s.Tape().ForwardFault(int(n), op.Float64)
			if !ok {
				if !c.finiteOK {
					t.Fatalf("no fault at node %d", n)
				}
				return
			}
			if c.finiteOK {
				t.Fatalf("fault %+v on a finite node", f)
			}
			if f.Node != int(n) || f.Backward || f.Elem != c.elem || !strings.Contains(f.Why, c.why) || f.From != int(from) {
				t.Errorf("got %+v, want node %d elem %s why %q from %d", f, n, c.elem, c.why, from)
			}
			if v := s.Tape().Node(int(n)).Value.Data[f.Index]; !math.IsNaN(v) && v != f.Value {
				t.Errorf("value %v, element holds %v", f.Value, v)
			}
		})
	}
}

// TestBackwardFault steps each tape's reverse pass and checks the fault of
// one node's VJP step: which node, which element,
// why, and which value the gradient flowed through.
func TestBackwardFault(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(s *autograd.Session) (out, node, from op.Value)
		elem  string
		why   string
	}{
		{"through log(0)", func(s *autograd.Session) (op.Value, op.Value, op.Value) {
			l := op.Log(s, s.Param(vec(1, 0), "x"))
			return op.Sum(s, l), l, l
		}, "[1]", "dX[1] = +∞ by dX = dY ⊘ X at dY = 1, X = 0, Y = −∞: the gradient flows through an infinite value at node 1"},
		{"sqrt at 0, all finite", func(s *autograd.Session) (op.Value, op.Value, op.Value) {
			r := op.Sqrt(s, s.Param(vec(0), "x"))
			return op.Sum(s, r), r, -1
		}, "[0]", "dX[0] = +∞ by dX = dY ⊘ (2Y) at dY = 1, X = 0, Y = 0"},
		{"cotangent already infinite", func(s *autograd.Session) (op.Value, op.Value, op.Value) {
			e := op.Exp(s, s.Param(vec(1000), "p"))
			q := op.Neg(s, s.Param(vec(1), "x"))
			return op.Sum(s, op.Mul(s, q, e)), q, -1
		}, "[0]", "dX[0] = −∞: the gradient arrived as dY[0] = +∞"},
		{"matmul through an infinite operand", func(s *autograd.Session) (op.Value, op.Value, op.Value) {
			e := op.Exp(s, s.Param(tensor.Matrix([][]float64{{1000}}), "p"))
			m := op.MatMul(s, s.Param(tensor.Matrix([][]float64{{2}}), "a"), e)
			return op.Sum(s, m), m, e
		}, "[0 0]", "dA[0 0] = +∞ (B[0 0] = +∞): the gradient flows through an infinite value at node 1"},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := autograd.NewSession()
			out, node, from := c.build(s)
			if s.Err() != nil {
				t.Fatal(s.Err())
			}
			tp := s.Tape()
			cur, err := autograd.NewCursor(tp, int(out))
			if err != nil {
				t.Fatal(err)
			}
			for {
				if _, ok := cur.Forward(); !ok {
					break
				}
			}
			for {
				e, ok := cur.Backward()
				if !ok {
					t.Fatalf("node %d's VJP step made no non-finite contribution", node)
				}
				f, bad := tp.BackwardFault(e.Node, e.Grad, e.Contribs, op.Float64)
				if !bad || e.Node != int(node) {
					continue
				}
				if f.Node != int(node) || !f.Backward || f.Elem != c.elem || f.Why != c.why || f.From != int(from) {
					t.Errorf("got %+v\nwant node %d elem %s from %d why\n%q", f, node, c.elem, from, c.why)
				}
				return
			}
		})
	}
}

// TestWhyPlugsInAFormat checks that the reasons quote the format's
// limits: exp overflows at 88.72 in float32.
func TestWhyPlugsInAFormat(t *testing.T) {
	exp, _ := op.Lookup("exp")
	f32 := op.Float{Name: "float32", Max: math.MaxFloat32}
	if got, want := exp.Why([]float64{89}, math.Inf(1), op.Attrs{}, f32), "exp(89) = +∞: exp overflows above 88.72 in float32"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
