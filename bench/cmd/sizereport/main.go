// Command sizereport shows where the bytes of a Go program compiled to
// WebAssembly go: it builds the package for GOOS=js GOARCH=wasm as
// `go run . build` does but keeps the name section (no -s), and prints the
// binary's sections, the parts of its function table (pclntab) and a
// table of code bytes by Go package, largest first, with each package's
// code compressed on its own by brotli as an estimate of what it adds to
// the download.
//
//	go run ./bench/cmd/sizereport ./wasm          the playground
//	go run ./bench/cmd/sizereport -n 15 ./web/worker
//
// The data section (strings, type descriptors, the function table Go's
// runtime reads) is one block the name section does not divide; the
// report divides the function table (pclntab) into its parts.
package main

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/andybalholm/brotli"

	"tapelab/bench/wasmcode"
	"tapelab/internal/wasmbuild"
)

func main() {
	rows := flag.Int("n", 30, "how many packages get a `row` of their own; the rest are added up")
	quality := flag.Int("brotli", brotli.BestCompression, "brotli `quality` of the per-package estimate (0–11)")
	flag.Usage = func() {
		fmt.Fprintln(flag.CommandLine.Output(), "usage: sizereport [-n rows] [-brotli quality] PACKAGE")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(context.Background(), os.Stdout, flag.Arg(0), *rows, *quality); err != nil {
		fmt.Fprintln(os.Stderr, "sizereport:", err)
		os.Exit(1)
	}
}

// run builds pkg for js/wasm and writes its report to w.
func run(ctx context.Context, w io.Writer, pkg string, rows, quality int) error {
	if quality < brotli.BestSpeed || quality > brotli.BestCompression {
		return fmt.Errorf("-brotli %d: a brotli quality is 0 to 11", quality)
	}
	dir, err := os.MkdirTemp("", "sizereport")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	bin := filepath.Join(dir, "out.wasm")
	if _, err := wasmGo(ctx, wasmbuild.BuildArgs(pkg, bin, true)...); err != nil {
		return err
	}
	if err := wasmbuild.Finish(bin, os.Stderr); err != nil {
		return err
	}
	deps, err := wasmGo(ctx, "list", "-deps", pkg)
	if err != nil {
		return err
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		return err
	}
	m, err := wasmcode.Parse(raw)
	if err != nil {
		return err
	}
	if !m.Named {
		return fmt.Errorf("the build of %s has no name section to read function names from", pkg)
	}
	pcln, err := wasmbuild.MeasurePclntab(raw)
	if err != nil {
		return err
	}
	return report(w, pkg, m, pcln, strings.Fields(string(deps)), rows, quality)
}

// wasmGo runs the go tool for GOOS=js GOARCH=wasm and returns its output.
func wasmGo(ctx context.Context, args ...string) ([]byte, error) {
	cmd := exec.CommandContext(ctx, "go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out, nil
}

// report writes the sections of m, the parts of its pclntab and its
// package table.
func report(w io.Writer, pkg string, m *wasmcode.Module, pcln wasmbuild.PclntabParts, deps []string, rows, quality int) error {
	names := 0
	for _, s := range m.Sections {
		if s.Name == "custom:name" {
			names = s.Size
		}
	}
	fmt.Fprintf(w, "%s for js/wasm: %s bytes as built with -s (without the %s-byte name section)\n\n",
		pkg, group(m.Size-names), group(names))
	fmt.Fprintln(w, "| section | bytes |\n|---|---:|")
	others, other := 0, 0
	for _, s := range m.Sections {
		switch s.Name {
		case "code", "data", "element":
			fmt.Fprintf(w, "| %s | %s |\n", s.Name, group(s.Size))
		case "custom:name":
		default:
			others++
			other += s.Size
		}
	}
	fmt.Fprintf(w, "| %d other sections | %s |\n\n", others, group(other))
	pclntab(w, pcln)

	shares := m.Packages(deps)
	code := 0
	for _, s := range shares {
		code += s.Bytes
	}
	fmt.Fprintf(w, "| package | functions | code bytes | of the code | brotli q%d alone |\n|---|---:|---:|---:|---:|\n", quality)
	var rest wasmcode.Share
	for i, s := range shares {
		if i >= rows {
			rest.Funcs += s.Funcs
			rest.Bytes += s.Bytes
			rest.Code = append(rest.Code, s.Code...)
			continue
		}
		if err := row(w, s, code, quality); err != nil {
			return err
		}
	}
	if len(shares) > rows {
		rest.Package = fmt.Sprintf("%d other packages", len(shares)-rows)
		if err := row(w, rest, code, quality); err != nil {
			return err
		}
	}
	fmt.Fprintf(w, "| all %d packages | %s | %s | 100%% | |\n", len(shares), group(len(m.Funcs)), group(code))
	return nil
}

// pclntab writes the table of the parts of the pclntab, the function
// table in the data section that Go's runtime reads.
func pclntab(w io.Writer, p wasmbuild.PclntabParts) {
	fmt.Fprintln(w, "| pclntab (in the data section) | bytes |\n|---|---:|")
	for _, r := range []struct {
		name  string
		bytes int
	}{
		{"header", p.Header},
		{"function names", p.FuncNames},
		{"of which names no one reads (zeros: cut after the link)", p.NamesCut},
		{"compilation units' file lists", p.CUs},
		{"file names", p.Files},
		{"function index and records (_func)", p.Funcs},
	} {
		fmt.Fprintf(w, "| %s | %s |\n", r.name, group(r.bytes))
	}
	for _, t := range p.Tables {
		fmt.Fprintf(w, "| pc tables: %s | %s |\n", t.Fields, group(t.Bytes))
	}
	fmt.Fprintf(w, "| pc tables no function refers to (zeros: cut after the link) | %s |\n", group(p.Unreferenced))
	total := p.Header + p.FuncNames + p.CUs + p.Files + p.Funcs + p.PCTab
	fmt.Fprintf(w, "| all | %s |\n\n", group(total))
}

// row writes one package's line of the table.
func row(w io.Writer, s wasmcode.Share, code, quality int) error {
	var br bytes.Buffer
	bw := brotli.NewWriterLevel(&br, quality)
	bw.Write(s.Code)
	if err := bw.Close(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "| %s | %s | %s | %.1f%% | %s |\n", s.Package, group(s.Funcs), group(s.Bytes),
		100*float64(s.Bytes)/float64(code), group(br.Len()))
	return err
}

// group writes n with thousands separators, as the tables in bench/README.md do.
func group(n int) string {
	s := fmt.Sprint(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
