// Package site lays out TapeLab's playground as a self-contained static
// site that any static host can serve: every asset but the page, the
// service worker and the data files gets a content-hashed name (so it can
// be cached forever), the page and the loader point at those names, the
// service worker lists them and the data files under a version derived
// from their contents (so a new deployment replaces the cache), and every
// compressible file has .gz and .br copies beside it for hosts that serve
// precompressed files. The data files (data/, such as the digits) keep
// their names, which the wasm fetches; the worker caches them at install,
// so every dataset works offline after one visit.
package site

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"tapelab/web/precompress"
)

// assets lists the static folder's files that get hashed names: every
// regular file but the page, the worker, Go sources (package static, which
// builds the data files into the command line) and hidden or temporary
// files, in
// the order they are hashed: binaries (the wasm) first, then styles, then
// scripts, so that a file's references to files before it (the loader's
// to the wasm) are rewritten before its own hash is taken.
func assets(static fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(static, ".")
	if err != nil {
		return nil, err
	}
	rank := func(name string) int {
		switch path.Ext(name) {
		case ".css":
			return 1
		case ".js":
			return 2
		}
		return 0
	}
	var names []string
	for _, e := range entries {
		n := e.Name()
		if !e.Type().IsRegular() || n == Page || n == Worker || strings.HasPrefix(n, ".") || strings.HasSuffix(n, ".tmp") || strings.HasSuffix(n, ".go") {
			continue
		}
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if ri, rj := rank(names[i]), rank(names[j]); ri != rj {
			return ri < rj
		}
		return names[i] < names[j]
	})
	for _, want := range []string{"tapelab.wasm", "wasm_exec.js", "loader.js", "offline.js"} {
		if !slices.Contains(names, want) {
			return nil, fmt.Errorf("the static folder has no %s (run ./build.sh build first?)", want)
		}
	}
	return names, nil
}

// DataDir is the static folder's folder of data files.
const DataDir = "data"

// dataFiles lists the visible regular files of the static folder's data
// folder as slash-separated paths ("data/digits.csv.gz"), sorted; none if
// there is no such folder.
func dataFiles(static fs.FS) ([]string, error) {
	entries, err := fs.ReadDir(static, DataDir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var names []string
	for _, e := range entries {
		if e.Type().IsRegular() && !strings.HasPrefix(e.Name(), ".") && !strings.HasSuffix(e.Name(), ".tmp") {
			names = append(names, path.Join(DataDir, e.Name()))
		}
	}
	return names, nil // ReadDir sorts by name
}

// Page and Worker keep their names: the page is what a host serves for the
// folder, and the worker's URL must not change between deployments.
const (
	Page   = "index.html"
	Worker = "sw.js"
)

// Manifest reports what Write wrote: each asset's hashed name, the cache
// version and every file (with its size) written.
type Manifest struct {
	Names   map[string]string // "loader.js" → "loader.1a2b3c4d5e.js"
	Version string
	Files   map[string]int

	brotli func([]byte) ([]byte, error)
}

// BestBrotli is brotli's highest quality, the one `go run .` serves: the
// smallest files, and a minute or more for the 7 MB wasm.
const BestBrotli = precompress.BrotliQuality

// Write lays out the site from the static folder static into out (which
// must not exist or be empty), with .gz copies (gzip level 9) and .br
// copies at the given brotli quality (0–11; BestBrotli for a deployment).
// At BestBrotli the encodings come from, and go to, the user's brotli cache
// (precompress.UserCache), which `go run .` fills too, so a file version
// is encoded once.
func Write(static fs.FS, out string, brotliLevel int) (*Manifest, error) {
	if brotliLevel == BestBrotli {
		if cache, err := precompress.UserCache(); err == nil {
			return write(static, out, cache.Brotli)
		}
	}
	return write(static, out, func(raw []byte) ([]byte, error) { return precompress.Brotli(raw, brotliLevel) })
}

// write is Write with the brotli encoder given.
func write(static fs.FS, out string, brotli func([]byte) ([]byte, error)) (*Manifest, error) {
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, err
	}
	if entries, err := os.ReadDir(out); err != nil || len(entries) > 0 {
		if err == nil {
			err = fmt.Errorf("%s is not empty", out)
		}
		return nil, err
	}
	man := &Manifest{Names: map[string]string{}, Files: map[string]int{}, brotli: brotli}
	contents := map[string][]byte{}
	names, err := assets(static)
	if err != nil {
		return nil, err
	}
	for _, name := range names {
		raw, err := fs.ReadFile(static, name)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		raw = rewrite(raw, man.Names)
		hashed := hashedName(name, raw)
		man.Names[name] = hashed
		contents[hashed] = raw
	}
	page, err := fs.ReadFile(static, Page)
	if err != nil {
		return nil, err
	}
	page, err = sitePage(page, man.Names)
	if err != nil {
		return nil, err
	}
	contents[Page] = page
	var all []string
	for _, h := range man.Names {
		all = append(all, h)
	}
	sort.Strings(all)
	sum := sha256.New()
	for _, h := range all {
		sum.Write([]byte(h))
	}
	data, err := dataFiles(static)
	if err != nil {
		return nil, err
	}
	for _, name := range data {
		raw, err := fs.ReadFile(static, name)
		if err != nil {
			return nil, fmt.Errorf("reading %s: %w", name, err)
		}
		contents[name] = raw
		h := sha256.Sum256(raw)
		sum.Write([]byte(name))
		sum.Write(h[:])
	}
	all = append(all, data...)
	worker, err := fs.ReadFile(static, Worker)
	if err != nil {
		return nil, err
	}
	sum.Write(page)
	sum.Write(worker) // a new worker is a new deployment too
	man.Version = "tapelab-" + hex.EncodeToString(sum.Sum(nil))[:12]
	worker, err = siteWorker(worker, man.Version, append([]string{"./"}, all...))
	if err != nil {
		return nil, err
	}
	contents[Worker] = worker
	for name, raw := range contents {
		if err := man.write(out, name, raw); err != nil {
			return nil, err
		}
	}
	return man, nil
}

