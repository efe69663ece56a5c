package web

import (
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/andybalholm/brotli"
)

var modTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// playground returns a small static tree shaped like static/.
func playground() fstest.MapFS {
	big := func(s string) []byte { return []byte(strings.Repeat(s, 200)) }
	return fstest.MapFS{
		"index.html":      {Data: big("<p>TapeLab</p>\n"), ModTime: modTime},
		"style.css":       {Data: big("body { margin: 0 }\n"), ModTime: modTime},
		"wasm_exec.js":    {Data: big("globalThis.Go = class {};\n"), ModTime: modTime},
		"tapelab.wasm":    {Data: append([]byte("\x00asm\x01\x00\x00\x00"), big("wasm code ")...), ModTime: modTime},
		"logo.png":        {Data: []byte("\x89PNG\r\n\x1a\nnot really"), ModTime: modTime},
		"tiny.txt":        {Data: []byte("x"), ModTime: modTime},
		"sub/index.html":  {Data: big("<p>sub</p>\n"), ModTime: modTime},
		".secret/key.txt": {Data: []byte("hidden"), ModTime: modTime},
		".env":            {Data: []byte("hidden"), ModTime: modTime},
		"static.go":       {Data: []byte("package static"), ModTime: modTime},
	}
}

func newTestHandler(t *testing.T, fsys fs.FS, precompress bool) http.Handler {
	t.Helper()
	h, err := NewHandler(Options{Static: fsys, Precompress: precompress, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatalf("NewHandler: %v", err)
	}
	return h
}

func get(h http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		req.Header[k] = v
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func TestServeFiles(t *testing.T) {
	fsys := playground()
	h := newTestHandler(t, fsys, false)
	tests := []struct {
		method, target string
		status         int
		contentType    string
		body           string // the file served, when status is 200
	}{
		{"GET", "/", 200, "text/html; charset=utf-8", "index.html"},
		{"GET", "/index.html", 200, "text/html; charset=utf-8", "index.html"},
		{"HEAD", "/index.html", 200, "text/html; charset=utf-8", ""},
		{"GET", "/style.css", 200, "text/css; charset=utf-8", "style.css"},
		{"GET", "/wasm_exec.js", 200, "text/javascript; charset=utf-8", "wasm_exec.js"},
		{"GET", "/tapelab.wasm", 200, "application/wasm", "tapelab.wasm"},
		{"GET", "/logo.png", 200, "image/png", "logo.png"},
		{"GET", "/sub/", 200, "text/html; charset=utf-8", "sub/index.html"},
		{"GET", "/sub/../style.css", 307, "", ""}, // the mux redirects to the clean path
		{"GET", "/sub", 404, "", ""},
		{"GET", "/missing.js", 404, "", ""},
		{"GET", "/.env", 404, "", ""},
		{"GET", "/static.go", 404, "", ""},
		{"GET", "/.secret/key.txt", 404, "", ""},
		{"GET", "/.secret/../.env", 307, "", ""},
		{"POST", "/index.html", 405, "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.method+" "+tt.target, func(t *testing.T) {
			rec := get(h, tt.method, tt.target, nil)
			if rec.Code != tt.status {
				t.Fatalf("status = %d, want %d (body %q)", rec.Code, tt.status, rec.Body.String())
			}
			if tt.status != 200 {
				return
			}
			if got := rec.Header().Get("Content-Type"); got != tt.contentType {
				t.Errorf("Content-Type = %q, want %q", got, tt.contentType)
			}
			if got := rec.Header().Get("Cache-Control"); got != "no-cache" {
				t.Errorf("Cache-Control = %q, want no-cache", got)
			}
			if got := rec.Header().Get("Content-Encoding"); got != "" {
				t.Errorf("Content-Encoding = %q without Accept-Encoding, want none", got)
			}
			if tt.body == "" {
				if rec.Body.Len() != 0 {
					t.Errorf("HEAD answered with a %d-byte body", rec.Body.Len())
				}
				return
			}
			if want := fsys[tt.body].Data; !bytes.Equal(rec.Body.Bytes(), want) {
				t.Errorf("body = %.40q..., want %s", rec.Body.String(), tt.body)
			}
		})
	}
}

func TestCompression(t *testing.T) {
	fsys := playground()
	h := newTestHandler(t, fsys, true)
	tests := []struct {
		target, accept, wantEncoding string
	}{
		{"/tapelab.wasm", "gzip, deflate, br, zstd", "br"},
		{"/tapelab.wasm", "gzip, deflate", "gzip"},
		{"/tapelab.wasm", "br;q=0, gzip", "gzip"},
		{"/tapelab.wasm", "br;q=0.0, gzip;q=0", ""},
		{"/tapelab.wasm", "identity", ""},
		{"/tapelab.wasm", "*", "br"},
		{"/tapelab.wasm", "br;q=0, *", "gzip"},
		{"/tapelab.wasm", "", ""},
		{"/", "gzip, br", "br"},
		{"/style.css", "GZIP", "gzip"},
		{"/wasm_exec.js", "br;q=0.5", "br"},
		{"/logo.png", "gzip, br", ""}, // not compressible
		{"/tiny.txt", "gzip, br", ""}, // compression would make it bigger
	}
	for _, tt := range tests {
		t.Run(tt.target+" "+tt.accept, func(t *testing.T) {
			rec := get(h, "GET", tt.target, http.Header{"Accept-Encoding": {tt.accept}})
			if rec.Code != 200 {
				t.Fatalf("status = %d", rec.Code)
			}
			if got := rec.Header().Get("Content-Encoding"); got != tt.wantEncoding {
				t.Fatalf("Content-Encoding = %q, want %q", got, tt.wantEncoding)
			}
			name := strings.TrimPrefix(tt.target, "/")
			if name == "" {
				name = "index.html"
			}
			want := fsys[name].Data
			if got := decode(t, tt.wantEncoding, rec.Body.Bytes()); !bytes.Equal(got, want) {
				t.Fatalf("decoded body differs from %s", name)
			}
			wantDecoded := ""
			if tt.wantEncoding != "" {
				wantDecoded = strconv.Itoa(len(want))
			}
			if got, want := rec.Header().Get("Content-Length"), strconv.Itoa(rec.Body.Len()); got != want {
				t.Errorf("Content-Length = %q, want %s", got, want)
			}
			if got := rec.Header().Get("X-Decoded-Length"); got != wantDecoded {
				t.Errorf("X-Decoded-Length = %q, want %q", got, wantDecoded)
			}
			if tt.wantEncoding != "" && rec.Body.Len() >= len(want) {
				t.Errorf("%s body is %d bytes, raw is %d", tt.wantEncoding, rec.Body.Len(), len(want))
			}
			if compressible := tt.target != "/logo.png" && tt.target != "/tiny.txt"; compressible {
				if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
					t.Errorf("Vary = %q, want Accept-Encoding", got)
				}
			}
		})
	}
}

