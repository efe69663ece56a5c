package site

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"tapelab/web/precompress"
)

func testStatic() fstest.MapFS {
	f := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		"index.html":   f("<!doctype html>\n<head>\n<base href=\"/\">\n<link rel=\"stylesheet\" href=\"style.css\">\n<link rel=\"stylesheet\" href=\"train.css\">\n<script src=\"wasm_exec.js\" defer></script>\n<script src=\"loader.js\" defer></script>\n</head><body></body>\n"),
		"loader.js":    f(`const wasmURL = "tapelab.wasm";`),
		"wasm_exec.js": f("// go"),
		"style.css":    f("body{}"),
		"train.css":    f(".x{}"),
		"offline.js":   f(`navigator.serviceWorker.register("sw.js")`),
		"tapelab.wasm": f("\x00asm"),
		"sw.js":        f("const VERSION = \"dev\";\nconst ASSETS = [];\n"),
	}
}

func TestWrite(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the brotli cache of this test
	out := filepath.Join(t.TempDir(), "dist")
	man, err := Write(testStatic(), out, BestBrotli)
	if err != nil {
		t.Fatal(err)
	}
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	page := read("index.html")
	for _, a := range []string{"style.css", "train.css", "wasm_exec.js", "loader.js", "offline.js"} {
		h := man.Names[a]
		if h == a || !strings.Contains(page, `"`+h+`"`) {
			t.Errorf("page does not refer to %s as %s:\n%s", a, h, page)
		}
	}
	if strings.Contains(page, "<base") {
		t.Error("the static page keeps <base href=\"/\">")
	}
	if !strings.Contains(read(man.Names["loader.js"]), man.Names["tapelab.wasm"]) {
		t.Error("the loader does not load the hashed wasm")
	}
	sw := read("sw.js")
	if !strings.Contains(sw, man.Version) || !strings.Contains(sw, man.Names["tapelab.wasm"]) || strings.Contains(sw, `"dev"`) {
		t.Errorf("sw.js lacks the version or the assets:\n%s", sw)
	}
	for _, n := range []string{"index.html.gz", "index.html.br", man.Names["tapelab.wasm"] + ".br", "sw.js.gz"} {
		if _, ok := man.Files[n]; !ok {
			t.Errorf("no precompressed %s", n)
		}
	}
	// A changed asset changes its name and the cache version.
	st := testStatic()
	st["train.css"] = &fstest.MapFile{Data: []byte(".y{}")}
	man2, err := Write(st, filepath.Join(t.TempDir(), "dist"), BestBrotli)
	if err != nil {
		t.Fatal(err)
	}
	if man2.Names["train.css"] == man.Names["train.css"] || man2.Version == man.Version || man2.Names["loader.js"] != man.Names["loader.js"] {
		t.Errorf("a new train.css: names %v → %v, version %s → %s", man.Names, man2.Names, man.Version, man2.Version)
	}
	// A missing asset or a non-empty folder is an error.
	delete(st, "loader.js")
	if _, err := Write(st, filepath.Join(t.TempDir(), "d"), BestBrotli); err == nil || !strings.Contains(err.Error(), "loader.js") {
		t.Errorf("missing loader.js: %v", err)
	}
	if _, err := Write(testStatic(), out, BestBrotli); err == nil {
		t.Error("wrote into a non-empty folder")
	}
}

// TestWriteBestBytes writes the site at BestBrotli: every .br copy is
// brotli quality 11 of its file and every .gz copy gzip level 9, and the
// brotli encodings land in the user's cache, where `go run .` finds them.
func TestWriteBestBytes(t *testing.T) {
	cacheHome := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cacheHome) // os.UserCacheDir on Linux and BSDs
	out := filepath.Join(t.TempDir(), "dist")
	man, err := Write(testStatic(), out, BestBrotli)
	if err != nil {
		t.Fatal(err)
	}
	cache, err := precompress.UserCache()
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(cache.Dir(), cacheHome) {
		t.Skipf("this system's user cache folder %s ignores XDG_CACHE_HOME", cache.Dir())
	}
	for _, name := range []string{"index.html", man.Names["loader.js"], man.Names["tapelab.wasm"]} {
		raw, err := os.ReadFile(filepath.Join(out, name))
		if err != nil {
			t.Fatal(err)
		}
		br, _ := os.ReadFile(filepath.Join(out, name+".br"))
		gz, _ := os.ReadFile(filepath.Join(out, name+".gz"))
		wantBr, _ := precompress.Brotli(raw, precompress.BrotliQuality)
		wantGz, _ := precompress.Gzip(raw)
		if !bytes.Equal(br, wantBr) || !bytes.Equal(gz, wantGz) {
			t.Errorf("%s: the .br (%d bytes) or .gz (%d bytes) copy is not quality 11 (%d) or level 9 (%d)", name, len(br), len(gz), len(wantBr), len(wantGz))
		}
		if cached, ok := cache.Lookup(raw); !ok || !bytes.Equal(cached, wantBr) {
			t.Errorf("%s: its brotli encoding is not in the user's cache", name)
		}
	}
}