// hashedName is name with the first 10 hex digits of raw's SHA-256 before
// its extension.
func hashedName(name string, raw []byte) string {
	h := sha256.Sum256(raw)
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + hex.EncodeToString(h[:])[:10] + ext
}

// rewrite replaces quoted references to already-hashed assets.
func rewrite(raw []byte, names map[string]string) []byte {
	for plain, hashed := range names {
		for _, q := range []string{`"`, `'`} {
			raw = bytes.ReplaceAll(raw, []byte(q+plain+q), []byte(q+hashed+q))
		}
	}
	return raw
}

// sitePage points the page at the hashed assets, drops the <base href="/">
// the server needs for its /s/{id} paths (a static copy may live in any
// folder), and adds the service-worker registration.
func sitePage(page []byte, names map[string]string) ([]byte, error) {
	page = bytes.Replace(page, []byte("<base href=\"/\">\n"), nil, 1)
	page = bytes.Replace(page, []byte("<base href=\"/\">"), nil, 1)
	page = rewrite(page, names)
	for _, want := range []string{"wasm_exec.js", "loader.js"} {
		if !bytes.Contains(page, []byte(`"`+names[want]+`"`)) {
			return nil, fmt.Errorf("%s does not refer to %s", Page, want)
		}
	}
	tag := []byte(`<script src="` + names["offline.js"] + `" defer></script>` + "\n</head>")
	if !bytes.Contains(page, []byte("</head>")) {
		return nil, errors.New(Page + " has no </head>")
	}
	return bytes.Replace(page, []byte("</head>"), tag, 1), nil
}

// siteWorker fills in the worker's version and asset list.
func siteWorker(w []byte, version string, assets []string) ([]byte, error) {
	const v, a = `const VERSION = "dev";`, `const ASSETS = [];`
	if !bytes.Contains(w, []byte(v)) || !bytes.Contains(w, []byte(a)) {
		return nil, fmt.Errorf("%s lacks the lines %s and %s", Worker, v, a)
	}
	list := `const ASSETS = ["` + strings.Join(assets, `", "`) + `"];`
	w = bytes.Replace(w, []byte(v), []byte(`const VERSION = "`+version+`";`), 1)
	return bytes.Replace(w, []byte(a), []byte(list), 1), nil
}

// write saves raw as name (a slash-separated path) in out, with .gz and
// .br copies when compressible.
func (m *Manifest) write(out, name string, raw []byte) error {
	file := filepath.Join(out, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return err
	}
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		return err
	}
	m.Files[name] = len(raw)
	switch path.Ext(name) {
	case ".html", ".js", ".css", ".wasm", ".json", ".svg":
	default:
		return nil
	}
	gz, err := precompress.Gzip(raw)
	if err != nil {
		return err
	}
	br, err := m.brotli(raw)
	if err != nil {
		return err
	}
	for ext, data := range map[string][]byte{".gz": gz, ".br": br} {
		if err := os.WriteFile(file+ext, data, 0o644); err != nil {
			return err
		}
		m.Files[name+ext] = len(data)
	}
	return nil
}
