package firstview

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/tapesvg"
)

const index = `<!doctype html><html><head><title>TapeLab</title></head><body>
<main id="app" aria-busy="true">
  <section id="loading" class="loading"><h1>TapeLab</h1><progress id="load-progress"></progress></section>
</main>
</body>
</html>`

// TestDefault draws the default model's first view: every node of its tape,
// in the frame, with the fit's numbers on the drawing.
func TestDefault(t *testing.T) {
	view, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	st, err := open(link.Default())
	if err != nil {
		t.Fatal(err)
	}
	nodes := st.Source().Stepper().Nodes()
	if len(nodes) < 8 {
		t.Fatalf("the default tape has %d nodes", len(nodes))
	}
	for _, n := range nodes {
		if !strings.Contains(view, ">"+n.Title()+"</text>") {
			t.Errorf("the first view does not draw node %q", n.Title())
		}
	}
	if got := strings.Count(view, `data-node="`); got != len(nodes) {
		t.Errorf("%d nodes drawn, want %d", got, len(nodes))
	}
	// The page adopts the drawing only when its own would have this
	// signature.
	s := st.Source().Stepper()
	states := make([]app.State, len(nodes))
	for i := range nodes {
		states[i] = s.State(i)
	}
	lay, err := app.Layout(nodes)
	if err != nil {
		t.Fatal(err)
	}
	if want := `data-sig="` + tapesvg.Signature(nodes, states, lay) + `"`; !strings.Contains(view, want) {
		t.Errorf("the first view's drawing has no %s", want)
	}
	for _, want := range []string{`id="tape-preview"`, `data-min="0.75"`, `data-max="1.6"`, `data-pad="12"`,
		`id="load-progress"`, `id="load-label"`, `forward 0/`, `class="node input next"`} {
		if !strings.Contains(view, want) {
			t.Errorf("the first view has no %s", want)
		}
	}
	if strings.Contains(view, `id="tape"`) || strings.Contains(view, `id="step"`) {
		t.Error("the first view uses the page's ids, which tests and scripts take for the live page's")
	}
}

func TestShared(t *testing.T) {
	model := []byte(`{"version":1,"input":[2],"layers":[{"type":"linear","out":3},{"type":"relu"},{"type":"linear","out":1}],"loss":"mse","seed":5}`)
	view, err := Shared(model)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(view, " relu</text>") {
		t.Error("the shared model's first view has no relu node")
	}
	// A lesson opens at its first stop, which the page draws itself.
	if v, err := Shared([]byte(`{"title":"t","stops":[]}`)); err != nil || v != "" {
		t.Errorf("a lesson's first view = %d bytes, %v; want none", len(v), err)
	}
	program, err := Shared([]byte(`{"version":1,"program":"x = input([2, 2])\ny = tanh(x)\n"}`))
	if err != nil || !strings.Contains(program, " tanh</text>") {
		t.Errorf("a program's first view (%v) has no tanh node:\n%s", err, program)
	}
	if _, err := Shared([]byte(`{"version":1,"layers":[`)); err == nil {
		t.Error("a broken document drew a first view")
	}
}

func TestInsert(t *testing.T) {
	page, err := Insert([]byte(index), "<div>VIEW</div>", []byte(`{"a":"</script><b>"}`))
	if err != nil {
		t.Fatal(err)
	}
	p := string(page)
	for _, want := range []string{`<main id="app" class="wide" aria-busy="true">`, "<div>VIEW</div><script id=\"first-view-end\" src=\"firstview.js\"></script>",
		`<script type="application/json" id="shared-document">{"a":"\u003c/script>\u003cb>"}</script>` + "\n</body>"} {
		if !strings.Contains(p, want) {
			t.Errorf("the page has no %s:\n%s", want, p)
		}
	}
	if strings.Contains(p, "loading") {
		t.Error("the loading section is still in the page")
	}
	kept, err := Insert([]byte(index), "", nil)
	if err != nil || !bytes.Equal(kept, []byte(index)) {
		t.Errorf("no view and no document changed the page: %v\n%s", err, kept)
	}
	if _, err := Insert([]byte("<html><body></body></html>"), "<div></div>", nil); err == nil {
		t.Error("a page without a loading section took a first view")
	}
}

func TestPage(t *testing.T) {
	page, err := Page([]byte(index), nil)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(page, []byte(`id="tape-preview"`)) || bytes.Contains(page, []byte("shared-document")) {
		t.Errorf("the playground's page has no first view, or a shared document")
	}
}

// TestPageExpectsTheFirstViewsEnd checks that the playground's page
// (static/index.html) holds its first paint until the element Insert ends
// the first view with, by that element's id.
func TestPageExpectsTheFirstViewsEnd(t *testing.T) {
	page, err := os.ReadFile(filepath.Join("..", "..", "static", "index.html"))
	if err != nil {
		t.Fatal(err)
	}
	link := `<link rel="expect" href="#` + EndID + `" blocking="render">`
	head, _, ok := strings.Cut(string(page), "</head>")
	if !ok || !strings.Contains(head, link) {
		t.Fatalf("static/index.html's head has no %s", link)
	}
	drawn, err := Insert(page, "<div>VIEW</div>", nil)
	if err != nil {
		t.Fatal(err)
	}
	_, after, _ := strings.Cut(string(drawn), "<div>VIEW</div>")
	if !strings.HasPrefix(after, `<script id="`+EndID+`"`) {
		t.Errorf("the first view is not followed by #%s:\n%s", EndID, after)
	}
}
