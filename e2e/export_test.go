//go:build !js

package e2e

import (
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestExportReproducesThePagesLoss steps the default model to the end as a
// person would, takes the PyTorch download (the text tapelabExport gives
// the download button) and runs it with /usr/bin/python3 and torch: the
// loss it prints must be the loss node's value the page shows (its "tape
// as text" download, at full precision), to 1e-9 relative. Then again with
// the L2 penalty on, which the page adds to the loss. Without torch it
// skips, or fails with TAPELAB_TORCH=required (./build.sh test).
func TestExportReproducesThePagesLoss(t *testing.T) {
	const py = "/usr/bin/python3"
	if exec.Command(py, "-c", "import torch").Run() != nil {
		if os.Getenv("TAPELAB_TORCH") == "required" {
			t.Fatal("no torch for /usr/bin/python3 (Debian: apt-get install python3-torch), and TAPELAB_TORCH=required, as ./build.sh test sets")
		}
		t.Skip("no torch for /usr/bin/python3 (Debian: apt-get install python3-torch): the exported file cannot be run")
	}
	p := openPlayground(t, 1280, 720)
	for _, c := range []struct{ name, toggle string }{{"default", ""}, {"l2", "l2"}} {
		if c.toggle != "" {
			click(t, p.tab, "#"+c.toggle)
			p.waitFor(`tapelabExport("tape-text").includes("[data loss]")`, "the step recorded with the penalty")
		}
		p.clickAndRedraw("to-end")
		want := pageLoss(t, p.js(`tapelabExport("tape-text")`))
		code := p.js(`tapelabExport("pytorch")`)
		file := filepath.Join(t.TempDir(), c.name+".py")
		if err := os.WriteFile(file, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
		out, err := exec.Command(py, file).CombinedOutput()
		if err != nil {
			t.Fatalf("%s: python3 on the exported file: %v\n%s\n%s", c.name, err, out, code)
		}
		got, ok := 0.0, false
		for line := range strings.Lines(string(out)) {
			if v, found := strings.CutPrefix(strings.TrimSpace(line), "loss = "); found {
				got, err = strconv.ParseFloat(v, 64)
				ok = err == nil
			}
		}
		if !ok {
			t.Errorf("%s: the exported file printed %q, want a line \"loss = …\"", c.name, out)
			continue
		}
		if math.Abs(got-want) > 1e-9*math.Abs(want) {
			t.Errorf("%s: the exported file prints the loss %v, the page shows %v", c.name, got, want)
		}
	}
}

// pageLoss reads the loss node's value from the page's tape as text.
func pageLoss(t *testing.T, tape string) float64 {
	t.Helper()
	lines := strings.Split(tape, "\n")
	for i, l := range lines {
		if !strings.HasSuffix(l, "[loss]") || i+1 >= len(lines) {
			continue
		}
		v, ok := strings.CutPrefix(strings.TrimSpace(lines[i+1]), "value [")
		if !ok {
			break
		}
		f, err := strconv.ParseFloat(strings.TrimSuffix(v, "]"), 64)
		if err != nil {
			t.Fatalf("the loss's value %q: %v", lines[i+1], err)
		}
		return f
	}
	t.Fatalf("the page's tape as text has no loss value:\n%s", tape)
	return 0
}
