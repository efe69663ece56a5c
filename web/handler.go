// Package web is TapeLab's server side: the http.Handler of `go run .`,
// which serves the playground's static files (with the right content
// types, compression and cache headers) and the share service, and the
// share service alone (NewShareHandler), which the Cloudflare worker in
// web/worker runs while Cloudflare serves the static files. Everything a
// handler needs comes in through its arguments.
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
	// The static files answer GET and HEAD (405 otherwise) on every path
	// no other route claims. They get a mux of their own because a "GET /"
	// pattern conflicts with the share API's method-less patterns, which
	// answer its wrong methods with JSON errors.
	files := http.NewServeMux()
	files.Handle("GET /", static)
	mux.Handle("/", files)
	if opts.Store != nil {
		newShareAPI(opts.Store, static.servePage).register(mux)
	}
	return withSecurityHeaders(mux), nil
}

// NewShareHandler returns the share service alone: the share API on store
// and the shared-model pages, which page writes, with the security headers
// of NewHandler; every other path answers 404. It never reaches the static
// file server, so a program that uses only this handler (the worker) does
// not link the file server's compressors.
func NewShareHandler(store Store, page PageFunc) http.Handler {
	mux := http.NewServeMux()
	newShareAPI(store, page).register(mux)
	return withSecurityHeaders(mux)
}
