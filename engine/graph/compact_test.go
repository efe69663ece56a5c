package graph

import (
	"math"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// TestCompactSkipsOnlyWhatIsExact shows the three cases of the package doc
// on small graphs, against the dense pass.
func TestCompactSkipsOnlyWhatIsExact(t *testing.T) {
	inf := math.Inf(1)
	negZero := math.Copysign(0, -1)
	tests := []struct {
		name    string
		rec     func(b *Builder) int // returns the output
		in      []*tensor.Tensor
		seed    *tensor.Tensor
		visited int
		check   func(g []*tensor.Tensor) bool
	}{
		{"unrelated branch is skipped", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			y := op.Tanh(b, x)
			op.Tanh(b, op.Scale(b, x, 3)) // not a dependency of y
			return int(y)
		}, []*tensor.Tensor{tensor.Vector(0.5)}, tensor.Vector(1), 1, nil},
		{"0·∞ on an unrelated branch is visited", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			y := op.Neg(b, x)
			op.Mul(b, x, b.Const(tensor.Vector(inf))) // its VJP gives 0·∞ = NaN to x
			return int(y)
		}, []*tensor.Tensor{tensor.Vector(2)}, tensor.Vector(1), 2, func(g []*tensor.Tensor) bool { return math.IsNaN(g[0].Data[0]) }},
		{"-0.0 seed visits the output's consumers", func(b *Builder) int {
			x := b.Param("x", tensor.Shape{1})
			op.Tanh(b, x) // adds +0 into x's -0 seed: the result is +0
			return int(x)
		}, []*tensor.Tensor{tensor.Vector(2)}, tensor.Vector(negZero), 1, func(g []*tensor.Tensor) bool {
			return g[0].Data[0] == 0 && !math.Signbit(g[0].Data[0])
		}},
		{"-0.0 seed on a value that takes no gradient", func(b *Builder) int {
			x := b.Input("x", tensor.Shape{1})
			op.Tanh(b, x)
			return int(x)
		}, []*tensor.Tensor{tensor.Vector(2)}, tensor.Vector(negZero), 0, func(g []*tensor.Tensor) bool { return math.Signbit(g[0].Data[0]) }},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			b := NewBuilder()
			out := tc.rec(b)
			g, err := b.Graph()
			if err != nil {
				t.Fatal(err)
			}
			cc, err := CompileChecked(g, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			dense, err := cc.BackwardDenseFrom(oneHot(cc.Values(), out, tc.seed))
			if err != nil {
				t.Fatal(err)
			}
			dense = cloneAll(dense)
			got, visited, err := cc.BackwardFrom(out, tc.seed)
			if err != nil {
				t.Fatal(err)
			}
			if err := sameTensors("compact vs dense", got, dense); err != nil {
				t.Error(err)
			}
			if visited != tc.visited {
				t.Errorf("visited %d, want %d", visited, tc.visited)
			}
			if tc.check != nil && !tc.check(got) {
				t.Errorf("gradients %v", got)
			}
		})
	}
}

// TestCompactFallsBackWithoutCertificate: one op without ZeroSafe anywhere
// in the reverse pass makes BackwardFrom run every VJP, still bit-identical.
func TestCompactFallsBackWithoutCertificate(t *testing.T) {
	uncertified := *lookup(t, "tanh")
	uncertified.ZeroSafe = nil
	b := NewBuilder()
	x := b.Param("x", tensor.Shape{2})
	y := op.Neg(b, x)
	b.Apply(&uncertified, op.Attrs{}, x, op.NoValue, op.NoValue)
	op.Scale(b, x, 2)
	g, err := b.Graph()
	if err != nil {
		t.Fatal(err)
	}
	cc, err := CompileChecked(g, []*tensor.Tensor{tensor.Vector(1, -1)})
	if err != nil {
		t.Fatal(err)
	}
	if cc.Certified() {
		t.Fatal("Certified() with an uncertified op")
	}
	seed := tensor.Vector(1, 2)
	dense, _ := cc.BackwardDenseFrom(oneHot(cc.Values(), int(y), seed))
	dense = cloneAll(dense)
	got, visited, err := cc.BackwardFrom(int(y), seed)
	if err != nil {
		t.Fatal(err)
	}
	if visited != 3 {
		t.Errorf("visited %d, want all 3", visited)
	}
	if err := sameTensors("fallback vs dense", got, dense); err != nil {
		t.Error(err)
	}
}

// TestGradientsAreReusedBuffers documents that a Compiled's results are
// overwritten by its next pass.
func TestGradientsAreReusedBuffers(t *testing.T) {
	b := NewBuilder()
	x := b.Param("x", tensor.Shape{1})
	y := op.Scale(b, x, 2)
	g, _ := b.Graph()
	cc, err := CompileChecked(g, []*tensor.Tensor{tensor.Vector(1)})
	if err != nil {
		t.Fatal(err)
	}
	first, _, _ := cc.BackwardFrom(int(y), tensor.Vector(1))
	kept := first[x].Clone()
	second, _, _ := cc.BackwardFrom(int(y), tensor.Vector(5))
	if kept.Data[0] != 2 || second[x].Data[0] != 10 || first[x].Data[0] != 10 {
		t.Errorf("kept %v, second %v, first now %v", kept, second[x], first[x])
	}
}
