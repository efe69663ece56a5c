package web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"
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

// drawer is a FirstViewFunc for the tests of the shared pages' drawing:
// it draws as drawn does, counts its drawings by document and the most
// under way at once, tells started of each as it starts, and holds each
// until gate is closed.
type drawer struct {
	gate    chan struct{}
	started chan string

	mu           sync.Mutex
	draws        map[string]int
	active, peak int
}

func newDrawer() *drawer {
	return &drawer{gate: make(chan struct{}), started: make(chan string, 100), draws: map[string]int{}}
}

func (d *drawer) draw(index, doc []byte) ([]byte, error) {
	d.mu.Lock()
	d.draws[string(doc)]++
	d.active++
	d.peak = max(d.peak, d.active)
	d.mu.Unlock()
	d.started <- string(doc)
	<-d.gate
	d.mu.Lock()
	d.active--
	d.mu.Unlock()
	return drawn(index, doc)
}

// count returns how many times doc was drawn.
func (d *drawer) count(doc []byte) int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.draws[string(doc)]
}

// sharedSite is a handler whose shared pages d draws, on a store holding
// docs, with the FirstView options of opts.
func sharedSite(t *testing.T, static fstest.MapFS, d FirstViewFunc, opts Options, docs ...[]byte) http.Handler {
	t.Helper()
	store, err := OpenFileStore(filepath.Join(t.TempDir(), "shares"))
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range docs {
		if err := store.Put(context.Background(), ShareID(doc), doc); err != nil {
			t.Fatal(err)
		}
	}
	opts.Static, opts.Store, opts.CacheDir, opts.FirstView = static, store, t.TempDir(), d
	h, err := NewHandler(opts)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

// getPage answers GET path on h with ctx and returns the status and the
// decoded body.
func getPage(t *testing.T, ctx context.Context, h http.Handler, path string) (int, string) {
	t.Helper()
	req := httptest.NewRequest("GET", path, nil).WithContext(ctx)
	req.Header.Set("Accept-Encoding", "gzip")
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec.Code, string(decode(t, rec.Header().Get("Content-Encoding"), rec.Body.Bytes()))
}

// viewOf is the page drawn, the drawer's way, for doc.
func viewOf(doc []byte) string { return page + "<!-- view of [" + string(doc) + "] -->" }

// TestSharedPagesAreDrawnOnce draws a share's page once per kind (share
// link, embed) however often it is asked for, draws it again when the
// page it is drawn into changes, and remembers a document that cannot be
// drawn.
func TestSharedPagesAreDrawnOnce(t *testing.T) {
	good, broken := []byte(`{"model":1}`), []byte(`{"broken":1}`)
	d := newDrawer()
	close(d.gate)
	draws := 0
	count := func(index, doc []byte) ([]byte, error) { draws++; return d.draw(index, doc) }
	static := shareStatic()
	h := sharedSite(t, static, count, Options{}, good, broken)
	for _, tc := range []struct {
		path  string
		want  string
		draws int // in all, after the request
	}{
		{"/s/" + ShareID(good), viewOf(good), 1},
		{"/s/" + ShareID(good), viewOf(good), 1},
		{"/embed/" + ShareID(good), viewOf(good), 2},
		{"/embed/" + ShareID(good), viewOf(good), 2},
		{"/s/" + ShareID(broken), page, 3},
		{"/s/" + ShareID(broken), page, 3},
		{"/s/" + ShareID(good), viewOf(good), 3},
	} {
		status, body := getPage(t, context.Background(), h, tc.path)
		if status != 200 || body != tc.want || draws != tc.draws {
			t.Errorf("GET %s = %d %q after %d drawings, want 200 %q after %d", tc.path, status, body, draws, tc.want, tc.draws)
		}
	}
	static["index.html"] = &fstest.MapFile{Data: []byte(page + "<!-- v2 -->"), ModTime: modTime.Add(time.Second)}
	if _, body := getPage(t, context.Background(), h, "/s/"+ShareID(good)); body != page+"<!-- v2 --><!-- view of ["+string(good)+"] -->" || draws != 4 {
		t.Errorf("after index.html changed, the share's page is %q after %d drawings, want it drawn anew (4)", body, draws)
	}
}

// TestConcurrentRequestsShareOneDrawing asks for one share's page from 20
// clients while it is being drawn: it is drawn once, and every client
// gets it.
func TestConcurrentRequestsShareOneDrawing(t *testing.T) {
	doc := []byte(`{"model":1}`)
	d := newDrawer()
	h := sharedSite(t, shareStatic(), d.draw, Options{FirstViewWait: time.Minute}, doc)
	var wg sync.WaitGroup
	bodies := make([]string, 20)
	for i := range bodies {
		wg.Go(func() { _, bodies[i] = getPage(t, context.Background(), h, "/s/"+ShareID(doc)) })
	}
	<-d.started
	time.Sleep(50 * time.Millisecond) // the other requests join the drawing, or would start their own
	close(d.gate)
	wg.Wait()
	for i, body := range bodies {
		if body != viewOf(doc) {
			t.Errorf("client %d got %q, want %q", i, body, viewOf(doc))
		}
	}
	if n := d.count(doc); n != 1 {
		t.Errorf("the page was drawn %d times for 20 clients, want once", n)
	}
}

// TestDrawersAreLimited asks for five shares' pages at once from a
// handler with two drawers: no more than two are drawn at a time, and
// each is drawn once the ones before it are done.
func TestDrawersAreLimited(t *testing.T) {
	var docs [][]byte
	for i := range 5 {
		docs = append(docs, fmt.Appendf(nil, `{"model":%d}`, i))
	}
	d := newDrawer()
	h := sharedSite(t, shareStatic(), d.draw, Options{FirstViewDrawers: 2, FirstViewWait: time.Minute}, docs...)
	var wg sync.WaitGroup
	for _, doc := range docs {
		wg.Go(func() {
			if _, body := getPage(t, context.Background(), h, "/s/"+ShareID(doc)); body != viewOf(doc) {
				t.Errorf("GET %s = %q, want %q", ShareID(doc), body, viewOf(doc))
			}
		})
	}
	<-d.started
	<-d.started
	time.Sleep(50 * time.Millisecond) // time for a third drawing to start, were it allowed
	close(d.gate)
	wg.Wait()
	if d.peak != 2 {
		t.Errorf("at most %d pages were drawn at once, want 2 (the drawers)", d.peak)
	}
	for _, doc := range docs {
		if n := d.count(doc); n != 1 {
			t.Errorf("%s was drawn %d times, want once", doc, n)
		}
	}
}

// TestUndrawnPageWhenNoDrawerIsFree has the one drawer draw a page for
// longer than the wait: its request is answered with the undrawn page,
// and so is one for another page, which waits for the drawer, and a
// client that went away meanwhile is answered nothing. The drawing goes
// on into the cache; the pages no one waits for any more are not drawn
// until they are asked for again, and each page is drawn once.
func TestUndrawnPageWhenNoDrawerIsFree(t *testing.T) {
	const wait = 200 * time.Millisecond
	busy, late, gone := []byte(`{"model":1}`), []byte(`{"model":2}`), []byte(`{"model":3}`)
	d := newDrawer()
	h := sharedSite(t, shareStatic(), d.draw, Options{FirstViewDrawers: 1, FirstViewWait: wait}, busy, late, gone)
	for _, doc := range [][]byte{busy, late} {
		start := time.Now()
		if status, body := getPage(t, context.Background(), h, "/s/"+ShareID(doc)); status != 200 || body != page {
			t.Errorf("while the drawer draws busy, GET %s = %d %q, want 200 and the undrawn page", doc, status, body)
		}
		if waited := time.Since(start); waited < wait || waited > 10*wait {
			t.Errorf("the undrawn page for %s came after %v, want about the wait, %v", doc, waited, wait)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { time.Sleep(wait / 4); cancel() }()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/s/"+ShareID(gone), nil).WithContext(ctx))
	if rec.Body.Len() != 0 {
		t.Errorf("a client that went away was written %d bytes", rec.Body.Len())
	}
	close(d.gate)
	// Polled: the drawer may still be encoding busy's page when it is
	// kept, and a request that comes meanwhile is answered undrawn.
	deadline := time.Now().Add(10 * time.Second)
	for _, doc := range [][]byte{busy, late, gone} {
		for {
			_, body := getPage(t, context.Background(), h, "/s/"+ShareID(doc))
			if body == viewOf(doc) {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("with the drawer free, GET %s = %q, want %q", doc, body, viewOf(doc))
			}
			time.Sleep(10 * time.Millisecond)
		}
		if n := d.count(doc); n != 1 {
			t.Errorf("%s was drawn %d times, want once", doc, n)
		}
		if bytes.Equal(doc, busy) {
			// Time for the flights of late and gone to draw, had they
			// not been abandoned.
			time.Sleep(100 * time.Millisecond)
			if n, m := d.count(late), d.count(gone); n+m != 0 {
				t.Errorf("pages no one waited for were drawn: late %d times, gone %d", n, m)
			}
		}
	}
}

// TestSharedPagesDrawnAgain draws a share's page again when a file
// written into it changes, and when the cache dropped it for newer
// pages.
func TestSharedPagesDrawnAgain(t *testing.T) {
	const index = `<head><link rel="stylesheet" href="style.css"></head><body></body>`
	static := fstest.MapFS{
		"index.html": {Data: []byte(index), ModTime: modTime},
		"style.css":  {Data: []byte("p{}"), ModTime: modTime},
	}
	draws := map[string]int{}
	draw := func(index, doc []byte) ([]byte, error) {
		draws[string(doc)]++
		// A page of some 1,000 bytes, 1,300 with its encodings and key:
		// a cache of 4,500 holds three.
		return []byte(string(index) + "<!-- " + strings.Repeat(string(doc), 1000/len(doc)) + " -->"), nil
	}
	var docs [][]byte
	for i := range 4 {
		docs = append(docs, fmt.Appendf(nil, `{"model":%d}`, i))
	}
	h := sharedSite(t, static, draw, Options{FirstViewCache: 4500}, docs...)
	ask := func(doc []byte) string {
		t.Helper()
		_, body := getPage(t, context.Background(), h, "/s/"+ShareID(doc))
		return body
	}
	for _, doc := range docs[:3] {
		ask(doc)
		ask(doc)
	}
	if body := ask(docs[0]); !strings.Contains(body, "<style>p{}</style>") || draws[string(docs[0])] != 1 {
		t.Fatalf("three pages fit the cache, yet the first was drawn %d times: %.80q", draws[string(docs[0])], body)
	}
	static["style.css"] = &fstest.MapFile{Data: []byte("p{color:red}"), ModTime: modTime.Add(time.Second)}
	if body := ask(docs[0]); !strings.Contains(body, "<style>p{color:red}</style>") || draws[string(docs[0])] != 2 {
		t.Errorf("after the stylesheet changed, the page was drawn %d times in all and is %.80q; want it drawn anew", draws[string(docs[0])], body)
	}
	ask(docs[3]) // the least recently used, docs[1], makes room
	if ask(docs[1]); draws[string(docs[1])] != 2 {
		t.Errorf("a page the cache dropped was drawn %d times in all, want twice", draws[string(docs[1])])
	}
	if ask(docs[0]); draws[string(docs[0])] != 2 {
		t.Errorf("a page used lately was drawn %d times in all, want it kept (twice: once per stylesheet)", draws[string(docs[0])])
	}
}
