//go:build !js

package e2e

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"tapelab/wasm/lesson"
	"tapelab/wasm/link"
)

// overBudget are documents that froze a tab or ended its wasm (issue 35),
// each as the raw JSON of a link's envelope with the message the page
// must show.
func overBudget(t *testing.T) []struct{ name, frag, says string } {
	t.Helper()
	products := "m = broadcast_to(0.5, shape=[1024, 1024])\na0 = m * m\n"
	for i := 1; i <= 300; i++ {
		products += "a" + strconv.Itoa(i) + " = a" + strconv.Itoa(i-1) + " * m\n"
	}
	conv := "x = broadcast_to(1.0, shape=[1, 1, 1024, 1024])\nw = broadcast_to(0.5, shape=[1, 1, 512, 512])\nb = param([0.0])\ny = conv2d(x, w, b)\n"
	const placeholder = "x = param(2.0)\ny = x * x\n"
	quoted := func(s string) string { b, _ := json.Marshal(s); return string(b) }

	prog := link.Default()
	prog.Model, prog.Points, prog.Batch, prog.Program = nil, nil, nil, placeholder
	raw, err := link.JSON(prog)
	if err != nil {
		t.Fatal(err)
	}
	programLink := func(src string) string {
		return "#" + link.Pack([]byte(strings.Replace(string(raw), quoted(placeholder), quoted(src), 1)))
	}
	model, err := link.JSON(link.Default())
	if err != nil {
		t.Fatal(err)
	}
	wide := strings.TrimSuffix(strings.Repeat(`{"type":"linear","out":4096},`, 200), ",")
	modelLink := "#" + link.Pack([]byte(strings.Replace(string(model), `{"type":"linear","out":4},{"type":"tanh"}`, wide+`,{"type":"tanh"}`, 1)))
	if modelLink == "#"+link.Pack(model) {
		t.Fatalf("the default model's layers are not where the test expects them: %s", model)
	}
	doc, err := lesson.Encode(&lesson.Lesson{Title: "Too large", Stops: []lesson.Stop{{State: link.Default()}, {State: prog}}})
	if err != nil {
		t.Fatal(err)
	}
	lessonLink := "#" + lesson.Prefix + link.Deflate([]byte(strings.Replace(string(doc), quoted(placeholder), quoted(conv), 1)))
	return []struct{ name, frag, says string }{
		{"300 products of 1024² values", programLink(products), "6.3e8 elements held in all, the limit is 1.6e7 (40× over)"},
		{"a 1024² conv2d with a 512² kernel", programLink(conv), "conv2d at line 4: 2.1e11 multiply-adds, the limit is 1e9 (207× over)"},
		{"200 linear layers of 4096", modelLink, "layer 1 (linear): 3.4e7 elements held, the limit is 1.6e7 (2.1× over)"},
		{"a lesson stop with the conv2d", lessonLink, "stops[1].state.program: conv2d at line 4: 2.1e11 multiply-adds"},
	}
}

// TestDocumentsOverBudget opens each document over the work budget from a
// link: the page says what is too large and by how much above the default
// model, at once, and stays usable (a step forward works).
func TestDocumentsOverBudget(t *testing.T) {
	srv := startServer(t, playgroundHandler(t))
	for _, d := range overBudget(t) {
		t.Run(d.name, func(t *testing.T) {
			tab := newBrowser(t)
			openPage(t, tab, srv.URL+"/"+d.frag)
			msg := eval[string](t, tab, `document.getElementById("link-error").hidden ? "" : document.getElementById("link-error").textContent`)
			if !strings.Contains(msg, d.says) || !strings.Contains(msg, "default model") {
				t.Errorf("message %q does not say %q and that the default model is shown", msg, d.says)
			}
			spec := eval[string](t, tab, `tapelabExport("spec")`)
			if !strings.Contains(spec, `"layers":[{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":1}]`) {
				t.Errorf("not the default model: %s", spec)
			}
			if n := eval[int](t, tab, `document.querySelectorAll("#playground .tape-region svg [data-node]").length`); n == 0 {
				t.Error("no tape drawn: the page is blank")
			}
			shot(t, tab, "budget-"+strings.ReplaceAll(d.name, " ", "-"))
		})
	}
}