func decode(t *testing.T, encoding string, body []byte) []byte {
	t.Helper()
	var r io.Reader = bytes.NewReader(body)
	switch encoding {
	case "gzip":
		zr, err := gzip.NewReader(r)
		if err != nil {
			t.Fatalf("gzip: %v", err)
		}
		r = zr
	case "br":
		r = brotli.NewReader(r)
	}
	out, err := io.ReadAll(r)
	if err != nil {
		t.Fatalf("decoding %s: %v", encoding, err)
	}
	return out
}

func TestConditionalRequest(t *testing.T) {
	h := newTestHandler(t, playground(), false)
	for _, accept := range []string{"", "gzip", "br"} {
		first := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {accept}})
		etag := first.Header().Get("ETag")
		if etag == "" {
			t.Fatalf("Accept-Encoding %q: no ETag", accept)
		}
		again := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {accept}, "If-None-Match": {etag}})
		if again.Code != http.StatusNotModified {
			t.Errorf("Accept-Encoding %q: If-None-Match %s gave status %d, want 304", accept, etag, again.Code)
		}
	}
	plain := get(h, "GET", "/tapelab.wasm", nil).Header().Get("ETag")
	gz := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"gzip"}}).Header().Get("ETag")
	if plain == gz {
		t.Errorf("identity and gzip bodies share ETag %s", plain)
	}
}

// countingFS counts how often each file is read in full.
type countingFS struct {
	fstest.MapFS
	mu    sync.Mutex
	reads map[string]int
}

func (c *countingFS) ReadFile(name string) ([]byte, error) {
	c.mu.Lock()
	c.reads[name]++
	c.mu.Unlock()
	return c.MapFS.ReadFile(name)
}

func (c *countingFS) count(name string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.reads[name]
}

