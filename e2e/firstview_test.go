//go:build !js

package e2e

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/web"
	"tapelab/web/firstview"
)

// nodeBoxes returns, per node id, the on-screen rectangle (x, y, w, h) of
// the box of each node of the tape drawn in svgID, and its title.
func nodeBoxes(t *testing.T, tab context.Context, svgID string) map[string][5]any {
	t.Helper()
	got, err := chromedp.Run(tab, chromedp.Evaluate[map[string][5]any](fmt.Sprintf(`Object.fromEntries(
		[...document.querySelectorAll("#%s [data-node]")].map((g) => {
			const r = g.querySelector(".box").getBoundingClientRect();
			return [g.dataset.node, [r.x, r.y, r.width, r.height, g.querySelector(".title-text").textContent]];
		}))`, svgID)))
	if err != nil {
		t.Fatalf("reading the boxes of #%s: %v", svgID, err)
	}
	return got
}

// TestFirstViewBeforeTheWasm holds the page's wasm download and checks that
// the server's first view already shows the tape (its node titles and
// boxes: the default model's on the playground's page, the shared model's
// on its /s/ page, and on its /embed/ page laid out as an embed from the
// first paint), then lets the wasm arrive and checks that when Go has
// drawn the page every box is where the first view drew it (within half a
// pixel) and is the element the first view drew (the page adopts the
// server's drawing instead of drawing it again), at a laptop's and a
// phone's size.
func TestFirstViewBeforeTheWasm(t *testing.T) {
	store, err := web.OpenFileStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	// A model unlike the default one: its tape has relu nodes.
	doc := []byte(`{"version":1,"input":[2],"layers":[{"type":"linear","out":3},{"type":"relu"},{"type":"linear","out":3},{"type":"relu"},{"type":"linear","out":1}],"loss":"mse","seed":5}`)
	// A model whose tape of 60+ nodes the page folds into rows on an
	// upright tablet: 15 times linear and tanh, then a linear.
	long := `{"version":1,"input":[2],"layers":[` + strings.Repeat(`{"type":"linear","out":4},{"type":"tanh"},`, 15) + `{"type":"linear","out":1}],"loss":"mse","seed":5}`
	id, longID := web.ShareID(doc), web.ShareID([]byte(long))
	for k, d := range map[string][]byte{id: doc, longID: []byte(long)} {
		if err := store.Put(context.Background(), k, d); err != nil {
			t.Fatal(err)
		}
	}
	h, err := web.NewHandler(web.Options{Static: os.DirFS(staticDir), Precompress: true, Store: store, FirstView: firstview.Page})
	if err != nil {
		t.Fatal(err)
	}
	type visit struct {
		sc     screen
		path   string
		relus  int  // the relu nodes its tape has
		folded bool // the tape must be folded into rows
	}
	var visits []visit
	for _, sc := range []screen{screens[4], screens[0]} {
		visits = append(visits, visit{sc, "/", 0, false}, visit{sc, "/s/" + id, 2, false}, visit{sc, "/embed/" + id, 2, false})
	}
	visits = append(visits, visit{screens[2], "/s/" + longID, 0, true})
	for _, vi := range visits {
		sc, path := vi.sc, vi.path
		t.Run(sc.name+path, func(t *testing.T) {
			release := make(chan struct{})
			held := false
			srv := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/tapelab.wasm" {
					select {
					case <-release:
					case <-r.Context().Done():
						return
					}
				}
				h.ServeHTTP(w, r)
			}))
			defer func() {
				if !held {
					close(release)
				}
			}()
			tab := newBrowser(t)
			if err := chromedp.Do(tab, sc.emulate()); err != nil {
				t.Fatal(err)
			}
			blog := listenLog(t, tab)
			if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+path)); err != nil {
				t.Fatalf("loading %s: %v", path, err)
			}
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.querySelectorAll("#tape-preview [data-node]").length > 0`,
				chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Fatalf("no first view while the wasm is held: %v\n%s", err, pageError(tab))
			}
			if n, _ := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#tape [data-node]").length`)); n != 0 {
				t.Fatalf("the wasm's tape (%d nodes) is drawn while its download is held", n)
			}
			before := nodeBoxes(t, tab, "tape-preview")
			if len(before) < 8 {
				t.Fatalf("the first view draws %d nodes, want the whole tape", len(before))
			}
			relus := 0
			for _, b := range before {
				if s, _ := b[4].(string); len(s) > 5 && s[len(s)-5:] == " relu" {
					relus++
				}
			}
			if relus != vi.relus {
				t.Errorf("the first view of %s draws %d relu nodes, want %d", path, relus, vi.relus)
			}
			rows, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("tape-preview").dataset.rows ?? "1"`))
			if vi.folded && rows == "1" {
				t.Errorf("the first view of %s is drawn in one row, want it folded into rows", path)
			}
			if embed := strings.HasPrefix(path, "/embed/"); embed != eval[bool](t, tab, `document.documentElement.classList.contains("embed")`) {
				t.Errorf("the first view of %s has the embed class: %v, want %v", path, !embed, embed)
			}
			shot(t, tab, "firstview-"+sc.name+"-"+pathName(path)+"-before")
			// What the first paint waits for came with the page, and the
			// page's policy let it run.
			if n := eval[int](t, tab, `document.querySelectorAll("link[rel=stylesheet], script[src]:not([async]):not([defer])").length`); n != 0 {
				t.Errorf("the first view waits for %d stylesheets or scripts of its own, want them written into the page", n)
			}
			for _, e := range blog.take() {
				t.Errorf("%s: the browser logged %s", path, e)
			}

			// Mark the first view's node groups, to tell afterwards whether
			// the page took them over or drew its own.
			if _, err := chromedp.Run(tab, chromedp.Evaluate[int](`(() => { const gs = document.querySelectorAll("#tape-preview [data-node]"); gs.forEach((g) => { g.firstViewNode = true; }); return gs.length; })()`)); err != nil {
				t.Fatal(err)
			}
			close(release)
			held = true
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.getElementById("app").dataset.renderedMs !== undefined && !document.getElementById("tape-preview")`,
				chromedp.WithPollingTimeout(30*time.Second))); err != nil {
				t.Fatalf("Go did not take over: %v\n%s", err, pageError(tab))
			}
			// The link's step drawn, and the tape fitted to its region.
			if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.documentElement.dataset.linkOpened === "true" && +document.getElementById("playground").dataset.redraws > 0 && `+tapeFittedJS,
				chromedp.WithPollingTimeout(10*time.Second))); err != nil {
				t.Fatalf("the page did not draw the link's step: %v\n%s", err, pageError(tab))
			}
			after := nodeBoxes(t, tab, "tape")
			if n := eval[int](t, tab, `[...document.querySelectorAll("#tape [data-node]")].filter((g) => g.firstViewNode).length`); n != len(before) {
				t.Errorf("the page took over %d of the first view's %d node groups, want all: it drew the tape again", n, len(before))
			}
			shot(t, tab, "firstview-"+sc.name+"-"+pathName(path)+"-after")
			for _, e := range blog.take() {
				t.Errorf("%s: the browser logged %s", path, e)
			}
			if len(after) != len(before) {
				t.Fatalf("the first view drew %d nodes, the page %d", len(before), len(after))
			}
			moved := 0
			for k, b := range before {
				a, ok := after[k]
				if !ok {
					t.Errorf("node %s of the first view is not on the page", k)
					continue
				}
				if a[4] != b[4] {
					t.Errorf("node %s is titled %v in the first view, %v on the page", k, b[4], a[4])
				}
				for i := range 4 {
					if d := math.Abs(a[i].(float64) - b[i].(float64)); d > 0.5 {
						moved++
						t.Errorf("node %s (%v) moved when the wasm took over: %v then %v", k, b[4], b[:4], a[:4])
						break
					}
				}
			}
			if r, _ := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("tape").dataset.rows`)); r != rows {
				t.Errorf("the first view draws the tape in %s rows, the page in %s", rows, r)
			}
			t.Logf("%s %s: %d nodes in %s rows, %d moved", sc.name, path, len(before), rows, moved)
		})
	}
}

// pathName names a page path in a screenshot's file name.
func pathName(path string) string {
	switch {
	case path == "/":
		return "index"
	case strings.HasPrefix(path, "/embed/"):
		return "embed"
	}
	return "shared"
}

// shot saves a screenshot of tab as name.
func shot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, name, png)
}
