package graph

import (
	"errors"
	"math"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

func lookup(t testing.TB, name string) *op.Op {
	t.Helper()
	o, ok := op.Lookup(name)
	if !ok {
		t.Fatalf("op %s is not in the catalogue", name)
	}
	return o
}

// mlp records x·w + b → tanh → sum on b, the way a program would.
func mlp(b *Builder) op.Value {
	x := b.Input("x", tensor.Shape{4, 3})
	w := b.Param("w", tensor.Shape{3, 1})
	h := op.MatMul(b, x, w)
	h = op.AddBias(b, h, b.Param("b", tensor.Shape{1}))
	h = op.Tanh(b, op.Scale(b, h, 0.5))
	return op.Sum(b, op.Add(b, h, b.Const(tensor.Matrix([][]float64{{1}, {2}, {3}, {math.Copysign(0, -1)}}))))
}

func TestBuilderListing(t *testing.T) {
	b := NewBuilder()
	out := mlp(b)
	g, err := b.Graph()
	if err != nil {
		t.Fatal(err)
	}
	if int(out) != g.Len()-1 {
		t.Errorf("output id %d, graph has %d values", out, g.Len())
	}
	want := `%0 = input "x" : [4 3]
%1 = param "w" : [3 1] grad
%2 = matmul %0 %1 : [4 1] grad
%3 = param "b" : [1] grad
%4 = add_bias %2 %3 : [4 1] grad
%5 = scale{alpha=0.5} %4 : [4 1] grad
%6 = tanh %5 : [4 1] grad
%7 = const : [4 1] = 1 2 3 -0
%8 = add %6 %7 : [4 1] grad
%9 = sum %8 : [] grad
`
	if got := g.String(); got != want {
		t.Errorf("listing:\n%s\nwant:\n%s", got, want)
	}
	if got := g.Inputs(); len(got) != 3 || got[0] != 0 || got[1] != 1 || got[2] != 3 {
		t.Errorf("Inputs() = %v, want [0 1 3]", got)
	}
}

// TestMLPGradient checks one small program against gradients worked by hand.
func TestMLPGradient(t *testing.T) {
	b := NewBuilder()
	x := b.Param("x", tensor.Shape{2})
	y := op.Sum(b, op.Mul(b, x, x)) // d/dx Σx² = 2x
	g, err := b.Graph()
	if err != nil {
		t.Fatal(err)
	}
	cc, err := CompileChecked(g, []*tensor.Tensor{tensor.Vector(3, -0.5)})
	if err != nil {
		t.Fatal(err)
	}
	grads, visited, err := cc.BackwardFrom(int(y), tensor.Scalar(1))
	if err != nil {
		t.Fatal(err)
	}
	if !tensor.Identical(grads[x], tensor.Vector(6, -1)) || visited != 2 {
		t.Errorf("grad %v visited %d, want [6 -1] and 2", grads[x], visited)
	}
	if v := cc.Values()[y].Data[0]; v != 9.25 {
		t.Errorf("value %v, want 9.25", v)
	}
}

func TestBuilderErrorsNameTheValue(t *testing.T) {
	matmul, add := lookup(t, "matmul"), lookup(t, "add")
	tests := []struct {
		name string
		rec  func(b *Builder)
		want []string
	}{
		{"shape mismatch", func(b *Builder) {
			op.MatMul(b, b.Input("a", tensor.Shape{2, 3}), b.Input("b", tensor.Shape{4, 5}))
		}, []string{"node 2", "matmul([2 3], [4 5])", "inner dimensions differ"}},
		{"operand does not exist", func(b *Builder) {
			op.Add(b, b.Input("a", tensor.Shape{2}), op.Value(7))
		}, []string{"node 1", "add", "operand 1 refers to value 7", "does not exist"}},
		{"wrong arity", func(b *Builder) {
			a := b.Input("a", tensor.Shape{2})
			b.ApplyN(add, op.Attrs{}, []op.Value{a, a, a})
		}, []string{"node 1", "add", "takes 2 operands, got 3"}},
		{"missing operand", func(b *Builder) {
			b.Apply(matmul, op.Attrs{}, b.Input("a", tensor.Shape{2, 2}), op.NoValue, op.NoValue)
		}, []string{"node 1", "matmul", "takes 2 operands, got 1"}},
		{"nil op", func(b *Builder) {
			b.Apply(nil, op.Attrs{}, b.Input("a", tensor.Shape{2}), op.NoValue, op.NoValue)
		}, []string{"node 1", "no op"}},
		{"incomplete op", func(b *Builder) {
			b.Apply(&op.Op{Name: "half"}, op.Attrs{}, b.Input("a", tensor.Shape{2}), op.NoValue, op.NoValue)
		}, []string{"node 1", "half", "incomplete"}},
		{"bad input shape", func(b *Builder) {
			b.Input("a", tensor.Shape{2, 0})
		}, []string{"node 0", "input", "[2 0]", "invalid shape"}},
		{"bad constant", func(b *Builder) {
			b.Input("a", tensor.Shape{2})
			b.Const(&tensor.Tensor{Shape: tensor.Shape{3}, Data: []float64{1}})
		}, []string{"node 1", "const([3])", "does not match"}},
		{"nil constant", func(b *Builder) { b.Const(nil) }, []string{"node 0", "const", "missing"}},
		{"const is not a leaf kind", func(b *Builder) {
			b.Leaf("c", tensor.Shape{1}, autograd.Const, false)
		}, []string{"node 0", "const", "must be an input or a param"}},
		{"first error is kept", func(b *Builder) {
			a := b.Input("a", tensor.Shape{2})
			c := op.Add(b, a, b.Input("b", tensor.Shape{3}))
			op.Tanh(b, op.MatMul(b, c, c))
		}, []string{"node 2", "add([2], [3])", "operand shapes differ"}},
		{"empty graph", func(*Builder) {}, []string{"empty graph"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			tc.rec(b)
			g, err := b.Graph()
			if err == nil || g != nil {
				t.Fatalf("no error (graph %v)", g)
			}
			var e *op.Error
			if !errors.As(err, &e) {
				t.Errorf("error %T is not an *op.Error", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if b.Err() != nil && b.Apply(lookup(t, "neg"), op.Attrs{}, 0, op.NoValue, op.NoValue) != op.NoValue {
				t.Error("an op after the error was recorded")
			}
		})
	}
}

// broken returns a valid graph with one thing changed by f.
func broken(t *testing.T, f func(g *Graph)) *Graph {
	b := NewBuilder()
	mlp(b)
	g, err := b.Graph()
	if err != nil {
		t.Fatal(err)
	}
	f(g)
	return g
}

func mlpInputs() []*tensor.Tensor {
	return []*tensor.Tensor{tensor.Zeros(tensor.Shape{4, 3}), tensor.Zeros(tensor.Shape{3, 1}), tensor.Vector(0.5)}
}

// TestEntryPointsRejectBadInput feeds every entry point a broken graph or
// wrong inputs: each returns an error naming the value, never panics.
func TestEntryPointsRejectBadInput(t *testing.T) {
	good := broken(t, func(*Graph) {})
	bad := []struct {
		name   string
		g      *Graph
		inputs []*tensor.Tensor
		want   []string
	}{
		{"nil graph", nil, nil, []string{"empty graph"}},
		{"empty graph", &Graph{}, nil, []string{"empty graph"}},
		{"too few inputs", good, mlpInputs()[:2], []string{"3 inputs, got 2"}},
		{"nil input", good, []*tensor.Tensor{nil, tensor.Zeros(tensor.Shape{3, 1}), tensor.Vector(0)}, []string{"node 0", "missing"}},
		{"wrong input shape", good, []*tensor.Tensor{tensor.Zeros(tensor.Shape{3, 4}), tensor.Zeros(tensor.Shape{3, 1}), tensor.Vector(0)}, []string{"node 0", `"x"`, "[4 3]", "[3 4]"}},
		{"operand out of range", broken(t, func(g *Graph) { g.Values[2].Args[1] = 12 }), mlpInputs(), []string{"node 2", "matmul", "value 12"}},
		{"forward reference", broken(t, func(g *Graph) { g.Values[2].Args[1] = 2 }), mlpInputs(), []string{"node 2", "not an earlier value"}},
		{"negative operand", broken(t, func(g *Graph) { g.Values[4].Args[0] = -1 }), mlpInputs(), []string{"node 4", "add_bias", "value -1"}},
		{"wrong arity", broken(t, func(g *Graph) { g.Values[8].Args = g.Values[8].Args[:1] }), mlpInputs(), []string{"node 8", "add", "takes 2 operands, got 1"}},
		{"recorded shape differs", broken(t, func(g *Graph) { g.Values[2].Shape = tensor.Shape{1, 4} }), mlpInputs(), []string{"node", "[1 4]"}},
		{"operand shapes differ", broken(t, func(g *Graph) { g.Values[2].Args[1] = 0 }), mlpInputs(), []string{"node 2", "matmul([4 3], [4 3])"}},
		{"wrong requires-grad", broken(t, func(g *Graph) { g.Values[6].RequiresGrad = false }), mlpInputs(), []string{"node 6", "tanh", "requires-grad"}},
		{"const tensor mismatch", broken(t, func(g *Graph) { g.Values[7].Const = tensor.Vector(1) }), mlpInputs(), []string{"node 7", "const"}},
		{"const with grad", broken(t, func(g *Graph) { g.Values[7].RequiresGrad = true }), mlpInputs(), []string{"node 7", "const", "cannot require"}},
		{"nil op", broken(t, func(g *Graph) { g.Values[6].Op = nil }), mlpInputs(), []string{"node 6", "no op"}},
		{"bad shape", broken(t, func(g *Graph) { g.Values[0].Shape = tensor.Shape{0, 3} }), mlpInputs(), []string{"node 0", "invalid shape"}},
		{"unknown kind", broken(t, func(g *Graph) { g.Values[5].Kind = 9 }), mlpInputs(), []string{"node 5", "unknown value kind"}},
	}
	for _, tc := range bad {
		t.Run(tc.name, func(t *testing.T) {
			check := func(entry string, err error) {
				t.Helper()
				if err == nil {
					t.Errorf("%s: no error", entry)
					return
				}
				for _, w := range tc.want {
					if !strings.Contains(err.Error(), w) {
						t.Errorf("%s: error %q does not mention %q", entry, err, w)
					}
				}
			}
			_, err := Eval(tc.g, tc.inputs)
			check("Eval", err)
			_, err = Backprop(tc.g, tc.inputs, nil)
			check("Backprop", err)
			_, _, err = Compile(tc.g, tc.inputs)
			check("Compile", err)
			_, err = LowerChecked(tc.g, tc.inputs)
			check("LowerChecked", err)
			_, err = CompileChecked(tc.g, tc.inputs)
			check("CompileChecked", err)
		})
	}
}

func TestSeedsAreChecked(t *testing.T) {
	g := broken(t, func(*Graph) {})
	in := mlpInputs()
	cc, err := CompileChecked(g, in)
	if err != nil {
		t.Fatal(err)
	}
	seeds := oneHot(cc.Values(), 9, tensor.Scalar(1))
	if _, err := Backprop(g, in, seeds[:3]); err == nil || !strings.Contains(err.Error(), "10 values, got 3 seeds") {
		t.Errorf("Backprop short pack: %v", err)
	}
	if _, err := cc.BackwardDenseFrom(seeds[:3]); err == nil || !strings.Contains(err.Error(), "10 values, got 3 seeds") {
		t.Errorf("BackwardDenseFrom short pack: %v", err)
	}
	wrong := append([]*tensor.Tensor(nil), seeds...)
	wrong[2] = tensor.Zeros(tensor.Shape{1, 4})
	for name, err := range map[string]error{
		"Backprop":          second(Backprop(g, in, wrong)),
		"BackwardDenseFrom": second(cc.BackwardDenseFrom(wrong)),
	} {
		if err == nil || !strings.Contains(err.Error(), "node 2 matmul([4 1], [1 4])") {
			t.Errorf("%s, wrong seed shape: %v", name, err)
		}
	}
	wrong[2] = nil
	if _, err := cc.BackwardDenseFrom(wrong); err == nil || !strings.Contains(err.Error(), "node 2") {
		t.Errorf("nil seed: %v", err)
	}
	for _, tc := range []struct {
		out  int
		seed *tensor.Tensor
		want string
	}{
		{10, tensor.Scalar(1), "value 10 does not exist"},
		{-1, tensor.Scalar(1), "value -1 does not exist"},
		{9, tensor.Vector(1, 2), "node 9 sum([], [2])"},
		{2, tensor.Scalar(1), "node 2 matmul([4 1], [])"},
		{9, nil, "node 9 sum([]): seed is missing"},
	} {
		if _, _, err := cc.BackwardFrom(tc.out, tc.seed); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("BackwardFrom(%d, %v): %v, want %q", tc.out, tc.seed, err, tc.want)
		}
	}
	var none *Compiled
	if _, _, err := none.BackwardFrom(0, tensor.Scalar(1)); err == nil {
		t.Error("nil Compiled: no error")
	}
	if _, err := none.BackwardDenseFrom(nil); err == nil {
		t.Error("nil Compiled: no error")
	}
	if none.Len() != 0 || none.Values() != nil || none.Tape().Len() != 0 || none.Certified() {
		t.Error("nil Compiled is not empty")
	}
}

func second[T any](_ T, err error) error { return err }
