// Command assets fills the worker's static-assets folder: a copy of the
// playground's files (static/, without hidden files such as interrupted
// builds) and a Cloudflare _headers file that gives them the security
// headers of tapelab/web, so that files Cloudflare serves without running
// the worker carry the same headers as the ones `go run . serve` sends.
//
//	go run ./web/worker/assets -static static -out web/worker/build/public
//
// The output folder is replaced.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"tapelab/web"
)

func main() {
	static := flag.String("static", "static", "the playground's static `folder`")
	out := flag.String("out", "web/worker/build/public", "the assets `folder` to write (replaced)")
	flag.Parse()
	if err := write(*static, *out); err != nil {
		fmt.Fprintln(os.Stderr, "assets:", err)
		os.Exit(1)
	}
}

// write replaces out with the visible files of static and a _headers file.
func write(static, out string) error {
	if _, err := os.Stat(filepath.Join(static, "index.html")); err != nil {
		return fmt.Errorf("%s has no index.html: %w", static, err)
	}
	if err := os.RemoveAll(out); err != nil {
		return err
	}
	n := 0
	err := fs.WalkDir(os.DirFS(static), ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name != "." && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		dst := filepath.Join(out, filepath.FromSlash(name))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		if !d.Type().IsRegular() || strings.HasSuffix(name, ".go") {
			return nil // the folder's Go package is not part of the site
		}
		if d.Name() == "_headers" || d.Name() == "_redirects" {
			return fmt.Errorf("%s: static/ may not hold Cloudflare's %s; it is generated", name, d.Name())
		}
		data, err := os.ReadFile(filepath.Join(static, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		n++
		return os.WriteFile(dst, data, 0o644)
	})
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(static, "tapelab.wasm")); errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s has no tapelab.wasm; run `go run . build` first", static)
	}
	if err := os.WriteFile(filepath.Join(out, "_headers"), web.WorkersHeadersFile(), 0o644); err != nil {
		return err
	}
	fmt.Printf("assets: copied %d files from %s to %s and wrote _headers\n", n, static, out)
	return nil
}
