// Package wasmbuild compiles the playground (wasm/) for GOOS=js GOARCH=wasm
// into a static folder, with the toolchain's matching wasm_exec.js, and
// tells when that binary is stale. After the link it rewrites the binary's
// data section into fewer segments (MergeDataSegments), which leaves the
// program as it was and its download smaller, and cuts the line tables
// only tracebacks read (StripLineTables) and the names of the functions
// outside the program and the runtime (StripFuncNames): a traceback then
// names the program's functions but gives no file and line. The passes
// that read Go's private runtime layout never fail a build: on a layout
// they do not know the module ships without them, with a warning (Finish).
package wasmbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Builder compiles the playground's Go code (wasm/, which imports engine/)
// for GOOS=js GOARCH=wasm and puts it, with the matching wasm_exec.js, into
// a static folder.
type Builder struct {
	Root   string    // the repository root, holding go.mod, wasm/ and engine/
	Static string    // the folder that receives tapelab.wasm and wasm_exec.js
	Log    io.Writer // receives the go tool's output and what was done
}

// WasmName is the built binary's name inside the static folder.
const WasmName = "tapelab.wasm"

// inlined lists the packages that keep the compiler's inlining in the
// playground's build: the runtime and the packages it imports (so that its
// small accessors stay inlined in the allocator and the collector), and the
// engine packages whose loops run in every step and in compiling a graph
// (tensor's kernels, autograd's tape, train's optimizers; in wasm,
// engine/graph's CompileChecked takes a third longer without inlining),
// and syscall/js, whose Call, Invoke and New keep their arguments on the
// stack only when its makeArgSlices is inlined (without it each call into
// JavaScript allocates 384 bytes: a step's redraw, 160 KB). Everything
// else is compiled without inlining (-l), which leaves the page's code
// about as long but far more repetitive: the download at brotli quality 11
// is about 90 KB smaller. engine/op (the catalogue: closures, shape rules,
// VJPs that record ops) and engine/nn (layers that call op) left the list
// on 2026-12-06 for 9.6 KB less, with the wasm training step unchanged
// within noise (bench/README.md has the figures).
var inlined = []string{
	"runtime", "internal/runtime/...", "internal/abi", "internal/goarch", "internal/cpu",
	"internal/bytealg", "internal/byteorder", "internal/chacha8rand", "internal/stringslite",
	"internal/strconv", "math", "math/bits", "syscall/js",
	"tapelab/engine/tensor", "tapelab/engine/autograd", "tapelab/engine/train", "tapelab/engine/graph",
}

// BuildArgs returns the go tool's arguments (after "go") that compile pkg
// for GOOS=js GOARCH=wasm into out the way the playground is built; the
// caller sets GOOS and GOARCH. With keepNames the binary keeps its name
// section (-ldflags=-w instead of -s -w), which changes no code: size
// reports read it.
func BuildArgs(pkg, out string, keepNames bool) []string {
	ldflags := "-ldflags=-s -w"
	if keepNames {
		ldflags = "-ldflags=-w"
	}
	args := []string{"build", "-trimpath", ldflags, "-gcflags=all=-l"}
	for _, p := range inlined {
		// For a package, the last -gcflags pattern that matches it wins.
		args = append(args, "-gcflags="+p+"=")
	}
	return append(args, "-o", out, pkg)
}

// New returns the build of the repository in the working directory
// into its static/ folder.
func New(log io.Writer) (Builder, error) {
	root, err := os.Getwd()
	if err != nil {
		return Builder{}, err
	}
	for _, want := range []string{"go.mod", "wasm", "static"} {
		if _, err := os.Stat(filepath.Join(root, want)); err != nil {
			return Builder{}, fmt.Errorf("run this from TapeLab's repository root: %s has no %s", root, want)
		}
	}
	return Builder{Root: root, Static: filepath.Join(root, "static"), Log: log}, nil
}

// BuildIfStale builds when the wasm is missing or older than a source, and
// refreshes wasm_exec.js either way.
func (b Builder) BuildIfStale(ctx context.Context) error {
	stale, why, err := b.Stale()
	if err != nil {
		return err
	}
	if !stale {
		fmt.Fprintf(b.Log, "%s is up to date\n", filepath.Join(b.Static, WasmName))
		return b.copyWasmExec(ctx)
	}
	fmt.Fprintf(b.Log, "building %s: %s\n", WasmName, why)
	return b.Build(ctx)
}

