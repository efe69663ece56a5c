package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// wasmBuild compiles the playground's Go code (wasm/, which imports engine/)
// for GOOS=js GOARCH=wasm and puts it, with the matching wasm_exec.js, into
// a static folder.
type wasmBuild struct {
	root   string    // the repository root, holding go.mod, wasm/ and engine/
	static string    // the folder that receives tapelab.wasm and wasm_exec.js
	log    io.Writer // receives the go tool's output and what was done
}

// wasmName is the built binary's name inside the static folder.
const wasmName = "tapelab.wasm"

func runBuild(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	flags := newFlagSet("build", stderr)
	if err := flags.Parse(args); err != nil {
		return err
	}
	b, err := newWasmBuild(stdout)
	if err != nil {
		return err
	}
	return b.build(ctx)
}

// newWasmBuild returns the build of the repository in the working directory
// into its static/ folder.
func newWasmBuild(log io.Writer) (wasmBuild, error) {
	root, err := os.Getwd()
	if err != nil {
		return wasmBuild{}, err
	}
	for _, want := range []string{"go.mod", "wasm", "static"} {
		if _, err := os.Stat(filepath.Join(root, want)); err != nil {
			return wasmBuild{}, fmt.Errorf("run this from TapeLab's repository root: %s has no %s", root, want)
		}
	}
	return wasmBuild{root: root, static: filepath.Join(root, "static"), log: log}, nil
}

// buildIfStale builds when the wasm is missing or older than a source, and
// refreshes wasm_exec.js either way.
func (b wasmBuild) buildIfStale(ctx context.Context) error {
	stale, why, err := b.stale()
	if err != nil {
		return err
	}
	if !stale {
		fmt.Fprintf(b.log, "%s is up to date\n", filepath.Join(b.static, wasmName))
		return b.copyWasmExec(ctx)
	}
	fmt.Fprintf(b.log, "building %s: %s\n", wasmName, why)
	return b.build(ctx)
}

// stale reports whether the wasm must be built, and why.
func (b wasmBuild) stale() (bool, string, error) {
	out, err := os.Stat(filepath.Join(b.static, wasmName))
	if os.IsNotExist(err) {
		return true, "it does not exist yet", nil
	}
	if err != nil {
		return false, "", err
	}
	src, newest, err := b.newestSource()
	if err != nil {
		return false, "", err
	}
	if newest.After(out.ModTime()) {
		return true, src + " is newer", nil
	}
	return false, "", nil
}

// newestSource returns the most recently modified source of the wasm (a
// non-test .go file under wasm/ or engine/, or go.mod or go.sum) and its time.
func (b wasmBuild) newestSource() (string, time.Time, error) {
	var name string
	var newest time.Time
	consider := func(path string, info fs.FileInfo) {
		if info.ModTime().After(newest) {
			name, newest = path, info.ModTime()
		}
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		info, err := os.Stat(filepath.Join(b.root, f))
		if err == nil {
			consider(f, info)
		} else if !os.IsNotExist(err) {
			return "", time.Time{}, err
		}
	}
	for _, dir := range []string{"wasm", "engine"} {
		err := filepath.WalkDir(filepath.Join(b.root, dir), func(path string, d fs.DirEntry, err error) error {
			if os.IsNotExist(err) && path == filepath.Join(b.root, dir) {
				return filepath.SkipDir
			}
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(b.root, path)
			consider(rel, info)
			return nil
		})
		if err != nil {
			return "", time.Time{}, err
		}
	}
	return name, newest, nil
}

// build compiles wasm/ into the static folder (atomically: a server reading
// the folder never sees half a file) and copies wasm_exec.js.
func (b wasmBuild) build(ctx context.Context) error {
	start := time.Now()
	tmp := filepath.Join(b.static, "."+wasmName+".tmp")
	cmd := exec.CommandContext(ctx, "go", "build", "-trimpath", "-ldflags=-s -w", "-o", tmp, "./wasm")
	cmd.Dir = b.root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = b.log, b.log
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("compiling wasm/ for js/wasm: %w", err)
	}
	// Date the binary from when the build began, so that a source edited
	// during the build counts as newer and is built next time.
	if err := os.Chtimes(tmp, start, start); err != nil {
		return err
	}
	out := filepath.Join(b.static, wasmName)
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	info, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.log, "built %s (%d bytes) in %.1fs\n", out, info.Size(), time.Since(start).Seconds())
	return b.copyWasmExec(ctx)
}

// copyWasmExec copies wasm_exec.js from the Go toolchain that builds the
// wasm, so that the page's glue always matches the compiler. It leaves an
// identical copy untouched.
func (b wasmBuild) copyWasmExec(ctx context.Context) error {
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("asking the go tool for GOROOT: %w", err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	want, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("reading the toolchain's wasm_exec.js: %w", err)
	}
	dst := filepath.Join(b.static, "wasm_exec.js")
	if have, err := os.ReadFile(dst); err == nil && bytes.Equal(have, want) {
		return nil
	}
	tmp := filepath.Join(b.static, ".wasm_exec.js.tmp")
	if err := os.WriteFile(tmp, want, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
