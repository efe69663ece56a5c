package firstview

import (
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"tapelab/engine/program"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// readEverywhere returns the program document of x = param(1.0),
// a0 = x * 1 and then aN = aN-1 + x: n statements, each after the first
// two reading x, so that x feeds an edge into every column of the tape.
// Its first view was quadratic in n: 1,000 statements drew 283 MB.
func readEverywhere(tb testing.TB, n int) []byte {
	tb.Helper()
	var b strings.Builder
	b.WriteString("x = param(1.0)\na0 = x * 1\n")
	for i := 1; i <= n-2; i++ {
		b.WriteString("a" + strconv.Itoa(i) + " = a" + strconv.Itoa(i-1) + " + x\n")
	}
	doc, err := program.EncodeDocument(b.String())
	if err != nil {
		tb.Fatal(err)
	}
	return doc
}

// sharedState returns the link state the page opens doc as.
func sharedState(tb testing.TB, doc []byte) *link.State {
	tb.Helper()
	ls, err := sharedLink(doc)
	if err != nil {
		tb.Fatal(err)
	}
	return ls
}

// playgroundIndex returns the playground's page, static/index.html.
func playgroundIndex(tb testing.TB) []byte {
	tb.Helper()
	index, err := os.ReadFile(filepath.Join("..", "..", "static", "index.html"))
	if err != nil {
		tb.Fatal(err)
	}
	return index
}

// TestLargeProgramsStayLinear draws the pages of the program that reads x
// in every statement, with 1,000 statements and with 3,763 (about the
// most that a program's 64 KiB hold): the first is drawn, in at most 2 MB,
// and the second is too large for MaxBytes and served with the page's
// loading screen and its document. Each page allocates a bounded amount
// per statement (1,000 statements allocated 3.8 GB when the view was
// quadratic).
func TestLargeProgramsStayLinear(t *testing.T) {
	index := playgroundIndex(t)
	const perStatement = 100 << 10 // bytes allocated
	for _, tc := range []struct {
		statements int
		drawn      bool
	}{
		{1000, true},
		{3763, false},
	} {
		doc := readEverywhere(t, tc.statements)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		page, err := Page(index, doc)
		runtime.ReadMemStats(&after)
		if err != nil {
			t.Fatal(err)
		}
		p := string(page)
		if most := len(index) + len(doc) + MaxBytes + 1024; len(page) > most {
			t.Errorf("%d statements: the page is %d bytes, more than %d", tc.statements, len(page), most)
		}
		if drawn := strings.Contains(p, `id="tape-preview"`); drawn != tc.drawn {
			t.Errorf("%d statements: drawn %v, want %v", tc.statements, drawn, tc.drawn)
		}
		if tc.drawn && len(page) > 2<<20 {
			t.Errorf("%d statements: the drawn page is %d bytes, more than 2 MiB", tc.statements, len(page))
		}
		if !tc.drawn && (!strings.Contains(p, `<section id="loading"`) || !strings.Contains(p, `id="shared-document"`)) {
			t.Errorf("%d statements: the undrawn page has no loading screen or no document", tc.statements)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > uint64(tc.statements)*perStatement {
			t.Errorf("%d statements: the page allocated %d MB, more than %d KiB a statement", tc.statements, alloc>>20, perStatement>>10)
		}
	}
}

var (
	foldRE = regexp.MustCompile(`<g class="fold" display="none" data-rows="(\d+)" data-w="[^"]*" data-h="[^"]*"( data-at="([^"]*)")?>(.*?)</g>`)
	pathRE = regexp.MustCompile(`<path class="edge" d="([^"]*)"`)
)

// TestFolds checks the folds written with a first view. For a tape of 40
// nodes: the fold of one row carries its size alone (the drawing is
// that fold), and every other fold the places of all boxes and the paths
// of all edges as layout.Wrap folds them. For a tape of 1,000: every fold
// but the first carries the places of all boxes, and the folds' edges take
// at most foldEdgeBytes.
func TestFolds(t *testing.T) {
	for _, n := range []int{40, 1000} {
		st, err := open(sharedState(t, readEverywhere(t, n)))
		if err != nil {
			t.Fatal(err)
		}
		view, err := View(st)
		if err != nil {
			t.Fatal(err)
		}
		nodes := st.Source().Stepper().Nodes()
		lay, err := app.Layout(nodes)
		if err != nil {
			t.Fatal(err)
		}
		folds := foldRE.FindAllStringSubmatch(view, -1)
		if want := len(lay.RowSizes()); len(folds) != want || want < 3 {
			t.Fatalf("%d nodes: %d folds, want %d (at least 3)", len(nodes), len(folds), want)
		}
		edgeBytes := 0
		for r, f := range folds {
			if f[1] != strconv.Itoa(r+1) {
				t.Fatalf("%d nodes: fold %d has data-rows %s", len(nodes), r, f[1])
			}
			if r == 0 {
				if f[2] != "" || f[4] != "" {
					t.Errorf("%d nodes: the fold of one row repeats the drawing", len(nodes))
				}
				continue
			}
			w := lay.Wrap(r + 1)
			if at := strings.Fields(f[3]); len(at) != 2*len(nodes) {
				t.Errorf("%d nodes, %d rows: %d places for %d boxes", len(nodes), r+1, len(at)/2, len(nodes))
			}
			edgeBytes += len(f[4])
			paths := pathRE.FindAllStringSubmatch(f[4], -1)
			if n > 100 {
				continue
			}
			if len(paths) != len(w.Edges) {
				t.Fatalf("%d nodes, %d rows: %d edges, want %d", len(nodes), r+1, len(paths), len(w.Edges))
			}
			for k, e := range w.Edges {
				if paths[k][1] != e.Path() {
					t.Fatalf("%d nodes, %d rows: edge %d is %s, want %s", len(nodes), r+1, k, paths[k][1], e.Path())
				}
			}
		}
		if edgeBytes > foldEdgeBytes {
			t.Errorf("%d nodes: the folds' edges take %d bytes, more than %d", len(nodes), edgeBytes, foldEdgeBytes)
		}
	}
}

// TestTooManyNodesAreNotLaidOut checks that minNodeBytes is less than a
// node's markup takes, so that View may refuse a tape by its nodes alone.
func TestTooManyNodesAreNotLaidOut(t *testing.T) {
	st, err := open(sharedState(t, readEverywhere(t, 3)))
	if err != nil {
		t.Fatal(err)
	}
	view, err := View(st)
	if err != nil {
		t.Fatal(err)
	}
	nodes := regexp.MustCompile(`<g class="node[^"]*" data-node="\d+".*?</g>`).FindAllString(view, -1)
	if len(nodes) != 4 { // x, the constant, a0 and a1
		t.Fatalf("%d nodes drawn, want 4", len(nodes))
	}
	for _, n := range nodes {
		if len(n) < minNodeBytes {
			t.Errorf("a node's markup is %d bytes, less than minNodeBytes (%d): %s", len(n), minNodeBytes, n)
		}
	}
}

// BenchmarkReadEverywhere1000 is the first view of the 1,000 statements of
// readEverywhere: the page as Page serves it, its size reported.
func BenchmarkReadEverywhere1000(b *testing.B) {
	index, doc := playgroundIndex(b), readEverywhere(b, 1000)
	size := 0
	for b.Loop() {
		page, err := Page(index, doc)
		if err != nil {
			b.Fatal(err)
		}
		size = len(page)
	}
	b.ReportMetric(float64(size), "page-bytes")
}
