//go:build !(js && wasm)

// Running python3 needs a process; under js/wasm the tests run in node, which
// cannot start one, so this check is native only.

package pytorch

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

func TestCodeCompiles(t *testing.T) {
	py, err := exec.LookPath("python3")
	if err != nil {
		t.Fatal("python3 is needed to check the generated code: ", err)
	}
	code := sampleCode(t)
	f := filepath.Join(t.TempDir(), "model.py")
	if err := os.WriteFile(f, code, 0o644); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command(py, "-m", "py_compile", f).CombinedOutput(); err != nil {
		t.Fatalf("py_compile: %v\n%s\n%s", err, out, code)
	}
}
