//go:build !js

package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/chromedp"

	"tapelab/engine/spec"
	"tapelab/engine/train"
	"tapelab/web"
	"tapelab/web/apitest"
	"tapelab/web/worker/workerdtest"
)

// browserLog collects the browser's log entries (CSP violations, refused
// frames, failed loads) of one tab.
type browserLog struct {
	mu      sync.Mutex
	entries []string
}

func listenLog(t *testing.T, tab context.Context) *browserLog {
	t.Helper()
	if _, err := chromedp.Call(tab, log.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("enabling the log domain: %v", err)
	}
	l := &browserLog{}
	if err := chromedp.Listen(tab, func(ev any) {
		if e, ok := ev.(*log.EventEntryAdded); ok {
			l.mu.Lock()
			l.entries = append(l.entries, string(e.Entry.Level)+": "+e.Entry.Text+" ("+e.Entry.URL+")")
			l.mu.Unlock()
		}
	}); err != nil {
		t.Fatal(err)
	}
	return l
}

// take returns the entries so far and forgets them.
func (l *browserLog) take() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	e := l.entries
	l.entries = nil
	return e
}

// TestSharedModelPages opens a stored share at /s/{id} and /embed/{id}
// with the real handler and its security headers: the page must load every
// file and boot the wasm with no Content-Security-Policy violation. Then a
// page on another origin frames both: the embed page may be framed, the
// other may not.
func TestSharedModelPages(t *testing.T) {
	tab := newBrowser(t)
	store, h := fileStoreHandler(t)
	requests := &requestLog{n: map[string]int{}}
	srv := startServer(t, requests.wrap(h))
	doc := apitest.ModelDoc(7)
	id := web.ShareID(doc)
	if err := store.Put(context.Background(), id, doc); err != nil {
		t.Fatal(err)
	}
	blog := listenLog(t, tab)

	for _, path := range []string{"/s/" + id, "/embed/" + id} {
		if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+path)); err != nil {
			t.Fatalf("loading %s: %v", path, err)
		}
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById("app")?.dataset.renderedMs !== undefined`,
			chromedp.WithPollingTimeout(30*time.Second))); err != nil {
			t.Errorf("%s: Go did not render the page (%v); %s", path, err, pageError(tab))
		}
		for _, e := range blog.take() {
			t.Errorf("%s: the browser logged %s", path, e)
		}
	}

	// A page of another origin (another port) frames each page in turn.
	// A refused frame makes the browser log a frame-ancestors violation; a
	// framed page fetches its scripts, which the server sees.
	// Its page /frame/<path> frames srv's <path>.
	outer := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(`<!doctype html><iframe src="` + srv.URL + strings.TrimPrefix(r.URL.Path, "/frame") + `"></iframe>`))
	}))
	within := func(d time.Duration, cond func() bool) bool {
		for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
			if cond() {
				return true
			}
		}
		return false
	}
	violated := func() bool {
		for _, e := range blog.take() {
			if strings.Contains(e, "frame-ancestors") {
				return true
			}
		}
		return false
	}

	frame := "/s/" + id
	if err := chromedp.Do(tab, chromedp.Navigate(outer.URL+"/frame"+frame)); err != nil {
		t.Fatal(err)
	}
	if !within(10*time.Second, violated) {
		t.Errorf("another origin framed %s without a frame-ancestors violation", frame)
	}

	frame = "/embed/" + id
	loads := requests.count("/loader.js")
	if err := chromedp.Do(tab, chromedp.Navigate(outer.URL+"/frame"+frame)); err != nil {
		t.Fatal(err)
	}
	if !within(10*time.Second, func() bool { return requests.count("/loader.js") > loads }) {
		t.Errorf("%s framed by another origin did not load its scripts", frame)
	}
	if violated() {
		t.Errorf("the browser refused to let another origin frame %s", frame)
	}
}

// requestLog counts the paths a handler is asked for.
type requestLog struct {
	mu sync.Mutex
	n  map[string]int
}

func (l *requestLog) wrap(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		l.mu.Lock()
		l.n[r.URL.Path]++
		l.mu.Unlock()
		h.ServeHTTP(w, r)
	})
}

func (l *requestLog) count(path string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.n[path]
}

// TestUnknownShareLink opens share links whose id the store does not
// know, on the local handler: each must be the playground with status 404,
// showing its default model and saying that the link could not be opened.
func TestUnknownShareLink(t *testing.T) {
	tab := newBrowser(t)
	_, h := fileStoreHandler(t)
	srv := startServer(t, h)
	for _, path := range []string{"/s/aaaaaaaaaaaaaaaa", "/embed/aaaaaaaaaaaaaaaa", "/s/not-an-id"} {
		expectDefaultModel(t, tab, "go run . serve", srv.URL, path)
	}
}

// expectDefaultModel opens base+path, a share link to no stored share, and
// checks that it is the playground answered with status 404, holding the
// model "/" opens and showing a message that the link could not be opened.
func expectDefaultModel(t *testing.T, tab context.Context, backend, base, path string) {
	t.Helper()
	openPage(t, tab, base+"/")
	want := eval[string](t, tab, `tapelabExport("spec")`)
	openPage(t, tab, base+path)
	status := eval[int](t, tab, `performance.getEntriesByType("navigation")[0].responseStatus`)
	msg := eval[string](t, tab, `document.getElementById("link-error").hidden ? "" : document.getElementById("link-error").textContent`)
	got := eval[string](t, tab, `tapelabExport("spec")`)
	if status != http.StatusNotFound {
		t.Errorf("%s: %s answered %d, want 404", backend, path, status)
	}
	if !strings.Contains(msg, "could not be opened") || !strings.Contains(msg, "default model") {
		t.Errorf("%s: %s shows the message %q, want one saying the link could not be opened", backend, path, msg)
	}
	if got != want {
		t.Errorf("%s: %s holds the model\n%s\nwant the default one\n%s", backend, path, got, want)
	}
	if png, err := chromedp.Run(tab, chromedp.CaptureScreenshot()); err == nil {
		saveScreenshot(t, "unknown-share-"+strings.ReplaceAll(strings.Trim(path, "/"), "/", "-"), png)
	}
}

// TestSharedModelOpens stores a model through the share API and opens its
// /s/{id} link in the browser, on the local handler and on the worker in
// workerd: the playground must hold exactly the stored model. On both, a
// link to an unknown id opens the default model with a message.
func TestSharedModelOpens(t *testing.T) {
	chromium(t) // first: it skips the test when there is no browser
	_, h := fileStoreHandler(t)
	local := startServer(t, h)
	if err := workerdtest.Install("../web/worker"); err != nil {
		t.Fatal(err)
	}
	dev, err := workerdtest.Start("../web/worker", t.TempDir(), 6*time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if err := dev.Stop(); err != nil {
			t.Error(err)
		}
	})
	doc := []byte(`{"version":1,"input":[2],"layers":[{"type":"linear","out":3},{"type":"relu"},{"type":"linear","out":1}],"loss":"mse","seed":42}`) // no dataset: the page must pick its default one
	for _, backend := range []struct{ name, url string }{{"go run . serve", local.URL}, {"the worker in workerd", dev.URL}} {
		// A browser per backend, started once the worker is up: a tab
		// lives for 90 s.
		tab := newBrowser(t)
		resp, err := http.Post(backend.url+"/api/share", "application/json", bytes.NewReader(doc))
		if err != nil {
			t.Fatalf("%s: POST /api/share: %v", backend.name, err)
		}
		var created struct{ ID, URL string }
		err = json.NewDecoder(resp.Body).Decode(&created)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusCreated {
			t.Fatalf("%s: POST /api/share: %d %v", backend.name, resp.StatusCode, err)
		}
		if err := chromedp.Do(tab, chromedp.Navigate(backend.url+created.URL)); err != nil {
			t.Fatalf("%s: opening %s: %v", backend.name, created.URL, err)
		}
		// The page exports the model it holds, with its current parameter
		// values (drawn from the seed) written out: without them it must
		// be the shared document.
		got, err := chromedp.Run(tab, chromedp.Poll[string](
			`typeof tapelabExport === "function" && typeof tapelabExport("spec") === "string" && JSON.parse(tapelabExport("spec")).seed === 42 && tapelabExport("spec")`,
			chromedp.WithPollingTimeout(60*time.Second)))
		if err != nil {
			holds, _ := chromedp.Run(tab, chromedp.Evaluate[string](`JSON.stringify(typeof tapelabExport === "function" ? tapelabExport("spec") : "no tapelabExport")`))
			t.Errorf("%s: the page at %s did not open the shared model (%v); it holds %s; %s", backend.name, created.URL, err, holds, pageError(tab))
			continue
		}
		m, err := spec.Decode([]byte(got))
		if err != nil {
			t.Fatalf("%s: the page exports a document spec.Decode rejects: %v\n%s", backend.name, err, got)
		}
		m.Params = nil
		if m.Dataset.Name != "reg-plane" || m.Dataset.N < 2 {
			t.Errorf("%s: a shared model without a dataset opened on %+v, want the default reg-plane data", backend.name, m.Dataset)
		}
		m.Dataset = train.DataConfig{} // the page's choice, checked above
		if canon, err := spec.Encode(m); err != nil || !bytes.Equal(canon, doc) {
			t.Errorf("%s: the page at %s holds the model\n%s\nwant the shared one\n%s", backend.name, created.URL, canon, doc)
		}
		expectDefaultModel(t, tab, backend.name, backend.url, "/s/"+strings.Repeat("b", 16))
	}
}
