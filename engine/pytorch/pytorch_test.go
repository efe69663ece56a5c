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
	code, err := Code(sm, m, "test")
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