// stale reports whether the wasm must be built, and why.
func (b Builder) Stale() (bool, string, error) {
	out, err := os.Stat(filepath.Join(b.Static, WasmName))
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
// non-test .go file under wasm/ or engine/, or go.mod or go.sum) or of how
// it is built (internal/wasmbuild), and its time.
func (b Builder) newestSource() (string, time.Time, error) {
	var name string
	var newest time.Time
	consider := func(path string, info fs.FileInfo) {
		if info.ModTime().After(newest) {
			name, newest = path, info.ModTime()
		}
	}
	for _, f := range []string{"go.mod", "go.sum"} {
		info, err := os.Stat(filepath.Join(b.Root, f))
		if err == nil {
			consider(f, info)
		} else if !os.IsNotExist(err) {
			return "", time.Time{}, err
		}
	}
	for _, dir := range []string{"wasm", "engine", filepath.Join("internal", "wasmbuild")} {
		err := filepath.WalkDir(filepath.Join(b.Root, dir), func(path string, d fs.DirEntry, err error) error {
			if os.IsNotExist(err) && path == filepath.Join(b.Root, dir) {
				return filepath.SkipDir
			}
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(b.Root, path)
			consider(rel, info)
			return nil
		})
		if err != nil {
			return "", time.Time{}, err
		}
	}
	return name, newest, nil
}

// Build compiles wasm/ into the static folder, merges its data segments
// and cuts its line tables (Finish), puts it in place atomically (a server
// reading the folder never sees half a file) and copies wasm_exec.js.
func (b Builder) Build(ctx context.Context) error {
	start := time.Now()
	tmp := filepath.Join(b.Static, "."+WasmName+".tmp")
	cmd := exec.CommandContext(ctx, "go", BuildArgs("./wasm", tmp, false)...)
	cmd.Dir = b.Root
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	cmd.Stdout, cmd.Stderr = b.Log, b.Log
	if err := cmd.Run(); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("compiling wasm/ for js/wasm: %w", err)
	}
	if err := Finish(tmp, b.Log); err != nil {
		os.Remove(tmp)
		return err
	}
	// Date the binary from when the build began, so that a source edited
	// during the build counts as newer and is built next time.
	if err := os.Chtimes(tmp, start, start); err != nil {
		return err
	}
	out := filepath.Join(b.Static, WasmName)
	if err := os.Rename(tmp, out); err != nil {
		return err
	}
	info, err := os.Stat(out)
	if err != nil {
		return err
	}
	fmt.Fprintf(b.Log, "built %s (%d bytes) in %.1fs\n", out, info.Size(), time.Since(start).Seconds())
	return b.copyWasmExec(ctx)
}

// Finish applies the playground build's post-link steps to the module in
// the file at path, rewriting it: the runtime's lookup table of program
// counters is computed at instantiation instead of stored
// (ComputeFindfunctab), the tables of its pclntab that only tracebacks
// read are cut (StripLineTables), and the names no one reads
// (StripFuncNames); then its data segments are merged and the zeros all
// that left are taken out (MergeDataSegments with DataGap). Every build of
// the page goes through it; size reports call it too, so that they
// measure what is served.
//
// The first three read Go's private runtime layout, which a Go release
// may change. They never fail a build: when any of them does not
// recognise the module (runtimePasses), Finish writes one warning line to
// warn and the module goes on without any of them, as the linker wrote
// it: larger, the same program. Likewise a module whose data section
// MergeDataSegments does not handle is kept as it is, with a warning.
// Finish fails only when the file cannot be read or written.
func Finish(path string, warn io.Writer) error {
	wasm, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := runtimePasses(wasm)
	if err != nil {
		fmt.Fprintf(warn, "warning: the passes over Go's runtime tables were skipped, as the module's layout is not one they know (%v); the module ships without them, larger\n", err)
		out = wasm
	}
	if merged, err := MergeDataSegments(out, DataGap); err != nil {
		fmt.Fprintf(warn, "warning: the data segments were not merged (%v); the module ships with them as the linker wrote them, larger\n", err)
	} else {
		out = merged
	}
	return os.WriteFile(path, out, 0o644)
}

// runtimePasses returns wasm with the passes that read Go's private
// runtime layout applied in order: ComputeFindfunctab, StripLineTables
// and StripFuncNames. They are applied together or not at all: the first
// that does not recognise what it reads (a layout from a Go release they
// were not written for) gives its error, naming the pass, and no module.
// A pass that panics on such a layout counts as not recognising it.
func runtimePasses(wasm []byte) (out []byte, err error) {
	passes := []struct {
		name string
		pass func([]byte) ([]byte, error)
	}{
		{"computing the findfunctab", ComputeFindfunctab},
		{"cutting the line tables", StripLineTables},
		{"cutting the function names", StripFuncNames},
	}
	name := ""
	defer func() {
		if r := recover(); r != nil {
			out, err = nil, fmt.Errorf("%s: the pass panicked: %v", name, r)
		}
	}()
	out = wasm
	for _, p := range passes {
		name = p.name
		if out, err = p.pass(out); err != nil {
			return nil, errors.New(p.name + ": " + err.Error())
		}
	}
	return out, nil
}

// copyWasmExec copies wasm_exec.js from the Go toolchain that builds the
// wasm, so that the page's glue always matches the compiler. It leaves an
// identical copy untouched.
func (b Builder) copyWasmExec(ctx context.Context) error {
	goroot, err := exec.CommandContext(ctx, "go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("asking the go tool for GOROOT: %w", err)
	}
	src := filepath.Join(strings.TrimSpace(string(goroot)), "lib", "wasm", "wasm_exec.js")
	want, err := os.ReadFile(src)
	if err != nil {
		return fmt.Errorf("reading the toolchain's wasm_exec.js: %w", err)
	}
	dst := filepath.Join(b.Static, "wasm_exec.js")
	if have, err := os.ReadFile(dst); err == nil && bytes.Equal(have, want) {
		return nil
	}
	tmp := filepath.Join(b.Static, ".wasm_exec.js.tmp")
	if err := os.WriteFile(tmp, want, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, dst)
}
