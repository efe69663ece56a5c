// Package web is TapeLab's server side: one http.Handler that serves the
// playground's static files (with the right content types, compression and
// cache headers). The same handler is used by `go run .` and, later, by the
// edge worker, so everything it needs comes in through Options.
package web

import (
	"errors"
	"io/fs"
	"net/http"
)

// Options configures NewHandler.
type Options struct {
	// Static holds the playground's files: index.html, style.css,
	// wasm_exec.js, tapelab.wasm and the loader script. Required.
	// Typically os.DirFS("static") or an embedded file system.
	Static fs.FS

	// Precompress makes NewHandler read and compress every compressible
	// file in Static before it returns, so that no request waits for
	// compression. Without it each file is compressed on its first request.
	// Either way a file is compressed once per version (size and
	// modification time) and the result is kept in memory.
	Precompress bool

	// Store, when set, enables the share API (POST /api/share,
	// GET /api/share/{id}) and the shared-model pages (/s/{id},
	// /embed/{id}) on it; see share.go.
	Store Store
}

// NewHandler returns the handler that serves TapeLab over HTTP.
// It fails if Options.Static is nil, or if Precompress is set and a file
// cannot be read.
func NewHandler(opts Options) (http.Handler, error) {
	if opts.Static == nil {
		return nil, errors.New("web: Options.Static is nil; give it the playground's static files")
	}
	static := newStaticFiles(opts.Static)
	if opts.Precompress {
		if err := static.precompress(); err != nil {
			return nil, err
		}
	}
	mux := http.NewServeMux()
	routes(mux, static, opts.Store)
	return withSecurityHeaders(mux), nil
}

// routes registers every route of the handler on mux. It is the one place
// where routes are added.
func routes(mux *http.ServeMux, static *staticFiles, store Store) {
	// The static files answer GET and HEAD (405 otherwise) on every path
	// no other route claims. They get a mux of their own because a "GET /"
	// pattern conflicts with the share API's method-less patterns, which
	// answer its wrong methods with JSON errors.
	files := http.NewServeMux()
	files.Handle("GET /", static)
	mux.Handle("/", files)
	if store != nil {
		newShareAPI(store, static).register(mux)
	}
}
