//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/wasm/link"
	"tapelab/web"
)

// memStore is an in-memory share store for the short-link test.
type memStore struct {
	mu   sync.Mutex
	docs map[string][]byte
}

func (s *memStore) Get(_ context.Context, id string) ([]byte, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	d, ok := s.docs[id]
	if !ok {
		return nil, fmt.Errorf("%s: %w", id, web.ErrNotFound)
	}
	return d, nil
}

func (s *memStore) Put(_ context.Context, id string, doc []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.docs[id] = append([]byte(nil), doc...)
	return nil
}

// shareHandler is the real handler with the share API on a memory store.
func shareHandler(t *testing.T) http.Handler {
	t.Helper()
	h, err := web.NewHandler(web.Options{Static: os.DirFS(staticDir), Precompress: true, Store: &memStore{docs: map[string][]byte{}}})
	if err != nil {
		t.Fatalf("web.NewHandler: %v", err)
	}
	return h
}

// fileStoreHandler is the real handler, as `go run . serve` runs it, with
// its share store in files under a temporary folder; it returns both.
func fileStoreHandler(t *testing.T) (*web.FileStore, http.Handler) {
	t.Helper()
	store, err := web.OpenFileStore(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	h, err := web.NewHandler(web.Options{Static: os.DirFS(staticDir), Precompress: true, Store: store})
	if err != nil {
		t.Fatal(err)
	}
	return store, h
}

// key presses a key as the page's keyboard shortcuts see it.
func key(t *testing.T, tab context.Context, k string, times int) {
	t.Helper()
	for range times {
		eval[bool](t, tab, fmt.Sprintf(`document.dispatchEvent(new KeyboardEvent("keydown", {key: %q, bubbles: true}))`, k))
	}
}

// setValue sets a control's value and fires its change event.
func setValue(t *testing.T, tab context.Context, sel, value string) {
	t.Helper()
	eval[bool](t, tab, fmt.Sprintf(`(() => { const e = document.querySelector(%q); e.value = %q; e.dispatchEvent(new Event("input")); return e.dispatchEvent(new Event("change")); })()`, sel, value))
}

// settledLink waits until the share link has caught up with every change
// of the page's state and returns the page's full link.
func settledLink(t *testing.T, tab context.Context) string {
	t.Helper()
	cond := linkSyncedJS + ` && location.hash.startsWith("#v1.")`
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("the link never caught up with the page (at %s): %v\n%s", eval[string](t, tab, `location.href`), err, pageError(tab))
	}
	return eval[string](t, tab, `location.href`)
}

// pageState is what must be identical after reopening a link.
type pageState struct{ Spec, StateDict, Tape, Hash string }

func readState(t *testing.T, tab context.Context) pageState {
	t.Helper()
	return pageState{
		Spec:      eval[string](t, tab, `tapelabExport("spec")`),
		StateDict: eval[string](t, tab, `tapelabExport("state_dict")`),
		Tape:      eval[string](t, tab, `tapelabExport("tape-text")`),
		Hash:      eval[string](t, tab, `location.hash`),
	}
}

// TestLinkRoundTrip works in one browser (trains a few batches with Adam,
// inspects the step, walks into the backward pass), copies the link and
// opens it in a fresh browser: the model, the weights, the position and
// the tape (every value and gradient, at full precision) are identical.
func TestLinkRoundTrip(t *testing.T) {
	srv := startServer(t, shareHandler(t))
	a := newBrowser(t)
	openPage(t, a, srv.URL)
	click(t, a, "#view-train")
	setValue(t, a, "#train-opt", "adam")
	setValue(t, a, "#train-lr", "0.1")
	for range 7 {
		click(t, a, "#train-step")
	}
	click(t, a, "#train-inspect")
	if v := eval[bool](t, a, `document.getElementById("train-view").hidden`); !v {
		t.Fatal("Inspect this step did not switch to the stepping view")
	}
	key(t, a, "ArrowRight", 13) // the 11 nodes' forward pass and 2 VJPs of the backward pass
	click(t, a, "#copy-link")
	url := settledLink(t, a)
	if got := eval[string](t, a, `document.getElementById("share-url").value`); got != url {
		t.Errorf("the share box shows %s, the address bar %s", got, url)
	}
	want := readState(t, a)
	if !strings.Contains(want.Tape, "position backward") {
		t.Fatalf("tab A is not in the backward pass:\n%s", want.Tape)
	}
	if !strings.Contains(want.Spec, `"params"`) || !strings.Contains(want.Spec, `"name":"adam"`) {
		t.Fatalf("the state lacks the trained weights or the optimizer: %s", want.Spec)
	}
	st, err := link.Decode(want.Hash)
	if err != nil || st.Batch == nil || len(st.Batch.X) != 10 {
		t.Fatalf("the link does not carry the inspected 10-example batch: %v", err)
	}
	t.Logf("link with weights and batch: %d characters", len(url))

	b := newBrowser(t) // a fresh browser: nothing shared but the link
	openPage(t, b, url)
	got := readState(t, b)
	if got.Spec != want.Spec {
		t.Errorf("model differs:\n got %s\nwant %s", got.Spec, want.Spec)
	}
	if got.StateDict != want.StateDict {
		t.Errorf("weights differ")
	}
	if got.Tape != want.Tape {
		t.Errorf("tape differs:\n got %s\nwant %s", got.Tape, want.Tape)
	}
	if got.Hash != want.Hash {
		t.Errorf("the reopened page rewrote the link")
	}
	// The status line says where the opened tape stands, not a step it never took.
	if said, count := text(t, b, "#said"), text(t, b, "#count-backward"); said != "Tape recorded, at "+count+"." {
		t.Errorf("the status line of the opened link says %q (counter %q)", said, count)
	}
	// Stepping on in both gives the same gradients.
	key(t, a, "ArrowRight", 30)
	key(t, b, "ArrowRight", 30)
	if ta, tb := eval[string](t, a, `tapelabExport("tape-text")`), eval[string](t, b, `tapelabExport("tape-text")`); ta != tb {
		t.Errorf("after stepping to the end the tapes differ")
	}
}

