package train

import (
	"math"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// TestDatasetsFollowTheirRules checks each generator's labelling rule on
// noise-free data, the class balance, reproducibility and the split.
func TestDatasetsFollowTheirRules(t *testing.T) {
	rules := map[string]func(x, y float64) float64{
		"circle": func(x, y float64) float64 { return class(math.Hypot(x, y) < 2.5) },
		"xor":    func(x, y float64) float64 { return class(x*y >= 0) },
		"gauss":  func(x, y float64) float64 { return class(x+y > 0) }, // blobs at ±(2, 2), variance 0.5: separable in practice
		"reg-plane": func(x, y float64) float64 {
			return (x + y) / 10
		},
		"sine": nil,
	}
	for _, name := range DatasetNames() {
		t.Run(name, func(t *testing.T) {
			c := DefaultData(name)
			c.N, c.TrainSplit = 400, 1
			tr, te, err := Generate(c)
			if err != nil {
				t.Fatal(err)
			}
			if te != nil || tr.Len() != 400 {
				t.Fatalf("split 1 gave %d train, test %v", tr.Len(), te)
			}
			g := generators[name]
			if tr.X.Shape[1] != g.features || tr.Y.Shape[1] != 1 || tr.Classes != g.classes {
				t.Fatalf("shapes %v %v classes %d", tr.X.Shape, tr.Y.Shape, tr.Classes)
			}
			ones := 0.0
			for i := 0; i < tr.Len(); i++ {
				y := tr.Y.Data[i]
				if rule := rules[name]; rule != nil {
					if want := rule(tr.X.Data[2*i], tr.X.Data[2*i+1]); math.Abs(want-y) > 1e-12 {
						t.Fatalf("example %d at (%v, %v): target %v, rule says %v", i, tr.X.Data[2*i], tr.X.Data[2*i+1], y, want)
					}
				}
				if name == "sine" && y != math.Sin(tr.X.Data[i]) {
					t.Fatalf("sine example %d: %v vs sin(%v)", i, y, tr.X.Data[i])
				}
				if g.classes > 0 && y != 0 && y != 1 {
					t.Fatalf("class %v", y)
				}
				ones += y
			}
			if g.classes > 0 && name != "xor" && ones != 200 {
				t.Errorf("%v examples of class 1, want 200", ones)
			}
			again, _, _ := Generate(c)
			if !tensor.Identical(again.X, tr.X) || !tensor.Identical(again.Y, tr.Y) {
				t.Error("the same configuration gave different data")
			}
			c.Seed = 9
			other, _, _ := Generate(c)
			if tensor.Identical(other.X, tr.X) {
				t.Error("a different seed gave the same data")
			}
			c.Seed, c.TrainSplit, c.Noise = 0, 0.3, 0.2
			a, b, err := Generate(c)
			if err != nil || a.Len() != 120 || b.Len() != 280 {
				t.Fatalf("split 0.3 of 400: %v, %v (%v)", a, b, err)
			}
		})
	}
}

func TestDatasetFits(t *testing.T) {
	mk := func(loss nn.Loss, in tensor.Shape, out int) *nn.Model {
		seq, err := nn.NewSeq(in, nn.NewLinear(out))
		if err != nil {
			t.Fatal(err)
		}
		m, err := nn.NewModel(seq, loss, 0, nn.InitPyTorch)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	circle, _, _ := Generate(DataConfig{Name: "circle", N: 10, TrainSplit: 1})
	reg := &Dataset{X: tensor.Matrix([][]float64{{1, 2}, {3, 4}}), Y: tensor.Matrix([][]float64{{0.5}, {2}})}
	tests := []struct {
		name string
		d    *Dataset
		m    *nn.Model
		want string
	}{
		{"ok mse", circle, mk(nn.MSE, tensor.Shape{2}, 1), ""},
		{"ok ce", circle, mk(nn.CrossEntropy, tensor.Shape{2}, 2), ""},
		{"features", circle, mk(nn.MSE, tensor.Shape{3}, 1), "examples have 2 features, the model input [3] needs 3"},
		{"targets", circle, mk(nn.MSE, tensor.Shape{2}, 2), "examples have 1 targets, the model output [2] needs 2"},
		{"too few logits", circle, mk(nn.CrossEntropy, tensor.Shape{2}, 1), "the data has 2 classes, the model gives 1 logits"},
		{"class index", reg, mk(nn.CrossEntropy, tensor.Shape{2}, 3), "example 0: class index 0.5 is out of range (want a whole number from 0 to 2)"},
	}
	for _, tc := range tests {
		err := tc.d.Fits(tc.m)
		if got := ""; err != nil {
			got = err.Error()
			if got != tc.want {
				t.Errorf("%s: err = %q, want %q", tc.name, got, tc.want)
			}
		} else if tc.want != "" {
			t.Errorf("%s: no error, want %q", tc.name, tc.want)
		}
	}
	if err := (DataConfig{Name: "reg-gauss", N: 10, TrainSplit: 1}).Fits(tensor.Shape{2}, tensor.Shape{1}, nn.BCEWithLogits); err == nil {
		t.Error("a regression set fits bce_with_logits")
	}
}
