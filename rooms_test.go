//go:build !js

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tapelab/internal/wasmbuild"
)

// The page's Go code (wasm/) is built as rooms with one-way doors, each
// room a package (docs/ARCHITECTURE.md, "The page's rooms"): the door to
// the browser (wasm/dom), stateless widgets (wasm/ui), one package per
// screen, the shell that mounts the screens and dispatches each change to
// them, and main, which starts the page. rooms_test.go checks those doors
// from the code's own imports (go list for GOOS=js GOARCH=wasm).

// screens are the page's screens: none imports another.
var screens = []string{"wasm/tape", "wasm/stepview", "wasm/training", "wasm/lessons"}

// below are the browser-free packages of wasm/ that every room may use.
var below = []string{"wasm/app", "wasm/debounce", "wasm/state", "wasm/link", "wasm/lesson", "wasm/layout", "wasm/tapesvg", "wasm/trainer"}

// floor is each room's floor: a package of wasm/ imports packages of
// wasm/ on lower floors only (the browser-free ones are on floor 0).
func floor(p string) int {
	switch {
	case slices.Contains(below, p):
		return 0
	case p == "wasm/dom":
		return 1
	case p == "wasm/ui":
		return 2
	case slices.Contains(screens, p):
		return 3
	case p == "wasm/shell":
		return 4
	case p == "wasm":
		return 5
	}
	return -1
}

// pageImports returns, for each package under wasm/ (named as in
// docs/ARCHITECTURE.md), every package its non-test files import for
// GOOS=js GOARCH=wasm, and its number of non-test Go files.
func pageImports(t *testing.T) (map[string][]string, map[string]int) {
	imports, files := map[string][]string{}, map[string]int{}
	for _, line := range goList(t, []string{"GOOS=js", "GOARCH=wasm"}, "-f", "{{.ImportPath}} {{len .GoFiles}}{{range .Imports}} {{.}}{{end}}", "./wasm/...") {
		f := strings.Fields(line)
		name, _ := own(f[0])
		imports[name] = f[2:]
		n, err := strconv.Atoi(f[1])
		if err != nil {
			t.Fatalf("go list: %q: %v", line, err)
		}
		files[name] = n
	}
	return imports, files
}

// TestPageRooms checks the doors: each package of wasm/ is on a floor and
// imports only packages of wasm/ below it; only wasm/dom imports
// syscall/js and honnef.co/go/js/dom/v2; the main package has at most
// five files.
func TestPageRooms(t *testing.T) {
	imports, files := pageImports(t)
	for _, s := range append([]string{"wasm/dom", "wasm/ui", "wasm/shell", "wasm"}, screens...) {
		if _, ok := imports[s]; !ok {
			t.Errorf("the page has no package %s", s)
		}
	}
	for p, imps := range imports {
		f := floor(p)
		if f < 0 {
			t.Errorf("package %s is on no floor of the page: add it to rooms_test.go and docs/ARCHITECTURE.md", p)
			continue
		}
		for _, imp := range imps {
			if (imp == "syscall/js" || strings.HasPrefix(imp, "honnef.co/go/js/dom")) && p != "wasm/dom" {
				t.Errorf("%s imports %s: only wasm/dom may", p, imp)
			}
			dep, ok := own(imp)
			if !ok || !strings.HasPrefix(dep, "wasm") {
				continue
			}
			if g := floor(dep); g >= f && f > 0 { // the browser-free packages' order is the imports block's
				t.Errorf("%s (floor %d) imports %s (floor %d): a room imports only rooms below it", p, f, dep, g)
			}
		}
	}
	if n := files["wasm"]; n > 5 {
		t.Errorf("the main package has %d files: it starts the page, in at most 5", n)
	}
}

// TestScreensNeverMeet: no screen depends on another screen, directly or
// through another package.
func TestScreensNeverMeet(t *testing.T) {
	for _, s := range screens {
		for _, dep := range goList(t, []string{"GOOS=js", "GOARCH=wasm"}, "-deps", "./"+s) {
			name, _ := own(dep)
			if name != s && slices.Contains(screens, name) {
				t.Errorf("screen %s depends on screen %s: what one screen needs of another arrives as a function in its Deps", s, name)
			}
		}
	}
}

// TestPageLinksNoDomInterface builds the page as `go run . build` does and
// asks the linker what it keeps: no element is passed to dom/v2 as its
// Node or Element interface, which would link that interface's method
// table and, behind it, time's formatting (18 KB of the brotli'd page;
// wasm/dom's Elem says why).
func TestPageLinksNoDomInterface(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the page (-short)")
	}
	args := wasmbuild.BuildArgs("./wasm", filepath.Join(t.TempDir(), "page.wasm"), false)
	for k, a := range args {
		if strings.HasPrefix(a, "-ldflags=") {
			args[k] = a + " -dumpdep"
		}
	}
	cmd := exec.Command("go", args...)
	cmd.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var deps, stdout bytes.Buffer
	cmd.Stderr, cmd.Stdout = &deps, &stdout
	if err := cmd.Run(); err != nil {
		t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, stdout.Bytes())
	}
	kept := map[string]bool{}
	for line := range strings.Lines(deps.String()) {
		if _, to, ok := strings.Cut(strings.TrimSpace(line), " -> "); ok {
			kept[strings.Fields(to)[0]] = true
		}
	}
	if len(kept) < 1000 {
		t.Fatalf("the linker's -dumpdep listed %d symbols; has its output changed?", len(kept))
	}
	for _, sym := range []string{
		"go:itab.*honnef.co/go/js/dom/v2.BasicHTMLElement,honnef.co/go/js/dom/v2.Element",
		"go:itab.*honnef.co/go/js/dom/v2.BasicHTMLElement,honnef.co/go/js/dom/v2.Node",
		"time.Time.Format",
	} {
		if kept[sym] {
			t.Errorf("the page links %s: an element reached dom/v2 as an interface (see wasm/dom's Elem)", sym)
		}
	}
	if !kept["honnef.co/go/js/dom/v2.(*BasicElement).SetAttribute"] {
		t.Error("the page no longer links dom/v2's SetAttribute: is dom/v2 still its DOM binding?")
	}
}
