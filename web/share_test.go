package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"tapelab/web/apitest"
)

// page is the playground page the share tests serve.
const page = "<!doctype html><title>TapeLab</title><script src=\"/loader.js\" defer></script>\n"

func shareStatic() fstest.MapFS {
	return fstest.MapFS{
		"index.html": {Data: []byte(page), ModTime: modTime},
		"loader.js":  {Data: []byte("// loader\n"), ModTime: modTime},
	}
}

// newShareHandler returns the full handler on a fresh file store.
func newShareHandler(t *testing.T) (http.Handler, *FileStore) {
	t.Helper()
	store, err := OpenFileStore(filepath.Join(t.TempDir(), "shares"))
	if err != nil {
		t.Fatal(err)
	}
	return newHandlerOn(t, store), store
}

func newHandlerOn(t *testing.T, store Store) http.Handler {
	t.Helper()
	h, err := NewHandler(Options{Static: shareStatic(), Store: store, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// TestShareAPISuite runs the suite every deployment must pass (the real
// binary and the worker run it too) against the handler.
func TestShareAPISuite(t *testing.T) {
	h, _ := newShareHandler(t)
	srv := httptest.NewServer(h)
	defer srv.Close()
	if err := apitest.Check(srv.Client(), srv.URL, testDocs(t)); err != nil {
		t.Fatal(err)
	}
}

// countingReader is an endless request body that counts what is read.
type countingReader struct{ n int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	c.n += int64(len(p))
	return len(p), nil
}

func TestShareTooLargeIsNotReadWhole(t *testing.T) {
	h, store := newShareHandler(t)
	for _, declared := range []int64{-1, MaxShareBytes + 1, 1 << 40} {
		body := &countingReader{}
		req := httptest.NewRequest("POST", "/api/share", io.LimitReader(body, 1<<30))
		req.ContentLength = declared // -1: unknown length, as with chunked encoding
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusRequestEntityTooLarge {
			t.Errorf("Content-Length %d: status %d, want 413", declared, rec.Code)
		}
		if body.n > 2*MaxShareBytes {
			t.Errorf("Content-Length %d: the handler read %d bytes of the body, want at most about %d", declared, body.n, MaxShareBytes)
		}
		if declared > MaxShareBytes && body.n != 0 {
			t.Errorf("Content-Length %d: the handler read %d bytes though the declared length is over the limit", declared, body.n)
		}
	}
	if n := len(names(t, store.Dir())); n != 0 {
		t.Errorf("rejected bodies left %d files in the store", n)
	}
}

// failingStore fails every operation with err.
type failingStore struct{ err error }

func (s failingStore) Get(context.Context, string) ([]byte, error) { return nil, s.err }
func (s failingStore) Put(context.Context, string, []byte) error   { return s.err }

func TestShareStoreFailures(t *testing.T) {
	docs := testDocs(t)
	id := ShareID(docs.Model)
	for _, err := range []error{errors.New("disk on fire /secret/path"), ErrConflict} {
		h := newHandlerOn(t, failingStore{err})
		for _, req := range []*http.Request{
			httptest.NewRequest("POST", "/api/share", strings.NewReader(string(docs.Model))),
			httptest.NewRequest("GET", "/api/share/"+id, nil),
			httptest.NewRequest("GET", "/s/"+id, nil),
		} {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			want := `{"error":"` // the API's errors are JSON; the share page is the page
			if strings.HasPrefix(req.URL.Path, "/s/") {
				want = page
			}
			if rec.Code != http.StatusInternalServerError || !strings.HasPrefix(rec.Body.String(), want) {
				t.Errorf("%s %s with store error %v: %d %q, want 500 and %.20q", req.Method, req.URL, err, rec.Code, rec.Body, want)
			}
			if strings.Contains(rec.Body.String(), "secret") {
				t.Errorf("%s %s: the answer %q shows the server's own error", req.Method, req.URL, rec.Body)
			}
		}
	}
}

func TestShareGetCaching(t *testing.T) {
	h, _ := newShareHandler(t)
	docs := testDocs(t)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/api/share", strings.NewReader(string(docs.Model))))
	if rec.Code != http.StatusCreated {
		t.Fatalf("POST: %d %s", rec.Code, rec.Body)
	}
	id := ShareID(docs.Model)
	if loc := rec.Header().Get("Location"); loc != "/api/share/"+id {
		t.Errorf("POST: Location %q, want /api/share/%s", loc, id)
	}
	tests := []struct {
		method, ifNoneMatch string
		status              int
		body                string
	}{
		{"GET", "", 200, string(docs.Model)},
		{"HEAD", "", 200, ""},
		{"GET", `"` + id + `"`, 304, ""},
		{"GET", `"other"`, 200, string(docs.Model)},
	}
	for _, tt := range tests {
		req := httptest.NewRequest(tt.method, "/api/share/"+id, nil)
		if tt.ifNoneMatch != "" {
			req.Header.Set("If-None-Match", tt.ifNoneMatch)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != tt.status || (tt.method == "GET" && rec.Body.String() != tt.body) {
			t.Errorf("%s If-None-Match %q: %d %.60q, want %d %.60q", tt.method, tt.ifNoneMatch, rec.Code, rec.Body, tt.status, tt.body)
		}
		if got := rec.Header().Get("Cache-Control"); !strings.Contains(got, "immutable") {
			t.Errorf("%s If-None-Match %q: Cache-Control %q, want immutable", tt.method, tt.ifNoneMatch, got)
		}
		if got := rec.Header().Get("ETag"); got != `"`+id+`"` {
			t.Errorf("%s: ETag %q", tt.method, got)
		}
	}
}

func TestSecurityHeadersOnEveryResponse(t *testing.T) {
	h, _ := newShareHandler(t)
	id := ShareID([]byte("x"))
	tests := []struct {
		method, target string
		framed         bool
	}{
		{"GET", "/", false},
		{"GET", "/loader.js", false},
		{"GET", "/missing.css", false},
		{"GET", "/.hidden", false},
		{"POST", "/", false},
		{"GET", "/api/share/" + id, false},
		{"GET", "/api/share/BAD", false},
		{"GET", "/api/zzz", false},
		{"PATCH", "/api/share", false},
		{"GET", "/s/" + id, false},
		{"GET", "/embed/" + id, true},
		{"GET", "/embed/BAD", true},
		{"GET", "/embedded", false},
		{"GET", "/s/x?embed=1", false},
	}
	for _, tt := range tests {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest(tt.method, tt.target, nil))
		for _, kv := range securityHeaders(tt.framed) {
			if got := rec.Header().Get(kv[0]); got != kv[1] {
				t.Errorf("%s %s (%d): %s = %q, want %q", tt.method, tt.target, rec.Code, kv[0], got, kv[1])
			}
		}
		if tt.framed && rec.Header().Get("X-Frame-Options") != "" {
			t.Errorf("%s %s: X-Frame-Options %q forbids the embed mode", tt.method, tt.target, rec.Header().Get("X-Frame-Options"))
		}
	}
}

func TestWorkersHeadersFile(t *testing.T) {
	got := string(WorkersHeadersFile())
	lines := strings.Split(strings.TrimSpace(got), "\n")
	if lines[1] != "/*" {
		t.Fatalf("the _headers file does not start with a rule for /*:\n%s", got)
	}
	for _, kv := range securityHeaders(false) {
		if !strings.Contains(got, "\n  "+kv[0]+": "+kv[1]+"\n") {
			t.Errorf("the _headers file lacks %s: %s:\n%s", kv[0], kv[1], got)
		}
	}
}

func testDocs(t *testing.T) apitest.Docs {
	t.Helper()
	docs, err := apitest.SpecDocs()
	if err != nil {
		t.Fatal(err)
	}
	return docs
}
