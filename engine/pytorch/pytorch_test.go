package pytorch

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
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
func TestCodeCompiles(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed to check the generated code: ", err)
	}
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
	for _, want := range []string{"nn.Sequential(", "nn.BatchNorm1d(6", "load_state_dict", "nn.CrossEntropyLoss()"} {
		if !strings.Contains(string(code), want) {
			t.Errorf("code lacks %q", want)
		}
	}
	f := filepath.Join(t.TempDir(), "model.py")
	if err := os.WriteFile(f, code, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, "-m", "py_compile", f).CombinedOutput(); err != nil {
		t.Fatalf("py_compile: %v\n%s\n%s", err, out, code)
	}
}
