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

// writeFile creates root/name holding data, modified at t.
func writeFile(tb testing.TB, root, name, data string, t time.Time) {
	tb.Helper()
	path := filepath.Join(root, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		tb.Fatal(err)
	}
	if err := os.Chtimes(path, t, t); err != nil {
		tb.Fatal(err)
	}
}

func TestStale(t *testing.T) {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	root := t.TempDir()
	b := Builder{Root: root, Static: filepath.Join(root, "static")}
	writeFile(t, root, "go.mod", "module x", base)
	writeFile(t, root, "wasm/main.go", "package main", base)
	writeFile(t, root, "engine/op/op.go", "package op", base)

	steps := []struct {
		name      string
		change    func()
		stale     bool
		wantCause string
	}{
		{"no wasm yet", func() {}, true, "does not exist"},
		{"wasm newer than every source", func() { writeFile(t, root, "static/tapelab.wasm", "", base.Add(time.Hour)) }, false, ""},
		{"a test file changed", func() { writeFile(t, root, "engine/op/op_test.go", "", base.Add(2*time.Hour)) }, false, ""},
		{"a non-Go file changed", func() { writeFile(t, root, "engine/README.md", "", base.Add(2*time.Hour)) }, false, ""},
		{"an engine file changed", func() { writeFile(t, root, "engine/op/op.go", "", base.Add(2*time.Hour)) }, true, filepath.Join("engine", "op", "op.go")},
		{"rebuilt", func() { writeFile(t, root, "static/tapelab.wasm", "", base.Add(3*time.Hour)) }, false, ""},
		{"a wasm file changed", func() { writeFile(t, root, "wasm/view.go", "", base.Add(4*time.Hour)) }, true, filepath.Join("wasm", "view.go")},
		{"rebuilt again", func() { writeFile(t, root, "static/tapelab.wasm", "", base.Add(5*time.Hour)) }, false, ""},
		{"go.sum changed", func() { writeFile(t, root, "go.sum", "", base.Add(6*time.Hour)) }, true, "go.sum"},
		{"rebuilt once more", func() { writeFile(t, root, "static/tapelab.wasm", "", base.Add(7*time.Hour)) }, false, ""},
		{"how it is built changed", func() { writeFile(t, root, "internal/wasmbuild/wasmbuild.go", "", base.Add(8*time.Hour)) }, true, filepath.Join("internal", "wasmbuild")},
	}
	for _, s := range steps {
		s.change()
		stale, why, err := b.Stale()
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if stale != s.stale || !strings.Contains(why, s.wantCause) {
			t.Errorf("%s: stale=%v (%q), want %v (%q)", s.name, stale, why, s.stale, s.wantCause)
		}
	}

	// A tree without engine/ is fine.
	if err := os.RemoveAll(filepath.Join(root, "engine")); err != nil {
		t.Fatal(err)
	}
	if _, _, err := b.Stale(); err != nil {
		t.Errorf("without engine/: %v", err)
	}
}

func TestBuildArgs(t *testing.T) {
	for _, keepNames := range []bool{false, true} {
		args := BuildArgs("./wasm", "out.wasm", keepNames)
		joined := strings.Join(args, " ")
		wantLd := "-ldflags=-s -w"
		if keepNames {
			wantLd = "-ldflags=-w"
		}
		if args[0] != "build" || !strings.Contains(joined, wantLd) || !strings.HasSuffix(joined, "-o out.wasm ./wasm") {
			t.Errorf("keepNames=%v: go %s", keepNames, joined)
		}
		// No inlining anywhere, then inlining back for the step's packages:
		// the go tool lets the last matching pattern win.
		noInline := strings.Index(joined, "-gcflags=all=-l")
		tensor := strings.Index(joined, "-gcflags=tapelab/engine/tensor=")
		if noInline < 0 || tensor < noInline {
			t.Errorf("keepNames=%v: want -gcflags=all=-l before the engine's own -gcflags: go %s", keepNames, joined)
		}
	}
}

// TestBuild compiles the real wasm/ into a temporary folder.
func TestBuild(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the playground for js/wasm; skipped with -short")
	}
	static := t.TempDir()
	var log bytes.Buffer
	b := Builder{Root: "../..", Static: static, Log: &log}
	ctx := context.Background()
	start := time.Now()
	if err := b.BuildIfStale(ctx); err != nil {
		t.Fatalf("build: %v\n%s", err, log.String())
	}
	wasm, err := os.ReadFile(filepath.Join(static, WasmName))
	if err != nil || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Fatalf("%s is not a wasm binary (%v)", WasmName, err)
	}
	if strings.Contains(log.String(), "warning: ") {
		t.Errorf("the build skipped a pass on this toolchain's module:\n%s", log.String())
	}
	checkMerged(t, wasm)
	checkStripped(t, wasm)
	goroot, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js"))
	if err != nil {
		t.Fatal(err)
	}
	if got, err := os.ReadFile(filepath.Join(static, "wasm_exec.js")); err != nil || !bytes.Equal(got, want) {
		t.Errorf("wasm_exec.js is not the toolchain's copy (%v)", err)
	}
	if entries, _ := os.ReadDir(static); len(entries) != 2 {
		t.Errorf("static holds %d files, want tapelab.wasm and wasm_exec.js only (no temporary files)", len(entries))
	}

	// Right after the build only a source edited since it began (someone
	// working in the tree) makes the wasm stale.
	stale, why, err := b.Stale()
	if err != nil {
		t.Fatal(err)
	}
	if stale {
		src, newest, err := b.newestSource()
		if err != nil || !newest.After(start) {
			t.Errorf("stale right after the build (%s), but %s was modified at %v, before the build began at %v (%v)", why, src, newest, start, err)
		}
		return
	}
	log.Reset()
	if err := b.BuildIfStale(ctx); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(log.String(), "up to date") {
		t.Errorf("second build said %q, want it to report up to date", log.String())
	}
}

// checkMerged fails unless the data segments of the module are in address
// order and more than DataGap bytes apart: Build merged them.
func checkMerged(tb testing.TB, wasm []byte) {
	tb.Helper()
	for _, s := range sections(tb, wasm) {
		if s.id != dataSection {
			continue
		}
		segs, err := readSegments(s.body)
		if err != nil {
			tb.Fatal(err)
		}
		for i := 1; i < len(segs); i++ {
			if end := segs[i-1].end(); uint64(segs[i].offset) <= end+DataGap {
				tb.Fatalf("data segment %d at %d is %d bytes after the end of the one before: the build did not merge them", i, segs[i].offset, int64(segs[i].offset)-int64(end))
			}
		}
		tb.Logf("%d data segments", len(segs))
	}
}
