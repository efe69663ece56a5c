package wasmbuild

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// jsTools returns node and the Go toolchain's lib/wasm folder (wasm_exec.js
// and its node runner, wasm_exec_node.js), which the tests that run a
// js/wasm program need; they are skipped with -short.
func jsTools(t *testing.T) (node, libWasm string) {
	t.Helper()
	if testing.Short() {
		t.Skip("compiles a program for js/wasm and runs it under node; skipped with -short")
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Fatal("node runs the js/wasm programs and is not on PATH:", err)
	}
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	return node, filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm")
}

// buildJS builds pkg for js/wasm into out with the go tool's arguments
// args (BuildArgs, for one) and returns the module.
func buildJS(t *testing.T, args []string) []byte {
	t.Helper()
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	wasm, err := os.ReadFile(args[len(args)-2]) // -o out pkg
	if err != nil {
		t.Fatal(err)
	}
	return wasm
}
