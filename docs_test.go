//go:build !js

package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// The tests in this file keep the documents that describe the code true
// to it: docs/ARCHITECTURE.md's package map and imports, and the length of
// bench/README.md.

// module is the module's path; its packages are named relative to it in
// docs/ARCHITECTURE.md, the root package by the module's path itself.
const module = "tapelab"

// TestArchitectureImports compares the imports block of
// docs/ARCHITECTURE.md (a fenced block of `pkg -> deps` lines) with what
// `go list` reports for the module's packages, natively and for GOOS=js
// GOARCH=wasm: every package of the module is listed once, after every
// package it imports; an import of a package of the module that the block
// does not list fails, and so does a listed import that is gone. Only
// non-test files count. It also checks the rules the page states with
// the block: no engine package depends natively on syscall/js or
// net/http, and only package wasm imports syscall/js itself.
func TestArchitectureImports(t *testing.T) {
	doc := readArchitecture(t)
	block, ok := fenced(doc, "```imports\n")
	if !ok {
		t.Fatal("docs/ARCHITECTURE.md has no ```imports block")
	}
	listed, line, err := parseImports(block)
	if err != nil {
		t.Fatalf("docs/ARCHITECTURE.md, the imports block: %v", err)
	}

	actual := map[string]map[string]bool{} // package -> the module's packages it imports
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		for _, pkg := range goList(t, env, "-f", "{{.ImportPath}}{{range .Imports}} {{.}}{{end}}", "./...") {
			f := strings.Fields(pkg)
			p, imports := f[0], f[1:]
			name, _ := own(p)
			if actual[name] == nil {
				actual[name] = map[string]bool{}
			}
			for _, imp := range imports {
				if dep, ok := own(imp); ok {
					actual[name][dep] = true
				}
				if imp == "syscall/js" && p != module+"/wasm/dom" {
					t.Errorf("%s imports syscall/js: only wasm/dom may", p)
				}
			}
		}
	}

	for _, p := range sortedKeys(actual) {
		deps, ok := listed[p]
		if !ok {
			t.Errorf("package %s is not in docs/ARCHITECTURE.md's imports block: add the line %q", p, p+" -> "+joinDeps(sortedKeys(actual[p])))
			continue
		}
		for _, dep := range sortedKeys(actual[p]) {
			if !slices.Contains(deps, dep) {
				t.Errorf("%s imports %s, which docs/ARCHITECTURE.md's imports block does not list", p, dep)
			}
		}
		for _, dep := range deps {
			if !actual[p][dep] {
				t.Errorf("docs/ARCHITECTURE.md lists %s -> %s, but %s no longer imports %s", p, dep, p, dep)
			}
			if l, ok := line[dep]; ok && l > line[p] {
				t.Errorf("docs/ARCHITECTURE.md lists %s before %s, which it imports: list each package after its imports", p, dep)
			}
		}
	}
	for _, p := range sortedKeys(listed) {
		if _, ok := actual[p]; !ok {
			t.Errorf("docs/ARCHITECTURE.md's imports block lists %s, which is not a package of the module", p)
		}
	}

	for _, dep := range goList(t, nil, "-deps", "./engine/...") {
		if dep == "syscall/js" || dep == "net/http" {
			t.Errorf("the engine depends on %s natively: engine/ is pure Go, with no browser and no server", dep)
		}
	}
}

// TestArchitectureMapNamesEveryPackage checks that the package map of
// docs/ARCHITECTURE.md (its first fenced block) names every package of the
// module, and names no folder that is gone. An entry names a folder by
// its first word; an indented entry is inside the entry above it that is
// indented less. Words that name files (main.go, …) are not folders.
func TestArchitectureMapNamesEveryPackage(t *testing.T) {
	doc := readArchitecture(t)
	_, after, ok := strings.Cut(string(doc), "## Packages and their one-way dependencies\n")
	if !ok {
		t.Fatal(`docs/ARCHITECTURE.md has no section "Packages and their one-way dependencies"`)
	}
	block, ok := fenced([]byte(after), "```\n")
	if !ok {
		t.Fatal("docs/ARCHITECTURE.md: no package map after its heading")
	}
	named := map[string]bool{}
	var stack []string // the entries enclosing the current one, by indent
	for _, l := range strings.Split(block, "\n") {
		word, _, _ := strings.Cut(strings.TrimSpace(l), " ")
		indent := len(l) - len(strings.TrimLeft(l, " "))
		if word == "" || indent >= 20 { // a description's continuation
			continue
		}
		if strings.Contains(word, ".go") {
			continue
		}
		depth := indent / 2
		if depth > len(stack) {
			t.Errorf("docs/ARCHITECTURE.md's package map: %q is indented under no entry", word)
			continue
		}
		stack = append(stack[:depth], strings.TrimSuffix(word, "/"))
		named[strings.Join(stack, "/")] = true
	}

	pkgs := map[string]bool{}
	for _, env := range [][]string{nil, {"GOOS=js", "GOARCH=wasm"}} {
		for _, p := range goList(t, env, "./...") {
			name, _ := own(p)
			pkgs[name] = true
		}
	}
	for _, p := range sortedKeys(pkgs) {
		if p != module && !named[p] {
			t.Errorf("docs/ARCHITECTURE.md's package map does not name %s", p)
		}
	}
	for _, p := range sortedKeys(named) {
		if fi, err := os.Stat(filepath.FromSlash(p)); err != nil || !fi.IsDir() {
			t.Errorf("docs/ARCHITECTURE.md's package map names %s, which is not a folder", p)
		}
	}
}

