package wasmbuild

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestFinishUnknownMagic gives Finish a Go program whose function table
// starts with another magic than Go 1.20 to 1.26 write, as a later
// release's might: the file is still finished without an error, with one
// warning line, and it is the module as linked with only its data
// segments merged: none of the passes over Go's runtime tables touched it.
func TestFinishUnknownMagic(t *testing.T) {
	jsTools(t)
	dir := t.TempDir()
	linked := buildJS(t, BuildArgs("./testdata/datademo", filepath.Join(dir, "linked.wasm"), false))
	if n := bytes.Count(linked, pclntabMagic); n != 1 {
		t.Fatalf("the module holds the pclntab's magic %d times, want once", n)
	}
	changed := bytes.Clone(linked)
	changed[bytes.Index(changed, pclntabMagic)] = 0xf2 // magic 0xfffffff2
	if _, err := runtimePasses(changed); err == nil || !strings.Contains(err.Error(), "no Go function table") {
		t.Fatalf("the passes on the changed magic: %v, want the error that they find no function table", err)
	}

	path := filepath.Join(dir, "changed.wasm")
	if err := os.WriteFile(path, changed, 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings strings.Builder
	if err := Finish(path, &warnings); err != nil {
		t.Fatalf("Finish failed on a layout it does not know: %v", err)
	}
	checkOneWarning(t, warnings.String(), "passes over Go's runtime tables were skipped")
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := MergeDataSegments(changed, DataGap)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("Finish wrote %d bytes, want the module as linked with its data merged (%d bytes)", len(got), len(want))
	}
}

// TestBuildUnknownLayout builds a repository whose wasm/ is
// testdata/datademo, through BuildIfStale as `go run .` builds the page,
// with the passes over Go's runtime tables expecting another magic than
// the toolchain writes: as when a Go release changes the layout they read.
// The build succeeds with one warning line, the module it puts in place is
// the one the linker wrote with its data segments merged, and it runs.
func TestBuildUnknownLayout(t *testing.T) {
	node, libWasm := jsTools(t)
	known := pclntabMagic
	pclntabMagic = []byte{0xf2, 0xff, 0xff, 0xff, 0, 0, 1, 8}
	t.Cleanup(func() { pclntabMagic = known })

	root := t.TempDir()
	src, err := os.ReadFile(filepath.Join("testdata", "datademo", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, root, "go.mod", "module unknownlayout\n\ngo 1.26\n", time.Now())
	writeFile(t, root, "wasm/main.go", string(src), time.Now())
	static := filepath.Join(root, "static")
	if err := os.Mkdir(static, 0o755); err != nil {
		t.Fatal(err)
	}
	var log bytes.Buffer
	b := Builder{Root: root, Static: static, Log: &log}
	if err := b.BuildIfStale(context.Background()); err != nil {
		t.Fatalf("the build failed on a layout its passes do not know: %v\n%s", err, log.String())
	}
	checkOneWarning(t, log.String(), "passes over Go's runtime tables were skipped")
	built, err := os.ReadFile(filepath.Join(static, WasmName))
	if err != nil {
		t.Fatal(err)
	}

	// The same package linked again, as Build links it.
	linkedPath := filepath.Join(t.TempDir(), "linked.wasm")
	cmd := exec.Command("go", BuildArgs("./wasm", linkedPath, false)...)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("linking %s: %v\n%s", root, err, out)
	}
	linked, err := os.ReadFile(linkedPath)
	if err != nil {
		t.Fatal(err)
	}
	want, err := MergeDataSegments(linked, DataGap)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(built, want) {
		t.Errorf("the build put %d bytes in place, want the module as linked with its data merged (%d bytes)", len(built), len(want))
	}

	out, err := exec.Command(node, filepath.Join(libWasm, "wasm_exec_node.js"), filepath.Join(static, WasmName)).CombinedOutput()
	if err != nil || string(out) != datademoOutput {
		t.Errorf("the built module: %v, printed\n%s\nwant\n%s", err, out, datademoOutput)
	}
}

// checkOneWarning fails unless log holds exactly one line that starts
// with "warning: ", and that line contains want.
func checkOneWarning(tb testing.TB, log, want string) {
	tb.Helper()
	var warnings []string
	for line := range strings.Lines(log) {
		if strings.HasPrefix(line, "warning: ") {
			warnings = append(warnings, line)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], want) {
		tb.Errorf("want one warning line containing %q, the log says:\n%s", want, log)
	} else {
		tb.Logf("%s", warnings[0])
	}
}

// TestFinishKeepsWhatItCannotRead gives Finish a module with no Go program
// in it and a data count section, which MergeDataSegments refuses: the
// file stays as it was, with a warning line for each step it skipped.
func TestFinishKeepsWhatItCannotRead(t *testing.T) {
	wasm := module(section{dataCountSection, []byte{1}}, dataSectionOf(activeSegment(0, "a")))
	path := filepath.Join(t.TempDir(), "other.wasm")
	if err := os.WriteFile(path, wasm, 0o644); err != nil {
		t.Fatal(err)
	}
	var warnings strings.Builder
	if err := Finish(path, &warnings); err != nil {
		t.Fatalf("Finish failed on a module it cannot read: %v", err)
	}
	if got := warnings.String(); strings.Count(got, "warning: ") != 2 || strings.Count(got, "\n") != 2 ||
		!strings.Contains(got, "no Go function table") || !strings.Contains(got, "data count section") {
		t.Errorf("want a warning line for the skipped passes and one for the merge, got:\n%s", got)
	}
	if got, err := os.ReadFile(path); err != nil || !bytes.Equal(got, wasm) {
		t.Errorf("Finish changed a module it could not read (%v)", err)
	}
	if err := Finish(filepath.Join(t.TempDir(), "missing.wasm"), &warnings); err == nil {
		t.Error("Finish of a missing file did not fail")
	}
}
