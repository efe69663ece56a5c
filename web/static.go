package web

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"log"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"tapelab/web/precompress"
)

// syncBrotliLimit is the largest file whose brotli encoding is made before
// it is first served; a larger one (the wasm) is served gzip'd while its
// brotli encoding is made in the background, which at quality 11 takes a
// minute or more for the playground's wasm.
const syncBrotliLimit = 64 << 10

// knownType fixes the types of the files the playground ships, so that
// they do not depend on the host's mime tables.
func knownType(ext string) string {
	switch ext {
	case ".html":
		return "text/html; charset=utf-8"
	case ".css":
		return "text/css; charset=utf-8"
	case ".js":
		return "text/javascript; charset=utf-8"
	case ".json":
		return "application/json"
	case ".wasm":
		return "application/wasm"
	case ".svg":
		return "image/svg+xml"
	case ".png":
		return "image/png"
	case ".ico":
		return "image/x-icon"
	case ".txt":
		return "text/plain; charset=utf-8"
	}
	return ""
}

// compressible reports whether files with the extension ext are worth
// compressing (text and wasm; images are compressed already).
func compressible(ext string) bool {
	switch ext {
	case ".html", ".css", ".js", ".json", ".wasm", ".svg", ".txt":
		return true
	}
	return false
}

// staticFiles serves the files of one fs.FS. It keeps each file's bytes and
// their encodings (gzip at level 9, brotli at quality 11; see
// tapelab/web/precompress) in memory, keyed by name and invalidated when
// the file's size or modification time changes.
type staticFiles struct {
	fsys fs.FS
	// cache keeps brotli encodings across restarts; nil keeps them in
	// memory only.
	cache *precompress.Cache
	// encoding holds a token while a background brotli encoding runs, so
	// that they run one at a time and a cold start leaves a core free.
	encoding chan struct{}
	pending  sync.WaitGroup // background encodings not yet finished

	mu      sync.Mutex
	entries map[string]*entry
}

// entry is one version of one file; once guards its loading, so concurrent
// first requests compress it only once.
type entry struct {
	size    int64
	modTime time.Time

	once  sync.Once
	asset *asset
	err   error
}

// asset is a loaded file: its bytes, its encodings and its headers.
type asset struct {
	name        string
	modTime     time.Time
	contentType string
	etag        string // strong validator of the raw bytes, quoted
	raw         []byte // the file as stored
	// inline holds, for a page, the CSP sources of its inline scripts and
	// styles by directive (inlineSources); nil for other files.
	inline map[string][]string
	gzip   []byte // nil unless compressible and smaller than raw
	// br is the brotli encoding once it is made (nil before, and when it
	// is not smaller than raw); until then brotli clients get gzip.
	br atomic.Pointer[[]byte]
}

// encoded returns the body to send to a client whose Accept-Encoding
// header is accept, and its encoding ("" for the raw bytes).
func (a *asset) encoded(accept string) (string, []byte) {
	br := a.br.Load()
	var have []string
	if br != nil {
		have = append(have, "br")
	}
	if a.gzip != nil {
		have = append(have, "gzip")
	}
	switch chooseEncoding(accept, have) {
	case "br":
		return "br", *br
	case "gzip":
		return "gzip", a.gzip
	}
	return "", a.raw
}

// newAsset returns the file name's version raw (modified at modTime), not
// yet encoded.
func newAsset(name string, modTime time.Time, raw []byte) *asset {
	sum := sha256.Sum256(raw)
	a := &asset{name: path.Base(name), modTime: modTime, contentType: contentType(name, raw), etag: `"` + hex.EncodeToString(sum[:12]) + `"`, raw: raw}
	if strings.HasPrefix(a.contentType, "text/html") {
		a.inline = inlineSources(raw)
	}
	return a
}

// allowInline lets the inline scripts and styles of a page run under the
// Content-Security-Policy h carries (addSources).
func (a *asset) allowInline(h http.Header) {
	if policy := h.Get("Content-Security-Policy"); policy != "" && a.inline != nil {
		h.Set("Content-Security-Policy", addSources(policy, a.inline))
	}
}

// varies reports whether the body sent depends on Accept-Encoding.
func (a *asset) varies() bool { return a.gzip != nil || a.br.Load() != nil }

func newStaticFiles(fsys fs.FS, cache *precompress.Cache) *staticFiles {
	return &staticFiles{fsys: fsys, cache: cache, encoding: make(chan struct{}, 1), entries: make(map[string]*entry)}
}