// TestBenchReadmeIsAReference keeps bench/README.md a reference: how to
// run the benchmarks, the targets, the latest figures and where the bytes
// go, not the history of every run (git has that).
func TestBenchReadmeIsAReference(t *testing.T) {
	const most = 250
	b, err := os.ReadFile(filepath.Join("bench", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte("\n")); n > most {
		t.Errorf("bench/README.md has %d lines, more than %d: keep the latest figures only (the runs before are in git)", n, most)
	}
}

func readArchitecture(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("docs", "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// fenced returns the text of the first fenced block of doc that opens
// with the line open (its fence and info string, with the newline).
func fenced(doc []byte, open string) (string, bool) {
	_, after, ok := strings.Cut(string(doc), open)
	if !ok {
		return "", false
	}
	block, _, ok := strings.Cut(after, "\n```")
	return block, ok
}

// parseImports reads an imports block: one `pkg -> deps` line per
// package, where deps is a comma-separated list of packages, each either
// a path or `prefix/{a, b}` for prefix/a and prefix/b, or `{}` for none;
// `#` starts a note. It returns each package's imports and its line.
func parseImports(block string) (map[string][]string, map[string]int, error) {
	deps := map[string][]string{}
	line := map[string]int{}
	for i, l := range strings.Split(block, "\n") {
		l, _, _ = strings.Cut(l, "#")
		if strings.TrimSpace(l) == "" {
			continue
		}
		pkg, list, ok := strings.Cut(l, "->")
		pkg, list = strings.TrimSpace(pkg), strings.TrimSpace(list)
		if !ok || pkg == "" || strings.ContainsAny(pkg, " {},") {
			return nil, nil, lineError(i, l, "want `pkg -> deps`")
		}
		if _, dup := line[pkg]; dup {
			return nil, nil, lineError(i, l, pkg+" is listed twice")
		}
		line[pkg] = i
		deps[pkg] = []string{}
		if list == "{}" {
			continue
		}
		for _, item := range splitTop(list) {
			item = strings.TrimSpace(item)
			prefix, group, isGroup := strings.Cut(item, "{")
			if !isGroup {
				if item == "" || strings.ContainsAny(item, " }") {
					return nil, nil, lineError(i, l, fmt.Sprintf("bad import %q", item))
				}
				deps[pkg] = append(deps[pkg], item)
				continue
			}
			names, ok := strings.CutSuffix(group, "}")
			if !ok || !strings.HasSuffix(prefix, "/") || strings.Contains(prefix, " ") {
				return nil, nil, lineError(i, l, fmt.Sprintf("bad group %q: want prefix/{a, b}", item))
			}
			for _, n := range strings.Split(names, ",") {
				n = strings.TrimSpace(n)
				if n == "" || strings.ContainsAny(n, " {}") {
					return nil, nil, lineError(i, l, fmt.Sprintf("bad name in %q", item))
				}
				deps[pkg] = append(deps[pkg], prefix+n)
			}
		}
	}
	return deps, line, nil
}

// splitTop splits s at the commas outside braces.
func splitTop(s string) []string {
	var parts []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '{':
			depth++
		case '}':
			depth--
		case ',':
			if depth == 0 {
				parts = append(parts, s[start:i])
				start = i + 1
			}
		}
	}
	return append(parts, s[start:])
}

func lineError(i int, text, msg string) error {
	return fmt.Errorf("line %d (%s): %s", i+1, strings.TrimSpace(text), msg)
}

// goList runs `go list args…` with env added to the environment and
// returns its lines.
func goList(t *testing.T, env []string, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s go list %s: %v\n%s", strings.Join(env, " "), strings.Join(args, " "), err, stderr.Bytes())
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// own reports whether the import path p is a package of the module, and
// its name in docs/ARCHITECTURE.md: the path within the module, or the
// module's path for the root package.
func own(p string) (string, bool) {
	if p == module {
		return module, true
	}
	rel, ok := strings.CutPrefix(p, module+"/")
	if !ok {
		return p, false
	}
	return rel, true
}

// joinDeps writes deps as an imports block's right-hand side.
func joinDeps(deps []string) string {
	if len(deps) == 0 {
		return "{}"
	}
	return strings.Join(deps, ", ")
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
