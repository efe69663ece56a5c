package trainer

import (
	"math"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// twoParams is y = w·x + b on the sine data: two parameter values.
func twoParams() *spec.Model {
	m := spec.New(tensor.Shape{1}, nn.MSE, nn.NewLinear(1))
	m.Seed = 3
	m.Dataset = train.DefaultData("sine")
	return m
}

// TestSurfaceOfTwoParameters checks a two-parameter model's trail (its
// parameters at the start and after each step) and its loss surface: each
// cell is the training set's loss with the parameters at the cell's
// centre, as a session started from those weights measures it, and the
// session's own weights stay as they were.
func TestSurfaceOfTwoParameters(t *testing.T) {
	s, err := New(twoParams(), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	names, ok := s.Two()
	if !ok || names != [2]string{"0.weight[0]", "0.bias[0]"} {
		t.Fatalf("Two() = %q, %v", names, ok)
	}
	if _, err := s.Run(7); err != nil {
		t.Fatal(err)
	}
	tr := s.Trail()
	w, b := s.Model().Params[0].Data[0], s.Model().Params[1].Data[0]
	if len(tr) != 8 || tr[7] != (Point{w, b}) || tr[0] == tr[7] {
		t.Fatalf("trail %v after 7 steps at (%v, %v)", tr, w, b)
	}
	bounds := TrailBounds(tr)
	if !bounds.Contains(tr) || bounds.X1-bounds.X0 < 1 || bounds.Y1-bounds.Y0 != bounds.X1-bounds.X0 {
		t.Errorf("bounds %+v of trail %v", bounds, tr)
	}
	const n = 5
	f, err := s.Surface(bounds, n)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.Model().Params[0].Data[0]; got != w {
		t.Errorf("Surface moved the session's weight: %v → %v", w, got)
	}
	for _, cell := range [][2]int{{0, 0}, {2, 3}, {4, 4}} {
		r, c := cell[0], cell[1]
		m := twoParams()
		m.Params = map[string]*tensor.Tensor{
			"0.weight": {Shape: tensor.Shape{1, 1}, Data: []float64{bounds.X0 + (float64(c)+0.5)*(bounds.X1-bounds.X0)/n}},
			"0.bias":   {Shape: tensor.Shape{1}, Data: []float64{bounds.Y1 - (float64(r)+0.5)*(bounds.Y1-bounds.Y0)/n}},
		}
		at, err := New(m, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := f[r*n+c], at.Last().Train.Loss; math.Float64bits(got) != math.Float64bits(want) {
			t.Errorf("cell (%d, %d): surface %v, a session there %v", r, c, got, want)
		}
	}
	other, err := New(defaultModel("xor"), nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := other.Two(); ok || other.Trail() != nil {
		t.Errorf("the default model counts as two parameters")
	}
	if _, err := other.Surface(bounds, n); err == nil {
		t.Error("a surface of a model with 17 parameter values")
	}
}
