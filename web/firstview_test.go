package web

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
)

// drawn marks the page a test FirstViewFunc draws: what it was given.
func drawn(index, doc []byte) ([]byte, error) {
	if strings.Contains(string(doc), "broken") {
		return nil, errors.New("cannot draw")
	}
	return []byte(string(index) + "<!-- view of [" + string(doc) + "] -->"), nil
}

// TestFirstView serves the pages of a handler that draws first views: the
// playground's own page drawn without a document, a share's page with its
// stored document, and, when drawing fails or the link names no share, the
// page as it is stored (with the status the share route gives).
func TestFirstView(t *testing.T) {
	store, err := OpenFileStore(filepath.Join(t.TempDir(), "shares"))
	if err != nil {
		t.Fatal(err)
	}
	h, err := NewHandler(Options{Static: shareStatic(), Store: store, CacheDir: t.TempDir(), FirstView: drawn})
	if err != nil {
		t.Fatal(err)
	}
	good, broken := []byte(`{"model":1}`), []byte(`{"broken":1}`)
	for _, doc := range [][]byte{good, broken} {
		if err := store.Put(context.Background(), ShareID(doc), doc); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		path   string
		status int
		want   string
	}{
		{"/", 200, page + "<!-- view of [] -->"},
		{"/index.html", 200, page + "<!-- view of [] -->"},
		{"/s/" + ShareID(good), 200, page + `<!-- view of [{"model":1}] -->`},
		{"/embed/" + ShareID(good), 200, page + `<!-- view of [{"model":1}] -->`},
		{"/s/" + ShareID(broken), 200, page},
		{"/s/aaaaaaaaaaaaaaaa", 404, page + "<!-- view of [] -->"},
		{"/loader.js", 200, "// loader\n"},
	} {
		for _, enc := range []string{"", "gzip", "br"} {
			req := httptest.NewRequest("GET", tc.path, nil)
			if enc != "" {
				req.Header.Set("Accept-Encoding", enc)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			body := decode(t, rec.Header().Get("Content-Encoding"), rec.Body.Bytes())
			if rec.Code != tc.status || string(body) != tc.want {
				t.Errorf("GET %s (%s) = %d %q, want %d %q", tc.path, enc, rec.Code, body, tc.status, tc.want)
			}
			if ct := rec.Header().Get("Content-Type"); tc.path != "/loader.js" && !strings.HasPrefix(ct, "text/html") {
				t.Errorf("GET %s: Content-Type %q", tc.path, ct)
			}
		}
	}
}

// TestEmbedded marks an embed's page as an embed on its <html> element.
func TestEmbedded(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`<!doctype html><html lang="en"><head>`, `<!doctype html><html class="embed" lang="en"><head>`},
		{`<!doctype html><html><body>`, `<!doctype html><html class="embed"><body>`},
		{page, page},
	} {
		if got := string(embedded([]byte(tc.in))); got != tc.want {
			t.Errorf("embedded(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestLargeSharedPageIsNotHeldForBrotli answers the first request for a
// shared page larger than syncBrotliLimit gzip'd, without waiting for
// brotli at quality 11, and the next ones brotli'd once the background
// encoding reached the cache.
func TestLargeSharedPageIsNotHeldForBrotli(t *testing.T) {
	store, err := OpenFileStore(filepath.Join(t.TempDir(), "shares"))
	if err != nil {
		t.Fatal(err)
	}
	h, static, err := newHandler(Options{Static: shareStatic(), Store: store, CacheDir: t.TempDir(), FirstView: drawn})
	if err != nil {
		t.Fatal(err)
	}
	var doc strings.Builder
	doc.WriteString(`{"model":[`)
	for i := 0; doc.Len() <= syncBrotliLimit; i++ {
		fmt.Fprintf(&doc, "%d,", i*i%1000)
	}
	doc.WriteString(`0]}`)
	id := ShareID([]byte(doc.String()))
	if err := store.Put(context.Background(), id, []byte(doc.String())); err != nil {
		t.Fatal(err)
	}
	get := func() string {
		req := httptest.NewRequest("GET", "/s/"+id, nil)
		req.Header.Set("Accept-Encoding", "br, gzip")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		enc := rec.Header().Get("Content-Encoding")
		if body := decode(t, enc, rec.Body.Bytes()); !strings.Contains(string(body), doc.String()) {
			t.Fatalf("GET /s/%s (%s) does not hold the shared document", id, enc)
		}
		return enc
	}
	if enc := get(); enc != "gzip" {
		t.Errorf("the first answer is %q, want gzip while brotli is made in the background", enc)
	}
	static.wait()
	if enc := get(); enc != "br" {
		t.Errorf("once the background encoding is done, the answer is %q, want br", enc)
	}
}
