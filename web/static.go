package web

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/andybalholm/brotli"
)

// Compression levels used for every compressible file. Each version of a
// file is compressed once, so these favour size over speed, but stay fast
// enough (about a second for a 4 MB wasm binary on one core) to run at
// start-up or on a first request: brotli's levels 10 and 11 take 10-20 s.
const (
	gzipLevel   = gzip.BestCompression
	brotliLevel = 9
)

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
// their gzip and brotli encodings in memory, keyed by name and invalidated
// when the file's size or modification time changes.
type staticFiles struct {
	fsys fs.FS

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
	etag        string            // strong validator of the raw bytes, quoted
	raw         []byte            // the file as stored
	encoded     map[string][]byte // "br" and "gzip", only when smaller than raw
}

func newStaticFiles(fsys fs.FS) *staticFiles {
	return &staticFiles{fsys: fsys, entries: make(map[string]*entry)}
}

// precompress loads (and so compresses) every compressible file.
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
	body, etag := a.raw, a.etag
	if len(a.encoded) > 0 {
		h.Add("Vary", "Accept-Encoding")
		if enc := chooseEncoding(r.Header.Get("Accept-Encoding"), a.encoded); enc != "" {
			h.Set("Content-Encoding", enc)
			// Content-Length counts the encoded bytes; the page's progress
			// bar counts decoded ones, so it also gets the decoded size.
			h.Set("X-Decoded-Length", strconv.Itoa(len(a.raw)))
			// ServeContent leaves Content-Length out when Content-Encoding
			// is set (it cannot know the writer does not compress again);
			// this body is final. Range answers and 304s replace or drop it.
			body = a.encoded[enc]
			h.Set("Content-Length", strconv.Itoa(len(body)))
			etag = strings.TrimSuffix(etag, `"`) + "-" + enc + `"`
		}
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
	h := w.Header()
	h.Set("Content-Type", a.contentType)
	h.Set("Cache-Control", "no-store")
	body := a.raw
	if len(a.encoded) > 0 {
		h.Add("Vary", "Accept-Encoding")
		if enc := chooseEncoding(r.Header.Get("Accept-Encoding"), a.encoded); enc != "" {
			h.Set("Content-Encoding", enc)
			body = a.encoded[enc]
		}
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
	e.once.Do(func() { e.asset, e.err = readAsset(s.fsys, name, info.ModTime()) })
	return e.asset, e.err
}

// readAsset reads the file name and encodes it if it is compressible.
func readAsset(fsys fs.FS, name string, modTime time.Time) (*asset, error) {
	raw, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, fmt.Errorf("web: reading %s: %w", name, err)
	}
	sum := sha256.Sum256(raw)
	a := &asset{
		name:        path.Base(name),
		modTime:     modTime,
		contentType: contentType(name, raw),
		etag:        `"` + hex.EncodeToString(sum[:12]) + `"`,
		raw:         raw,
		encoded:     make(map[string][]byte),
	}
	if !compressible(path.Ext(name)) {
		return a, nil
	}
	// The two encoders run side by side: on a 4 MB wasm binary each takes
	// about half a second.
	var gz, br []byte
	var gzErr, brErr error
	var wg sync.WaitGroup
	wg.Go(func() { gz, gzErr = encodeGzip(raw) })
	br, brErr = encodeBrotli(raw)
	wg.Wait()
	if err := errors.Join(gzErr, brErr); err != nil {
		return nil, fmt.Errorf("web: compressing %s: %w", name, err)
	}
	for enc, b := range map[string][]byte{"gzip": gz, "br": br} {
		if len(b) < len(raw) {
			a.encoded[enc] = b
		}
	}
	return a, nil
}

func encodeGzip(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	w, err := gzip.NewWriterLevel(&b, gzipLevel)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func encodeBrotli(raw []byte) ([]byte, error) {
	var b bytes.Buffer
	w := brotli.NewWriterLevel(&b, brotliLevel)
	if _, err := w.Write(raw); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
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

// hidden reports whether any element of the slash-separated name starts
// with a dot.
func hidden(name string) bool {
	for elem := range strings.SplitSeq(name, "/") {
		if strings.HasPrefix(elem, ".") && elem != "." {
			return true
		}
	}
	return false
}

// chooseEncoding picks the encoding to send for an Accept-Encoding header:
// brotli if the client accepts it, then gzip, else "" (identity). Only
// encodings present in available are chosen; "q=0" refuses an encoding and
// "*" accepts any encoding not named.
func chooseEncoding(header string, available map[string][]byte) string {
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
	for _, enc := range []string{"br", "gzip"} {
		if _, have := available[enc]; !have {
			continue
		}
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