// TestShortLink: a link over 2,000 characters (a wide model with its
// weights) offers a short link from the share service; the short link
// reopens the same model and weights in a fresh browser.
func TestShortLink(t *testing.T) {
	srv := startServer(t, shareHandler(t))
	frag := wideLink(t)
	tab := newBrowser(t)
	openPage(t, tab, srv.URL+"/#"+frag)
	long := settledLink(t, tab)
	if len(long) <= 2000 {
		t.Fatalf("the link is %d characters; the test needs one over 2,000", len(long))
	}
	if hidden := eval[bool](t, tab, `document.getElementById("short-link").hidden`); hidden {
		t.Fatalf("a %d-character link does not offer a short link", len(long))
	}
	eval[bool](t, tab, `document.querySelector(".share").open = true`)
	click(t, tab, "#short-link")
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`!!document.getElementById("short-link").dataset.short`, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("no short link: %v (%s)", err, eval[string](t, tab, `document.getElementById("share-notes").textContent`))
	}
	short := eval[string](t, tab, `document.getElementById("short-link").dataset.short`)
	if !strings.Contains(short, "/s/") || len(short) > 200 {
		t.Fatalf("short link %q (%d chars) for a %d-character link", short, len(short), len(long))
	}
	if got := eval[string](t, tab, `document.getElementById("share-short").value`); got != short {
		t.Errorf("the short link's box shows %q, not the short link", got)
	}
	if got := eval[string](t, tab, `document.getElementById("share-url").value`); got != long {
		t.Errorf("the long link's box shows %q, not the long link", got)
	}
	t.Logf("long link %d characters, short link %d", len(long), len(short))
	want := readState(t, tab)
	b := newBrowser(t)
	openPage(t, b, short)
	got := readState(t, b)
	if got.Spec != want.Spec || got.StateDict != want.StateDict || got.Tape != want.Tape {
		t.Errorf("the short link opened a different model, weights or tape")
	}
}

// wideLink is a link to a 2 → 24 → 24 → 1 tanh model with weights that
// are not the seeded ones: over 8,000 characters.
func wideLink(t *testing.T) string {
	t.Helper()
	st := link.Default()
	st.Model.Layers = []nn.Layer{nn.NewLinear(24), nn.Tanh{}, nn.NewLinear(24), nn.Tanh{}, nn.NewLinear(1)}
	built, err := st.Model.Build()
	if err != nil {
		t.Fatal(err)
	}
	st.Model.Params = map[string]*tensor.Tensor{}
	for i, p := range built.Seq.Params() {
		v := built.Params[i].Clone()
		for k := range v.Data {
			v.Data[k] += 1e-3 * float64(k%7) // "trained": not the seeded values
		}
		st.Model.Params[p.Name] = v
	}
	st.Pos = link.Position{Phase: link.PhaseForward, Node: 5}
	frag, err := link.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	return frag
}

// csvRows is a CSV of n labelled 2-D points.
func csvRows(n int) string {
	var b strings.Builder
	b.WriteString("x1,x2,label\n")
	for i := range n {
		x, y := float64(i%15)/3-2.5, float64(i/15)/2-2.5
		c := 0
		if x*y > 0 {
			c = 1
		}
		fmt.Fprintf(&b, "%.5f,%.5f,%d\n", x+0.0137*float64(i%7)+float64(i)*1e-4, y-0.011*float64(i%5), c)
	}
	return b.String()
}

