package pytorch

import (
	"math"
	"strings"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
)

// TestFloat checks that the Python literals keep every float's bits.
func TestFloat(t *testing.T) {
	for v, want := range map[float64]string{
		1: "1.0", -0.5: "-0.5", 1e-300: "1e-300", math.Copysign(0, -1): "-0.0", 0: "0.0", 2: "2.0", 0.1: "0.1",
		1e21: "1e+21", 5e-324: "5e-324", math.Inf(1): "float('inf')", math.Inf(-1): "float('-inf')",
	} {
		if got := Float(v); got != want {
			t.Errorf("Float(%v) = %s, want %s", v, got, want)
		}
	}
	if got := Float(math.NaN()); got != "float('nan')" {
		t.Errorf("Float(NaN) = %s", got)
	}
}

// TestCodeCompiles writes a model with every 1-D layer type and checks the
// code with python3 -m py_compile (the numbers against torch are the
// command line's TestGradMatchesPyTorch).
// sampleCode exports a model that uses every layer type the exporter writes.
func sampleCode(t *testing.T) []byte {
	t.Helper()
	sm := spec.New(tensor.Shape{2}, nn.CrossEntropy, nn.NewLinear(6), nn.NewBatchNorm(), nn.Tanh{}, nn.NewDropout(),
		nn.NewLeakyReLU(), nn.GELU{}, nn.ReLU{}, nn.NewLinear(3), nn.Sigmoid{}, nn.NewLinear(2))
	m, err := sm.Build()
	if err != nil {
		t.Fatal(err)
	}
	code, err := Code(sm, m, "test", nil)
	if err != nil {
		t.Fatal(err)
	}
	return code
}

func TestCodeHasTheModel(t *testing.T) {
	code := sampleCode(t)
	for _, want := range []string{"nn.Sequential(", "nn.BatchNorm1d(6", "load_state_dict", "nn.CrossEntropyLoss()"} {
		if !strings.Contains(string(code), want) {
			t.Errorf("code lacks %q", want)
		}
	}
}

// TestEveryLayerTypeHasAModule fills every registered type's module
// template with its default settings: every placeholder names an input
// dimension or a setting.
func TestEveryLayerTypeHasAModule(t *testing.T) {
	for _, lt := range nn.LayerTypes() {
		l := lt.New(lt.Defaults())
		in := tensor.Shape{4}
		if _, err := l.OutShape(in); err != nil {
			in = tensor.Shape{2, 6, 6}
		}
		mod, err := module(l, in)
		if err != nil {
			t.Errorf("%s: %v", lt.Name, err)
			continue
		}
		if strings.ContainsAny(mod.Module, "{}") || !strings.HasPrefix(mod.Module, "nn.") {
			t.Errorf("%s: module %q", lt.Name, mod.Module)
		}
	}
	if _, err := module(struct{ nn.ReLU }{}, tensor.Shape{2}); err == nil {
		t.Error("a layer that is not the registry's relu was exported as one")
	}
}

// TestCodeCarriesItsBatch checks what an export with a batch holds: the
// inputs and targets (class indices as integers for cross_entropy), the
// mode, the L2 penalty, and a __main__ that prints the loss; a batch whose
// inputs and targets disagree is refused.
func TestCodeCarriesItsBatch(t *testing.T) {
	x := &tensor.Tensor{Shape: tensor.Shape{2, 2}, Data: []float64{1, -0.5, 0.25, 2}}
	tests := []struct {
		name  string
		loss  nn.Loss
		y     *tensor.Tensor
		batch Batch
		want  []string
		not   []string
	}{
		{"mse train", nn.MSE, &tensor.Tensor{Shape: tensor.Shape{2, 1}, Data: []float64{1, 0}}, Batch{},
			[]string{"X = torch.tensor([[1.0, -0.5], [0.25, 2.0]]", "Y = torch.tensor([[1.0], [0.0]], dtype=torch.float64)", "model.train()", `print("loss =", repr(loss.item()))`},
			[]string{"model.eval()", "penalty"}},
		{"cross_entropy eval, L2", nn.CrossEntropy, &tensor.Tensor{Shape: tensor.Shape{2}, Data: []float64{1, 0}}, Batch{Eval: true, L2: 0.01},
			[]string{"Y = torch.tensor([1, 0], dtype=torch.long)", "model.eval()", "loss = loss + penalty * 0.01"},
			[]string{"model.train()"}},
	}
	for _, tt := range tests {
		sm := spec.New(tensor.Shape{2}, tt.loss, nn.NewLinear(3), nn.Tanh{}, nn.NewLinear(2))
		m, err := sm.Build()
		if err != nil {
			t.Fatal(err)
		}
		b := tt.batch
		b.X, b.Y = x, tt.y
		code, err := Code(sm, m, "test", &b)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		for _, w := range tt.want {
			if !strings.Contains(string(code), w) {
				t.Errorf("%s: the code lacks %q:\n%s", tt.name, w, code)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(string(code), w) {
				t.Errorf("%s: the code holds %q:\n%s", tt.name, w, code)
			}
		}
	}
	sm := spec.New(tensor.Shape{2}, nn.MSE, nn.NewLinear(1))
	m, _ := sm.Build()
	if _, err := Code(sm, m, "test", &Batch{X: x, Y: &tensor.Tensor{Shape: tensor.Shape{3, 1}, Data: make([]float64, 3)}}); err == nil {
		t.Error("a batch of 2 inputs and 3 targets was exported")
	}
}
