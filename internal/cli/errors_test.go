package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTemp writes content to a file named name in a fresh directory.
func writeTemp(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCLIErrors runs each command on bad input, as a user would type it,
// and checks the error names the file and the JSON path or layer at fault
// and that nothing is printed to stdout.
func TestCLIErrors(t *testing.T) {
	const mlp = "testdata/mlp.json"
	const mlpData = "testdata/mlp_data.json"
	badOut := writeTemp(t, "M.json", `{"version": 1, "input": [2], "layers": [{"type": "linear", "out": 4}, {"type": "tanh"}, {"type": "linear", "out": 0}], "loss": "mse"}`)
	chain := writeTemp(t, "M.json", `{"version": 1, "input": [2], "layers": [{"type": "linear", "out": 4}, {"type": "conv2d", "out_channels": 2, "kernel_size": 3}], "loss": "mse"}`)
	wrongParam := writeTemp(t, "M.json", `{"version": 1, "input": [2], "layers": [{"type": "linear", "out": 1}], "loss": "mse", "params": {"0.weight": [[1, 2, 3]]}}`)
	ce := writeTemp(t, "M.json", `{"version": 1, "input": [2], "layers": [{"type": "linear", "out": 3}], "loss": "cross_entropy"}`)
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"no model", []string{"grad", "-data", mlpData}, "-model is required"},
		{"no data", []string{"grad", "-model", mlp}, "-data is required"},
		{"missing file", []string{"grad", "-model", "testdata/nope.json", "-data", mlpData}, "nope.json: no such file"},
		{"bad layer setting", []string{"grad", "-model", badOut, "-data", mlpData}, "M.json: layers[2].out: must be ≥ 1"},
		{"shapes do not chain", []string{"ir", "-model", chain}, "M.json: layers[1]"},
		{"parameter of the wrong shape", []string{"export", "-model", wrongParam}, `M.json: params["0.weight"]`},
		{"ragged data row", []string{"grad", "-model", mlp, "-data", writeTemp(t, "D.json", `{"x": [[1, 2], [1, 2, 3]], "y": [[1], [2]]}`)}, "D.json: x[1]: 3 numbers, x[0] has 2"},
		{"null in data", []string{"grad", "-model", mlp, "-data", writeTemp(t, "D.json", `{"x": [[1, null]], "y": [[1]]}`)}, "D.json: x[0]: null is not a number"},
		{"examples do not fit the input", []string{"grad", "-model", mlp, "-data", writeTemp(t, "D.json", `{"x": [[1, 2, 3]], "y": [[1]]}`)}, "D.json: examples have 3 features, the model input [2] needs 2"},
		{"y rows differ from x rows", []string{"grad", "-model", mlp, "-data", writeTemp(t, "D.json", `{"x": [[1, 2]], "y": [[1], [2]]}`)}, "D.json: y: 2 entries for 1 examples in x"},
		{"targets do not fit the output", []string{"grad", "-model", mlp, "-data", writeTemp(t, "D.json", `{"x": [[1, 2]], "y": [[1, 2]]}`)}, "D.json: examples have 2 targets, the model output [1] needs 1"},
		{"unknown data field", []string{"grad", "-model", mlp, "-data", writeTemp(t, "D.json", `{"x": [[1, 2]], "y": [[1]], "z": 1}`)}, `D.json: data: json: unknown field "z"`},
		{"data not JSON", []string{"grad", "-model", mlp, "-data", writeTemp(t, "D.json", `{"x": [[1, 2]`)}, "D.json: data: unexpected EOF"},
		{"class index out of range", []string{"grad", "-model", ce, "-data", writeTemp(t, "D.json", `{"x": [[1, 2], [3, 4]], "y": [0, 3]}`)}, "D.json: example 1: class index 3 is out of range (want a whole number from 0 to 2)"},
		{"class index not whole", []string{"grad", "-model", ce, "-data", writeTemp(t, "D.json", `{"x": [[1, 2]], "y": [0.5]}`)}, "D.json: example 0: class index 0.5 is out of range"},
		{"unknown format", []string{"export", "-model", mlp, "-format", "onnx"}, `-format "onnx": only pytorch is supported`},
		{"stray argument", []string{"ir", "-model", mlp, "extra"}, `ir takes no arguments, got ["extra"]`},
		{"bad mode", []string{"ir", "-model", mlp, "-mode", "test"}, `-mode "test": want eval or train`},
		{"bad batch", []string{"ir", "-model", mlp, "-batch", "0"}, "-batch 0: must be at least 1"},
		{"unknown flag", []string{"grad", "-modle", mlp}, "flag provided but not defined: -modle"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out, _, err := runCLI(t, tc.args...)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error = %v, want it to contain %q", err, tc.want)
			}
			if out != "" {
				t.Errorf("printed %q to stdout on error", out)
			}
		})
	}
}
