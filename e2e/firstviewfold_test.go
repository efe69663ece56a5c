//go:build !js

package e2e

import (
	"context"
	"net/http"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/web"
	"tapelab/web/firstview"
)

// drawnFold is what a first view shows of its tape in one fold: each
// box's transform and each edge's path.
type drawnFold struct {
	at, edges []string
}

var (
	nodeAtRE   = regexp.MustCompile(`<g class="node[^"]*" data-node="\d+" transform="([^"]*)">`)
	edgePathRE = regexp.MustCompile(`<path class="edge" d="([^"]*)"`)
	foldElemRE = regexp.MustCompile(`<g class="fold" display="none" data-rows="\d+" data-w="[^"]*" data-h="[^"]*"(?: data-at="([^"]*)")?>(.*?)</g>`)
)

// serverFolds returns, from a first view, what each fold shows (index r-1
// for r rows): the drawing itself for one row, and each other fold's
// places and edges.
func serverFolds(t *testing.T, view string) []drawnFold {
	t.Helper()
	world, _, _ := strings.Cut(view[strings.Index(view, `<g class="world">`):], `<g class="fold"`)
	one := drawnFold{}
	for _, m := range nodeAtRE.FindAllStringSubmatch(world, -1) {
		one.at = append(one.at, m[1])
	}
	for _, m := range edgePathRE.FindAllStringSubmatch(world, -1) {
		one.edges = append(one.edges, m[1])
	}
	folds := []drawnFold{one}
	for _, m := range foldElemRE.FindAllStringSubmatch(view, -1)[1:] {
		var f drawnFold
		xy := strings.Fields(m[1])
		for i := 0; i+1 < len(xy); i += 2 {
			f.at = append(f.at, "translate("+xy[i]+" "+xy[i+1]+")")
		}
		for _, p := range edgePathRE.FindAllStringSubmatch(m[2], -1) {
			f.edges = append(f.edges, p[1])
		}
		folds = append(folds, f)
	}
	return folds
}

// TestFirstViewFoldsAndUnfolds holds the page's wasm, opens a shared
// model whose tape the first view folds into rows on an upright tablet,
// then widens and shortens the window until it shows one row, and folds it
// again: each time the first view shows exactly the fold the server drew
// for the rows it picked (the fold of one row is the drawing itself, which
// the server does not write twice), every box at its place and every edge
// on its path.
func TestFirstViewFoldsAndUnfolds(t *testing.T) {
	store, err := web.OpenFileStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	long := []byte(`{"version":1,"input":[2],"layers":[` + strings.Repeat(`{"type":"linear","out":4},{"type":"tanh"},`, 15) + `{"type":"linear","out":1}],"loss":"mse","seed":5}`)
	id := web.ShareID(long)
	if err := store.Put(context.Background(), id, long); err != nil {
		t.Fatal(err)
	}
	view, err := firstview.Shared(long)
	if err != nil {
		t.Fatal(err)
	}
	want := serverFolds(t, view)
	if len(want) < 3 {
		t.Fatalf("the first view has %d folds, want at least 3", len(want))
	}
	h, err := web.NewHandler(web.Options{Static: os.DirFS(staticDir), Precompress: true, Store: store, FirstView: firstview.Page})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/tapelab.wasm" {
			<-r.Context().Done() // held until the browser goes
			return
		}
		h.ServeHTTP(w, r)
	}))
	tab := newBrowser(t)
	vw := "" // the region's width the first view was last fitted to
	// check waits for the first view to fit itself to size, and checks
	// what it shows; it returns the rows shown.
	check := func(size screen) string {
		t.Helper()
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](`(document.getElementById("tape-preview")?.dataset.vw ?? "") !== "`+vw+`"`,
			chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("%v: the first view did not fit itself again: %v\n%s", size, err, pageError(tab))
		}
		// A resize may come as more than one fit: wait for the one to the
		// region as it is laid out now.
		if _, err := chromedp.Run(tab, chromedp.Poll[bool](fittedJS("tape-preview"), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
			t.Fatalf("%v: the first view did not fit itself to its region: %v\n%s", size, err, pageError(tab))
		}
		vw = eval[string](t, tab, `document.getElementById("tape-preview").dataset.vw`)
		shown, err := chromedp.Run(tab, chromedp.Evaluate[struct {
			Rows      string
			At, Edges []string
		}](`(() => {
			const svg = document.getElementById("tape-preview");
			return {
				rows: svg.dataset.rows ?? "1",
				at: [...svg.querySelectorAll(".world > .nodes > .node")].map((g) => g.getAttribute("transform")),
				edges: [...svg.querySelectorAll(".world > .edges > path")].map((p) => p.getAttribute("d")),
			};
		})()`))
		if err != nil {
			t.Fatal(err)
		}
		rows, got := shown.Rows, drawnFold{at: shown.At, edges: shown.Edges}
		r := int(rows[0] - '0')
		if len(rows) != 1 || r < 1 || r > len(want) {
			t.Fatalf("%v: the first view shows %q rows", size, rows)
		}
		w := want[r-1]
		if strings.Join(got.at, ";") != strings.Join(w.at, ";") || strings.Join(got.edges, ";") != strings.Join(w.edges, ";") {
			t.Errorf("%v: the first view in %d rows shows %d boxes and %d edges unlike the server's fold of %d boxes and %d edges",
				size, r, len(got.at), len(got.edges), len(w.at), len(w.edges))
			for i := range min(len(got.at), len(w.at)) {
				if got.at[i] != w.at[i] {
					t.Logf("box %d at %s, want %s", i, got.at[i], w.at[i])
					break
				}
			}
			for i := range min(len(got.edges), len(w.edges)) {
				if got.edges[i] != w.edges[i] {
					t.Logf("edge %d is %s, want %s", i, got.edges[i], w.edges[i])
					break
				}
			}
		}
		return rows
	}
	resize := func(size screen) string {
		t.Helper()
		if err := chromedp.Do(tab, size.emulate()); err != nil {
			t.Fatal(err)
		}
		return check(size)
	}
	tablet := screens[2]
	if err := chromedp.Do(tab, tablet.emulate()); err != nil {
		t.Fatal(err)
	}
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL+"/s/"+id)); err != nil {
		t.Fatal(err)
	}
	if rows := check(tablet); rows == "1" {
		t.Fatalf("the first view on %v is one row, want it folded", tablet)
	}
	wide := screen{"wide-short", 4000, 420, 1, false, 0}
	if rows := resize(wide); rows != "1" {
		t.Errorf("the first view on %v is %s rows, want one", wide, rows)
	}
	if rows := resize(tablet); rows == "1" {
		t.Errorf("the first view on %v is one row again, want it folded", tablet)
	}
}