// TestLinkFixtures opens every kept v1 link: no message, and the page's own
// link decodes to the same state (parameters compared by value).
func TestLinkFixtures(t *testing.T) {
	srv := startServer(t, playgroundHandler(t))
	files, err := filepath.Glob(filepath.Join("..", "wasm", "link", "testdata", "*.link"))
	if err != nil || len(files) < 5 {
		t.Fatalf("fixtures: %v, %v", files, err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".link")
		t.Run(name, func(t *testing.T) {
			tab := newBrowser(t) // each its own browser (newBrowser's 90 s limit)
			frag := fixtureLink(t, name)
			want, err := link.Decode(frag)
			if err != nil {
				t.Fatal(err)
			}
			openPage(t, tab, srv.URL+"/?fixture="+name+"#"+frag) // a new document each time
			if msg := eval[string](t, tab, `document.getElementById("link-error").hidden ? "" : document.getElementById("link-error").textContent`); msg != "" {
				t.Fatalf("message: %s", msg)
			}
			settledLink(t, tab)
			got, err := link.Decode(eval[string](t, tab, `location.hash`))
			if err != nil {
				t.Fatalf("the page wrote a link that does not decode: %v", err)
			}
			sameState(t, got, want)
			if want.View == link.ViewTrain {
				if hidden := eval[bool](t, tab, `document.getElementById("train-view").hidden`); hidden {
					t.Error("the training view is not shown")
				}
			}
			if want.Points != nil {
				if ex := eval[string](t, tab, `document.getElementById("train-view").dataset.examples`); ex != fmt.Sprint(len(want.Points.X)) {
					t.Errorf("training on %s examples, want the link's %d points", ex, len(want.Points.X))
				}
			}
		})
	}
}

// sameState compares two states; parameters by the values they give the
// built model (a link may name only some parameters, the page writes all).
func sameState(t *testing.T, got, want *link.State) {
	t.Helper()
	gm, err := got.Model.Build()
	if err != nil {
		t.Fatal(err)
	}
	wm, err := want.Model.Build()
	if err != nil {
		t.Fatal(err)
	}
	for i := range wm.Params {
		if !tensor.Identical(gm.Params[i], wm.Params[i]) {
			t.Errorf("parameter %s differs", wm.Seq.Params()[i].Name)
		}
	}
	g, w := *got, *want
	gmod, wmod := *got.Model, *want.Model
	gmod.Params, wmod.Params = nil, nil
	if !reflect.DeepEqual(gmod, wmod) {
		t.Errorf("model settings differ:\n got %+v\nwant %+v", gmod, wmod)
	}
	g.Model, w.Model = nil, nil
	if !reflect.DeepEqual(g, w) {
		t.Errorf("state differs:\n got %+v\nwant %+v", g, w)
	}
}

// TestBrokenLinks: a bad or cut link shows what is wrong above the default
// model; the page is never blank.
func TestBrokenLinks(t *testing.T) {
	srv := startServer(t, playgroundHandler(t))
	w := fixtureLink(t, "classifier-weights")
	tests := []struct{ name, frag, says string }{
		{"not a link", "#hello", "not a TapeLab link"},
		{"future version", "#v2.abcdef", `"v2"`},
		{"bad characters", "#v1.ab*cd!", "not base64url"},
		{"truncated", "#" + w[:3+(len(w)-3)/8*4], "cut short"},
		{"bad model", "#" + badModelLink(t), "layers[0].out"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := newBrowser(t)
			openPage(t, tab, srv.URL+"/?"+strings.ReplaceAll(tt.name, " ", "-")+tt.frag)
			msg := eval[string](t, tab, `document.getElementById("link-error").hidden ? "" : document.getElementById("link-error").textContent`)
			if !strings.Contains(msg, tt.says) || !strings.Contains(msg, "default model") {
				t.Errorf("message %q does not say %q and that the default model is shown", msg, tt.says)
			}
			if n := eval[int](t, tab, `document.querySelectorAll("#playground .tape-region svg [data-node]").length`); n == 0 {
				t.Error("no tape drawn: the page is blank")
			}
			spec := eval[string](t, tab, `tapelabExport("spec")`)
			if !strings.Contains(spec, `"layers":[{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":1}]`) {
				t.Errorf("not the default model: %s", spec)
			}
		})
	}
}

// badModelLink is a v1 link whose model has a linear layer of 0 features.
func badModelLink(t *testing.T) string {
	t.Helper()
	st := link.Default()
	l, err := link.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := link.Expand(l)
	if err != nil {
		t.Fatal(err)
	}
	return link.Pack([]byte(strings.Replace(string(raw), `"out":4`, `"out":0`, 1)))
}
