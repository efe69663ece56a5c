//go:build !js

package e2e

import (
	"io/fs"
	"net/http"
	"os"
	"regexp"
	"strconv"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/web"
)

// TestLoadProgress holds the wasm download half-way and checks that the
// page shows how many bytes of how many arrived, then lets it finish.
func TestLoadProgress(t *testing.T) {
	tab := newBrowser(t)
	release := make(chan struct{})
	h := playgroundHandler(t)
	srv := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/tapelab.wasm" {
			w = &pausingWriter{ResponseWriter: w, after: 200_000, release: release, done: r.Context().Done()}
		}
		h.ServeHTTP(w, r)
	}))

	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL)); err != nil {
		t.Fatalf("loading %s: %v", srv.URL, err)
	}
	// Wait until some, but not all, bytes are counted.
	progress := regexp.MustCompile(`^([0-9.]+) MB of ([0-9.]+) MB received$`)
	var label string
	deadline := time.Now().Add(10 * time.Second)
	for {
		label = text(t, tab, "#load-label")
		if m := progress.FindStringSubmatch(label); m != nil && m[1] != "0.00" {
			got, _ := strconv.ParseFloat(m[1], 64)
			total, _ := strconv.ParseFloat(m[2], 64)
			if got <= 0 || got >= total {
				t.Fatalf("progress label %q: want 0 < received < total while the download is held", label)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("progress label is %q, want \"X MB of Y MB received\"", label)
		}
		time.Sleep(20 * time.Millisecond)
	}
	bar, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](`(p => [p.value, p.max])(document.getElementById("load-progress"))`))
	if err != nil || len(bar) != 2 || bar[0] <= 0 || bar[0] >= bar[1] {
		t.Errorf("progress bar value/max = %v (%v), want 0 < value < max", bar, err)
	}
	t.Logf("while held: %q, bar %v", label, bar)
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, "loading", png)

	close(release)
	waitGo(t, tab)
	expectText(t, tab, "#app h1", "TapeLab")
}

// pausingWriter passes a response through, but stops after the first
// `after` bytes until release is closed (or the request ends).
type pausingWriter struct {
	http.ResponseWriter
	after   int
	release <-chan struct{}
	done    <-chan struct{}
	written int
}

func (w *pausingWriter) Write(p []byte) (int, error) {
	if w.written < w.after && w.written+len(p) >= w.after {
		n, err := w.ResponseWriter.Write(p[:w.after-w.written])
		w.written += n
		if err != nil {
			return n, err
		}
		http.NewResponseController(w.ResponseWriter).Flush()
		select {
		case <-w.release:
		case <-w.done:
		}
		m, err := w.ResponseWriter.Write(p[n:])
		w.written += m
		return n + m, err
	}
	n, err := w.ResponseWriter.Write(p)
	w.written += n
	return n, err
}

// TestLoadFailure serves broken playgrounds and checks that the page says
// what went wrong instead of staying blank.
func TestLoadFailure(t *testing.T) {
	tests := []struct {
		name string
		wasm []byte // nil: no tapelab.wasm at all
		want string // a regexp the error box must match
	}{
		{"missing wasm", nil, `TapeLab could not start\..*tapelab\.wasm: HTTP 404 Not Found\. Run .go run \.. to build and serve it\.`},
		{"corrupt wasm", []byte("this is not webassembly"), `TapeLab could not start\..*tapelab\.wasm is not a WebAssembly program`},
	}
	tab := newBrowser(t)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			static := copyStatic(t)
			if tt.wasm != nil {
				static["tapelab.wasm"] = &fstest.MapFile{Data: tt.wasm}
			}
			h, err := web.NewHandler(web.Options{Static: static})
			if err != nil {
				t.Fatal(err)
			}
			srv := startServer(t, h)
			if err := chromedp.Do(tab, chromedp.Navigate(srv.URL), chromedp.WaitVisible(chromedp.ID("error"))); err != nil {
				t.Fatalf("waiting for the error box: %v", err)
			}
			msg := text(t, tab, "#error")
			if !regexp.MustCompile(tt.want).MatchString(msg) {
				t.Errorf("error box says %q, want a match for %s", msg, tt.want)
			}
			if hidden, err := chromedp.Run(tab, chromedp.Evaluate[bool](`!document.getElementById("load-progress").checkVisibility()`)); err != nil || !hidden {
				t.Errorf("the loading indicator is still shown beside the error (%v)", err)
			}
			png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			saveScreenshot(t, "error-"+regexp.MustCompile(`\W+`).ReplaceAllString(tt.name, "-"), png)
		})
	}
}

// copyStatic returns the page's files from static/ without the wasm.
func copyStatic(t *testing.T) fstest.MapFS {
	t.Helper()
	m := fstest.MapFS{}
	for _, name := range []string{"index.html", "style.css", "loader.js", "wasm_exec.js"} {
		data, err := fs.ReadFile(os.DirFS(staticDir), name)
		if err != nil {
			t.Fatal(err)
		}
		m[name] = &fstest.MapFile{Data: data, ModTime: time.Now()}
	}
	return m
}
