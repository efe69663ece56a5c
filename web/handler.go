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
	"time"

	"tapelab/web/precompress"
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
	// modification time) and the result is kept in memory: gzip at once,
	// brotli at quality 11 at once for small files and files CacheDir
	// holds, and otherwise in the background while gzip is served.
	Precompress bool

	// CacheDir is the folder that keeps the brotli encodings across
	// restarts, named by the hash of what they encode (see
	// tapelab/web/precompress), so that each version of a file is encoded
	// at quality 11 once. "" means the user's cache folder
	// (os.UserCacheDir()/tapelab/brotli); if that cannot be created, the
	// encodings are kept in memory only.
	CacheDir string

	// Store, when set, enables the share API (POST /api/share,
	// GET /api/share/{id}) and the shared-model pages (/s/{id},
	// /embed/{id}) on it; see share.go.
	Store Store

	// FirstView, when set, draws the page's first view into index.html:
	// the playground's own page once per version of index.html, and a
	// stored share's page (/s/{id}, /embed/{id}) once per share and
	// version of index.html (the drawn pages are cached), with its
	// document embedded. Nil serves index.html as it is.
	FirstView FirstViewFunc

	// FirstViewCache bounds the memory that keeps the drawn pages of
	// shares, in bytes of pages and their encodings; the least recently
	// used are dropped first. 0 means DefaultFirstViewCache.
	FirstViewCache int64

	// FirstViewDrawers is how many shares' pages may be drawn at once;
	// 0 means half the processors Go uses (GOMAXPROCS), at least one, so
	// that drawing leaves cores to every other request.
	FirstViewDrawers int

	// FirstViewWait is how long a request for a share's page that is not
	// drawn yet waits for it (for a drawer, then for the drawing) before
	// it is answered with the undrawn page, which the wasm fills in; a
	// drawing under way then goes on, into the cache. 0 means
	// DefaultFirstViewWait.
	FirstViewWait time.Duration
}

// NewHandler returns the handler that serves TapeLab over HTTP.
// It fails if Options.Static is nil, if Options.CacheDir cannot be
// created, or if Precompress is set and a file cannot be read.
func NewHandler(opts Options) (http.Handler, error) {
	h, _, err := newHandler(opts)
	return h, err
}

// newHandler is NewHandler, and returns the static file server too.
func newHandler(opts Options) (http.Handler, *staticFiles, error) {
	if opts.Static == nil {
		return nil, nil, errors.New("web: Options.Static is nil; give it the playground's static files")
	}
	var cache *precompress.Cache
	var err error
	if opts.CacheDir != "" {
		if cache, err = precompress.OpenCache(opts.CacheDir); err != nil {
			return nil, nil, err
		}
	} else if cache, err = precompress.UserCache(); err != nil {
		cache = nil // memory only
	}
	files := opts.Static
	if opts.FirstView != nil {
		files = WithFirstView(opts.Static, opts.FirstView)
	}
	static := newStaticFiles(files, cache)
	if opts.Precompress {
		if err := static.precompress(); err != nil {
			return nil, nil, err
		}
	}
	mux := http.NewServeMux()
	// The static files answer GET and HEAD (405 otherwise) on every path
	// no other route claims. They get a mux of their own because a "GET /"
	// pattern conflicts with the share API's method-less patterns, which
	// answer its wrong methods with JSON errors.
	fileMux := http.NewServeMux()
	fileMux.Handle("GET /", static)
	mux.Handle("/", fileMux)
	if opts.Store != nil {
		page := PageFunc(static.servePage)
		if opts.FirstView != nil {
			page = newFirstViews(opts.Store, opts.Static, opts.FirstView, static, page, opts).serve
		}
		newShareAPI(opts.Store, page).register(mux)
	}
	return withSecurityHeaders(mux), static, nil
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