func TestCompressOncePerVersion(t *testing.T) {
	fsys := &countingFS{MapFS: playground(), reads: map[string]int{}}
	h := newTestHandler(t, fsys, false)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"br"}}) })
	}
	wg.Wait()
	get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"gzip"}})
	if n := fsys.count("tapelab.wasm"); n != 1 {
		t.Fatalf("9 requests read tapelab.wasm %d times, want 1", n)
	}

	// A rebuilt file (new size and time) is read and compressed again.
	rebuilt := []byte(strings.Repeat("new wasm ", 300))
	fsys.MapFS["tapelab.wasm"] = &fstest.MapFile{Data: rebuilt, ModTime: modTime.Add(time.Minute)}
	rec := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"gzip"}})
	if got := decode(t, "gzip", rec.Body.Bytes()); !bytes.Equal(got, rebuilt) {
		t.Fatalf("after the rebuild the old file is still served")
	}
	if n := fsys.count("tapelab.wasm"); n != 2 {
		t.Fatalf("after one rebuild tapelab.wasm was read %d times, want 2", n)
	}
}

func TestPrecompress(t *testing.T) {
	fsys := &countingFS{MapFS: playground(), reads: map[string]int{}}
	newTestHandler(t, fsys, true)
	for _, name := range []string{"index.html", "style.css", "wasm_exec.js", "tapelab.wasm", "sub/index.html", "tiny.txt"} {
		if n := fsys.count(name); n != 1 {
			t.Errorf("Precompress read %s %d times, want 1", name, n)
		}
	}
	for _, name := range []string{"logo.png", ".env", ".secret/key.txt", "static.go"} {
		if n := fsys.count(name); n != 0 {
			t.Errorf("Precompress read %s (not compressible or hidden) %d times", name, n)
		}
	}
}

func TestNewHandlerErrors(t *testing.T) {
	if _, err := NewHandler(Options{}); err == nil || !strings.Contains(err.Error(), "Static") {
		t.Errorf("NewHandler without Static: err = %v, want one naming Options.Static", err)
	}
	broken := failingFS{playground()}
	_, err := NewHandler(Options{Static: broken, Precompress: true, CacheDir: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "reading") {
		t.Errorf("NewHandler over an unreadable file: err = %v, want one naming the read", err)
	}
	h := newTestHandler(t, broken, false)
	if rec := get(h, "GET", "/style.css", nil); rec.Code != 500 || !strings.Contains(rec.Body.String(), "style.css") {
		t.Errorf("unreadable style.css: status %d body %q, want 500 naming the file", rec.Code, rec.Body.String())
	}
}

// failingFS lists its files but cannot read them.
type failingFS struct{ fstest.MapFS }

func (f failingFS) ReadFile(name string) ([]byte, error) {
	return nil, errors.New("disk on fire")
}

func TestRangeOfEncodedBody(t *testing.T) {
	h := newTestHandler(t, playground(), false)
	full := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"gzip"}}).Body.Bytes()
	rec := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"gzip"}, "Range": {"bytes=0-9"}})
	if rec.Code != http.StatusPartialContent {
		t.Fatalf("status = %d, want 206", rec.Code)
	}
	if got := rec.Header().Get("Content-Length"); got != "10" {
		t.Errorf("Content-Length = %q, want 10", got)
	}
	if !bytes.Equal(rec.Body.Bytes(), full[:10]) {
		t.Errorf("range body is not the first 10 bytes of the gzip body")
	}
}

// bigWasm returns content larger than syncBrotliLimit, whose brotli
// encoding is therefore made in the background.
func bigWasm() []byte {
	var b bytes.Buffer
	b.WriteString("\x00asm\x01\x00\x00\x00")
	for i := 0; b.Len() <= syncBrotliLimit; i++ {
		fmt.Fprintf(&b, "func %d: local.get %d; i32.const %d; call %d\n", i, i%7, i*i%1000, i%97)
	}
	return b.Bytes()
}

// quality11 is brotli's quality 11 with a 24-bit window, made here with
// the brotli package itself.
func quality11(raw []byte) []byte {
	var b bytes.Buffer
	w := brotli.NewWriterOptions(&b, brotli.WriterOptions{Quality: 11, LGWin: 24})
	w.Write(raw)
	w.Close()
	return b.Bytes()
}

func gzip9(raw []byte) []byte {
	var b bytes.Buffer
	w, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	w.Write(raw)
	w.Close()
	return b.Bytes()
}