// precompress loads (and so compresses) every compressible file; brotli
// encodings of large files that are not in the cache are made afterwards,
// in the background.
func (s *staticFiles) precompress() error {
	return fs.WalkDir(s.fsys, ".", func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("web: reading static files: %w", err)
		}
		if d.IsDir() || hidden(name) || !compressible(path.Ext(name)) {
			return nil
		}
		_, err = s.load(name)
		return err
	})
}

// wait waits until every background encoding has finished.
func (s *staticFiles) wait() { s.pending.Wait() }

// ServeHTTP serves the file named by the request path; "/" and paths ending
// in "/" serve that folder's index.html. Hidden files and folders (names
// starting with ".") are not served.
func (s *staticFiles) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" {
		name = "index.html"
	} else if strings.HasSuffix(r.URL.Path, "/") {
		name += "/index.html"
	}
	s.serveFile(w, r, name)
}

// serveFile writes the file name (a slash-separated path inside the file
// system) to w, compressed when the client accepts it. Routes that answer
// with a static page, such as a shared model's page, call it directly.
func (s *staticFiles) serveFile(w http.ResponseWriter, r *http.Request, name string) {
	if !fs.ValidPath(name) || hidden(name) {
		http.NotFound(w, r)
		return
	}
	a, err := s.load(name)
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, errIsDir) {
		http.NotFound(w, r)
		return
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Content-Type-Options", "nosniff")
	a.allowInline(h)
	etag := a.etag
	if a.varies() {
		h.Add("Vary", "Accept-Encoding")
	}
	enc, body := a.encoded(r.Header.Get("Accept-Encoding"))
	if enc != "" {
		h.Set("Content-Encoding", enc)
		// Content-Length counts the encoded bytes; the page's progress
		// bar counts decoded ones, so it also gets the decoded size.
		h.Set("X-Decoded-Length", strconv.Itoa(len(a.raw)))
		// ServeContent leaves Content-Length out when Content-Encoding
		// is set (it cannot know the writer does not compress again);
		// this body is final. Range answers and 304s replace or drop it.
		h.Set("Content-Length", strconv.Itoa(len(body)))
		etag = strings.TrimSuffix(etag, `"`) + "-" + enc + `"`
	}
	h.Set("ETag", etag)
	http.ServeContent(w, r, a.name, a.modTime, bytes.NewReader(body))
}

// servePage writes the playground's page, index.html, with the status
// given: it is the PageFunc of the shared-model pages. A 200 page is the
// file as "/" serves it (conditional requests and ranges included); any
// other status answers with the whole page, uncached, so that a share
// stored later is not hidden by a cached 404.
func (s *staticFiles) servePage(w http.ResponseWriter, r *http.Request, status int) {
	if status == http.StatusOK {
		s.serveFile(w, r, "index.html")
		return
	}
	a, err := s.load("index.html")
	if err != nil {
		http.Error(w, "the playground's page could not be read", http.StatusInternalServerError)
		return
	}
	a.writeWhole(w, r, status, "no-store")
}

// writeWhole answers with the whole of a, encoded as the request accepts,
// with the status and Cache-Control given (no conditional requests, no
// ranges).
func (a *asset) writeWhole(w http.ResponseWriter, r *http.Request, status int, cacheControl string) {
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", cacheControl)
	a.allowInline(h)
	if a.varies() {
		h.Add("Vary", "Accept-Encoding")
	}
	enc, body := a.encoded(r.Header.Get("Accept-Encoding"))
	if enc != "" {
		h.Set("Content-Encoding", enc)
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write(body)
	}
}

var errIsDir = errors.New("is a directory")

// load returns the current version of the file name, reading and
// compressing it if this version has not been seen before.
func (s *staticFiles) load(name string) (*asset, error) {
	info, err := fs.Stat(s.fsys, name)
	if err != nil {
		return nil, err
	}
	if info.IsDir() {
		return nil, fmt.Errorf("web: %s: %w", name, errIsDir)
	}
	s.mu.Lock()
	e := s.entries[name]
	if e == nil || e.size != info.Size() || !e.modTime.Equal(info.ModTime()) {
		e = &entry{size: info.Size(), modTime: info.ModTime()}
		s.entries[name] = e
	}
	s.mu.Unlock()
	e.once.Do(func() { e.asset, e.err = s.read(name, e) })
	return e.asset, e.err
}

