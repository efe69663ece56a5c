package cli

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExportedFileReproducesTheLoss exports each test model with its data
// file and runs the file with a python3 that has torch: the loss it prints
// must be the loss `grad` prints, to 1e-9 relative. It also checks that the
// file carries the data, so that running it needs nothing else.
func TestExportedFileReproducesTheLoss(t *testing.T) {
	py := torchPython(t)
	if py == "" {
		t.Skip("no python3 with torch here (Debian: apt-get install python3-torch): the exported files cannot be run")
	}
	dir := t.TempDir()
	for _, name := range cliModels {
		model, data := "testdata/"+name+".json", "testdata/"+name+"_data.json"
		code, _, err := runCLI(t, "export", "-model", model, "-data", data, "-format", "pytorch")
		if err != nil {
			t.Fatalf("%s: export: %v", name, err)
		}
		file := filepath.Join(dir, name+".py")
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(py, file).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: python3 %s: %v\n%s", name, file, err, out)
		}
		got, ok := printedLoss(string(out))
		if !ok {
			t.Errorf("%s: running the exported file printed %q, want a line \"loss = …\"", name, out)
			continue
		}
		g, _, err := runCLI(t, "grad", "-model", model, "-data", data)
		if err != nil {
			t.Fatalf("%s: grad: %v", name, err)
		}
		want := parseGrad(t, g).Loss
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("%s: the exported file prints the loss %v, grad %v", name, got, want)
		}
	}
}

// printedLoss finds the line "loss = V" in a script's output.
func printedLoss(out string) (float64, bool) {
	for line := range strings.Lines(out) {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "loss = "); ok {
			f, err := strconv.ParseFloat(v, 64)
			return f, err == nil
		}
	}
	return 0, false
}

// TestExportWithoutDataHasNoBatch checks that a file exported without -data
// carries no batch (its __main__ prints the model's output for zeros).
func TestExportWithoutDataHasNoBatch(t *testing.T) {
	code, _, err := runCLI(t, "export", "-model", "testdata/mlp.json", "-format", "pytorch")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(code, "X = torch.tensor") {
		t.Errorf("an export without -data carries a batch:\n%s", code)
	}
}