// TestBestBytes serves a large wasm: until its brotli encoding is made,
// brotli clients get gzip level 9; afterwards they get brotli quality 11,
// byte for byte, each with its own ETag and Vary: Accept-Encoding. A
// second server on the same cache folder sends quality 11 at once.
func TestBestBytes(t *testing.T) {
	raw := bigWasm()
	best := quality11(raw)
	fsys := fstest.MapFS{"tapelab.wasm": {Data: raw, ModTime: modTime}}
	cacheDir := t.TempDir()
	h, static, err := newHandler(Options{Static: fsys, CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	static.encoding <- struct{}{} // hold the background encoding back
	br := http.Header{"Accept-Encoding": {"gzip, deflate, br"}}
	first := get(h, "GET", "/tapelab.wasm", br)
	if enc := first.Header().Get("Content-Encoding"); enc != "gzip" {
		t.Fatalf("before the brotli encoding is made: Content-Encoding %q, want gzip", enc)
	}
	if !bytes.Equal(first.Body.Bytes(), gzip9(raw)) {
		t.Error("the gzip body is not gzip level 9 of the file")
	}
	<-static.encoding
	static.wait()

	for _, tt := range []struct {
		accept, enc string
		want        []byte
	}{
		{"gzip, deflate, br", "br", best},
		{"gzip", "gzip", gzip9(raw)},
		{"", "", raw},
	} {
		rec := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {tt.accept}})
		if got := rec.Header().Get("Content-Encoding"); got != tt.enc {
			t.Errorf("Accept-Encoding %q: Content-Encoding %q, want %q", tt.accept, got, tt.enc)
		}
		if !bytes.Equal(rec.Body.Bytes(), tt.want) {
			t.Errorf("Accept-Encoding %q: the body (%d bytes) is not the %q encoding (%d bytes)", tt.accept, rec.Body.Len(), tt.enc, len(tt.want))
		}
		if got := rec.Header().Get("Vary"); got != "Accept-Encoding" {
			t.Errorf("Accept-Encoding %q: Vary %q", tt.accept, got)
		}
	}
	later := get(h, "GET", "/tapelab.wasm", br)
	if first.Header().Get("ETag") == later.Header().Get("ETag") {
		t.Errorf("the gzip and the brotli bodies share the ETag %s", later.Header().Get("ETag"))
	}
	if again := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"br"}, "If-None-Match": {first.Header().Get("ETag")}}); again.Code != http.StatusOK {
		t.Errorf("revalidating the gzip body once brotli is ready: status %d, want 200 with the brotli body", again.Code)
	}

	// A restarted server finds the encoding in the cache folder.
	h2, static2, err := newHandler(Options{Static: fsys, CacheDir: cacheDir, Precompress: true})
	if err != nil {
		t.Fatal(err)
	}
	static2.encoding <- struct{}{} // no background encoding may be needed
	rec := get(h2, "GET", "/tapelab.wasm", br)
	if rec.Header().Get("Content-Encoding") != "br" || !bytes.Equal(rec.Body.Bytes(), best) {
		t.Errorf("a server on the same cache folder sends %q (%d bytes), want the quality-11 brotli body at once",
			rec.Header().Get("Content-Encoding"), rec.Body.Len())
	}
	<-static2.encoding
}

// TestSupersededVersionIsNotEncoded replaces a large file before its
// background encoding starts: only the new version is encoded.
func TestSupersededVersionIsNotEncoded(t *testing.T) {
	raw := bigWasm()
	fsys := fstest.MapFS{"tapelab.wasm": {Data: raw, ModTime: modTime}}
	cacheDir := t.TempDir()
	h, static, err := newHandler(Options{Static: fsys, CacheDir: cacheDir})
	if err != nil {
		t.Fatal(err)
	}
	static.encoding <- struct{}{}
	get(h, "GET", "/tapelab.wasm", nil)
	rebuilt := append(bytes.Clone(raw), "one more function\n"...)
	fsys["tapelab.wasm"] = &fstest.MapFile{Data: rebuilt, ModTime: modTime.Add(time.Minute)}
	get(h, "GET", "/tapelab.wasm", nil)
	<-static.encoding
	static.wait()
	files, _ := filepath.Glob(filepath.Join(cacheDir, "*.br"))
	if len(files) != 1 {
		t.Errorf("the cache holds %d encodings, want only the new version's", len(files))
	}
	rec := get(h, "GET", "/tapelab.wasm", http.Header{"Accept-Encoding": {"br"}})
	if !bytes.Equal(rec.Body.Bytes(), quality11(rebuilt)) {
		t.Error("the rebuilt file is not served as its quality-11 encoding")
	}
}