// read reads the version e of the file name and encodes it if it is
// compressible: gzip at once, brotli at once when the cache has it or the
// file is small, and otherwise in the background.
func (s *staticFiles) read(name string, e *entry) (*asset, error) {
	raw, err := fs.ReadFile(s.fsys, name)
	if err != nil {
		return nil, fmt.Errorf("web: reading %s: %w", name, err)
	}
	a := newAsset(name, e.modTime, raw)
	if !compressible(path.Ext(name)) {
		return a, nil
	}
	gz, err := precompress.Gzip(raw)
	if err != nil {
		return nil, fmt.Errorf("web: compressing %s: %w", name, err)
	}
	if len(gz) < len(raw) {
		a.gzip = gz
	}
	stale := func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.entries[name] != e // a newer version of the file replaced this one
	}
	if err := s.encodeBrotli(a, stale, nil); err != nil {
		return nil, fmt.Errorf("web: compressing %s: %w", name, err)
	}
	return a, nil
}

// encodeBrotli gives a its brotli encoding: from the cache when it holds
// it, at once when a is small, and otherwise in the background, one at a
// time, unless stale reports by then that no one will be served a (a is
// served gzip'd meanwhile). made, when not nil, is called once a has it.
func (s *staticFiles) encodeBrotli(a *asset, stale func() bool, made func()) error {
	if made == nil {
		made = func() {}
	}
	if s.cache != nil {
		if br, ok := s.cache.Lookup(a.raw); ok {
			a.setBrotli(br)
			made()
			return nil
		}
	}
	if len(a.raw) <= syncBrotliLimit {
		br, err := s.brotli(a.raw)
		if err != nil {
			return err
		}
		a.setBrotli(br)
		made()
		return nil
	}
	s.pending.Add(1)
	go func() {
		defer s.pending.Done()
		s.encoding <- struct{}{}
		defer func() { <-s.encoding }()
		if stale() {
			return
		}
		br, err := s.brotli(a.raw)
		if err != nil {
			log.Printf("web: brotli for %s: %v; it is served gzip'd", a.name, err)
			return
		}
		a.setBrotli(br)
		made()
	}()
	return nil
}

// brotli encodes raw at quality 11, through the cache when there is one.
func (s *staticFiles) brotli(raw []byte) ([]byte, error) {
	if s.cache != nil {
		return s.cache.Brotli(raw)
	}
	return precompress.Brotli(raw, precompress.BrotliQuality)
}

// setBrotli makes br the brotli encoding, if it is smaller than raw.
func (a *asset) setBrotli(br []byte) {
	if len(br) < len(a.raw) {
		a.br.Store(&br)
	}
}

// contentType names the type of the file name, from its extension or, for
// unknown extensions, from its first bytes.
func contentType(name string, raw []byte) string {
	ext := path.Ext(name)
	if t := knownType(ext); t != "" {
		return t
	}
	if t := mime.TypeByExtension(ext); t != "" {
		return t
	}
	return http.DetectContentType(raw)
}

// hidden reports whether the slash-separated name is not part of the site:
// a Go source or a name with an element that starts with a dot.
func hidden(name string) bool {
	if strings.HasSuffix(name, ".go") {
		return true // the folder's Go package (it embeds the data files), not the site
	}
	for elem := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(elem, ".") && elem != "." {
			return true
		}
	}
	return false
}

// chooseEncoding picks the encoding to send for an Accept-Encoding header
// from available, which lists the encodings at hand in order of preference
// ("br", then "gzip"), or "" (identity) when the client accepts none of
// them. "q=0" refuses an encoding and "*" accepts any encoding not named.
func chooseEncoding(header string, available []string) string {
	accepted := map[string]bool{}
	wildcard := false
	for part := range strings.SplitSeq(header, ",") {
		coding, params, _ := strings.Cut(part, ";")
		coding = strings.ToLower(strings.TrimSpace(coding))
		ok := !refused(params)
		if coding == "*" {
			wildcard = ok
			continue
		}
		accepted[coding] = ok
	}
	for _, enc := range available {
		if ok, named := accepted[enc]; ok || (!named && wildcard) {
			return enc
		}
	}
	return ""
}

// refused reports whether Accept-Encoding parameters such as " q=0.0" give
// the coding a quality of zero.
func refused(params string) bool {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(strings.TrimSpace(k), "q") {
			v = strings.TrimRight(strings.TrimSpace(v), "0")
			return v == "" || v == "0." || v == "0"
		}
	}
	return false
}
