//go:build !js

package e2e

import (
	"context"
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// pgTab is the playground loaded in one browser tab, driven as a person
// would: clicks, typing and keys.
type pgTab struct {
	t    testing.TB
	tab  context.Context
	size string // "1280x720", for screenshot names
}

// openPlayground loads the playground at the given window size and waits
// until Go has drawn the tape.
func openPlayground(t testing.TB, w, h int64) *pgTab {
	t.Helper()
	tab := newBrowser(t)
	srv := startServer(t, playgroundHandler(t))
	if err := chromedp.Do(tab, chromedp.EmulateViewport(w, h), chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]"))); err != nil {
		t.Fatalf("loading the playground: %v\n%s", err, pageError(tab))
	}
	return &pgTab{t: t, tab: tab, size: fmt.Sprintf("%dx%d", w, h)}
}

// js evaluates expr in the page and returns its value as a string.
func (p *pgTab) js(expr string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.tab, chromedp.Evaluate[string](`String(`+expr+`)`))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v\n%s", expr, err, pageError(p.tab))
	}
	return s
}

// num evaluates expr as a number.
func (p *pgTab) num(expr string) float64 {
	p.t.Helper()
	v, err := strconv.ParseFloat(p.js(expr), 64)
	if err != nil {
		p.t.Fatalf("%s is not a number: %v", expr, err)
	}
	return v
}

// waitFor polls cond (a JS expression) for up to 5 s.
func (p *pgTab) waitFor(cond, what string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		p.t.Fatalf("waiting for %s (%s): %v\n%s", what, cond, err, pageError(p.tab))
	}
}

func (p *pgTab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	as := make([]chromedp.Action[chromedp.Void], len(actions))
	copy(as, actions)
	if err := chromedp.Do(p.tab, as...); err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, pageError(p.tab))
	}
}

// redraws counts the playground's redraws so far.
func (p *pgTab) redraws() int {
	return int(p.num(`document.getElementById("playground").dataset.redraws`))
}

// clickAndRedraw clicks the button id and waits for the views to redraw.
func (p *pgTab) clickAndRedraw(id string) {
	p.t.Helper()
	n := p.redraws()
	p.do("clicking #"+id, chromedp.Click(chromedp.ID(id)))
	p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "a redraw after #"+id)
}

// key presses a key on the page and waits for a redraw when wait is set.
func (p *pgTab) key(k string, wait bool) {
	p.t.Helper()
	n := p.redraws()
	p.do("pressing "+k, chromedp.KeyEvent(k))
	if wait {
		p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "a redraw after a key")
	}
}

// values reads the full-precision numbers a tensor view shows.
func (p *pgTab) values(id string) []float64 {
	p.t.Helper()
	s := p.js(fmt.Sprintf(`(e => e ? e.dataset.values : "missing")(document.getElementById(%q))`, id))
	if s == "missing" {
		p.t.Fatalf("#%s is not shown", id)
	}
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			p.t.Fatalf("#%s holds %q", id, s)
		}
		out = append(out, v)
	}
	return out
}

// hasClass reports whether the element id has class c.
func (p *pgTab) hasClass(id, c string) bool {
	return p.js(fmt.Sprintf(`document.getElementById(%q).classList.contains(%q)`, id, c)) == "true"
}

// typeInto replaces a field's text and leaves it with Tab, as a person does.
func (p *pgTab) typeInto(id, s string) {
	p.t.Helper()
	p.do("typing into #"+id, chromedp.Click(chromedp.ID(id)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(s+kb.Tab))
}

func (p *pgTab) shot(name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	saveScreenshot(p.t, "stepping-"+p.size+"-"+name, png)
}

// noPageError fails when the page shows its error box.
func (p *pgTab) noPageError() {
	p.t.Helper()
	if s := p.js(`document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); s != "" {
		p.t.Fatalf("the page shows an error: %s", s)
	}
}

// reference is the same step computed natively by the same engine.
func reference(t *testing.T, doc app.Doc, modes app.Modes) *app.Playground {
	t.Helper()
	tr, _, err := train.Generate(train.DefaultData("reg-plane"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := app.MiniBatch(tr.X, tr.Y, 4, doc.Loss)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := app.New(doc, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := pg.SetModes(modes); err != nil {
		t.Fatal(err)
	}
	return pg
}

// oneShotGrads runs the engine's one-shot backward pass natively.
func oneShotGrads(t *testing.T, pg *app.Playground) *autograd.Grads {
	t.Helper()
	r, err := app.Record(pg.Model().Clone(), pg.Batch(), app.Modes{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var g autograd.Grads
	if err := r.Tape.BackwardDense(r.Loss, tensor.Scalar(1), &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

// sameNumbers compares what the page shows with the native engine's numbers
// (relative 1e-12: the page computes in wasm, whose math library may differ
// from amd64's in the last bit).
func sameNumbers(got []float64, want *tensor.Tensor) error {
	if want == nil {
		return fmt.Errorf("the engine has no tensor here, the page shows %v", got)
	}
	if len(got) != len(want.Data) {
		return fmt.Errorf("the page shows %d numbers, the engine has %d", len(got), len(want.Data))
	}
	for i, w := range want.Data {
		if math.Abs(got[i]-w) > 1e-12*math.Max(1, math.Abs(w)) {
			return fmt.Errorf("element %d: page %v, engine %v", i, got[i], w)
		}
	}
	return nil
}

// TestBuildAndStepEveryNode builds a model with the editor, steps forward
// through every node checking each value, backward through every node
// checking each gradient, and compares the final parameter gradients with
// the engine's one-shot backward pass.
func TestBuildAndStepEveryNode(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.noPageError()

	// Add a linear layer before the output and give it 3 features.
	p.do("choosing linear", chromedp.SetValue(chromedp.ID("add-type"), "linear"))
	p.clickAndRedraw("add-layer")
	p.waitFor(`document.getElementById("layer-3") !== null`, "a fourth layer")
	p.typeInto("field-2-out", "3")
	p.waitFor(`document.querySelector("#layer-2 .layer-shape").textContent.includes("[3]")`, "layer 2 to give [3]")
	if s := p.js(`document.querySelector("#layer-3 .layer-shape").textContent`); !strings.Contains(s, "[1]") {
		t.Errorf("the output layer shows %q, want [1]", s)
	}
	p.shot("1-editor")

	doc := app.DefaultDoc().Insert(2, nn.Linear{Out: 3, Bias: true})
	ref := reference(t, doc, app.Modes{})
	rs := ref.Stepper()
	nodes := rs.Nodes()
	if got := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)); got != len(nodes) {
		t.Fatalf("the tape shows %d nodes, the engine records %d", got, len(nodes))
	}

	c := rs.Counts()
	for i := 0; i < c.ForwardTotal; i++ {
		p.clickAndRedraw("step")
		rs.Step()
		if !p.hasClass("node-"+strconv.Itoa(i), "known") {
			t.Errorf("node %d is not marked known after its forward step", i)
		}
		if got := p.js(`document.getElementById("insp-node").dataset.node`); got != strconv.Itoa(i) {
			t.Fatalf("after forward step %d the inspector shows node %s", i, got)
		}
		if err := sameNumbers(p.values("insp-value"), rs.Value(i)); err != nil {
			t.Errorf("node %d (%s) value: %v", i, nodes[i].Title(), err)
		}
		if i == 7 {
			p.shot("2-forward")
		}
	}
	if s := p.js(`document.getElementById("count-forward").textContent`); s != fmt.Sprintf("forward %d/%d", c.ForwardTotal, c.ForwardTotal) {
		t.Errorf("forward counter says %q", s)
	}

	for k, j := range rs.Order() {
		p.clickAndRedraw("step")
		rs.Step()
		if got := p.js(`document.getElementById("insp-node").dataset.node`); got != strconv.Itoa(j) {
			t.Fatalf("backward step %d: the inspector shows node %s, the engine ran node %d", k, got, j)
		}
		if err := sameNumbers(p.values("insp-grad"), rs.Grad(j)); err != nil {
			t.Errorf("node %d (%s) gradient: %v", j, nodes[j].Title(), err)
		}
		if !p.hasClass("node-"+strconv.Itoa(j), "final") {
			t.Errorf("node %d is not marked final after its VJP step", j)
		}
		if k == 2 {
			p.shot("3-backward")
			if n := int(p.num(`document.querySelectorAll("#insp-contribs li").length`)); n != len(rs.Contribs(j)) {
				t.Errorf("the chain-rule card lists %d contributions, the engine made %d", n, len(rs.Contribs(j)))
			}
		}
	}
	want := fmt.Sprintf("backward %d/%d", c.BackwardTotal, c.BackwardTotal)
	if s := p.js(`document.getElementById("count-backward").textContent`); s != want {
		t.Errorf("backward counter says %q, want %q", s, want)
	}

	// Every parameter's gradient, as the inspector shows it, against the
	// engine's one-shot backward pass.
	g := oneShotGrads(t, ref)
	for i, n := range nodes {
		if n.Kind != autograd.Param {
			continue
		}
		p.do("inspecting "+n.Title(), chromedp.Click(chromedp.ID("node-"+strconv.Itoa(i))))
		p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, i), "the inspector to show "+n.Title())
		if err := sameNumbers(p.values("insp-grad"), g.Of(i)); err != nil {
			t.Errorf("%s: shown gradient vs one-shot backward: %v", n.Title(), err)
		}
	}
	p.shot("4-done")
	p.noPageError()
}

// countClass counts tape nodes with class c.
func (p *pgTab) countClass(c string) int {
	return int(p.num(fmt.Sprintf(`document.querySelectorAll("#tape .node.%s").length`, c)))
}

// TestModesShowWhatIsVisited switches compiled/eager and single/dense and
// checks what each backward pass visits, and the listings' links.
func TestModesShowWhatIsVisited(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	ref := reference(t, app.DefaultDoc(), app.Modes{Compiled: true, Single: true})
	rec := ref.Recording()
	n := rec.Tape.Len()

	p.clickAndRedraw("exec-compiled")
	p.waitFor(`!document.getElementById("listing").hidden`, "the compiled listing")
	if got := int(p.num(`document.querySelectorAll("#ssa li").length`)); got != n {
		t.Errorf("the SSA listing has %d lines for %d values", got, n)
	}
	irLines, err := ref.IRListing()
	if err != nil {
		t.Fatal(err)
	}
	if got := int(p.num(`document.querySelectorAll("#ir li").length`)); got != len(irLines) {
		t.Errorf("the IR listing has %d lines, the export has %d nodes", got, len(irLines))
	}
	// A listing line inspects its node and marks the same node's IR line.
	p.do("clicking SSA line 6", chromedp.Click(chromedp.ID("ssa-6")))
	p.waitFor(`document.getElementById("insp-node").dataset.node === "6"`, "the inspector to show node 6")
	if !p.hasClass("node-6", "selected") {
		t.Error("node 6 is not highlighted in the drawing after clicking its SSA line")
	}
	if got := p.js(`[...document.querySelectorAll("#ir .current")].map(b => b.dataset.node).join()`); got != "6" {
		t.Errorf("the IR lines marked current are for nodes %q, want 6", got)
	}

	p.clickAndRedraw("pass-singleoutput")
	p.clickAndRedraw("to-end")
	metric := "node-" + strconv.Itoa(rec.Metric)
	if !p.hasClass(metric, "skipped") {
		t.Errorf("single-output: the metric node %d is not shown skipped", rec.Metric)
	}
	ps, err := ref.Passes()
	if err != nil {
		t.Fatal(err)
	}
	if got := p.countClass("ran"); got != ps.Single {
		t.Errorf("single-output: %d nodes ran their VJP, the engine reports %d", got, ps.Single)
	}
	for attr, want := range map[string]int{"dense": ps.Dense, "single": ps.Single, "skipped": len(ps.Skipped())} {
		if got := int(p.num(`document.getElementById("passes").dataset.` + attr)); got != want {
			t.Errorf("passes %s = %d, want %d", attr, got, want)
		}
	}
	if !strings.Contains(p.js(`document.getElementById("passes").textContent`), "bit-identical") {
		t.Error("the passes line does not say the gradients are bit-identical")
	}
	p.shot("5-compiled-single")

	p.clickAndRedraw("pass-dense")
	p.clickAndRedraw("to-end")
	if p.hasClass(metric, "skipped") || !p.hasClass(metric, "zero") {
		t.Errorf("dense: the metric node should be drawn as visited with dY = 0, not skipped")
	}
	p.clickAndRedraw("exec-eager")
	p.waitFor(`document.getElementById("listing").hidden`, "the listing to hide in eager mode")

	// Train vs eval: a dropout layer records a dropout node only in train mode.
	p.do("choosing dropout", chromedp.SetValue(chromedp.ID("add-type"), "dropout"))
	p.clickAndRedraw("add-layer")
	drop := `[...document.querySelectorAll("#tape .title-text")].filter(e => e.textContent.endsWith(" dropout")).length`
	if got := int(p.num(drop)); got != 1 {
		t.Errorf("train mode: %d dropout nodes on the tape, want 1", got)
	}
	p.clickAndRedraw("mode-eval")
	evalRef := reference(t, app.DefaultDoc().Insert(2, nn.NewDropout()), app.Modes{Eval: true})
	if got, want := int(p.num(drop)), countOp(evalRef, "dropout"); got != want {
		t.Errorf("eval mode: %d dropout nodes on the tape, the engine records %d", got, want)
	}
	p.noPageError()
}

func countOp(pg *app.Playground, name string) int {
	k := 0
	for _, n := range pg.Stepper().Nodes() {
		if n.Op != nil && n.Op.Name == name {
			k++
		}
	}
	return k
}

// TestBrokenShapeShowsTheEnginesMessage breaks the model on purpose.
func TestBrokenShapeShowsTheEnginesMessage(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	nodes := int(p.num(`document.querySelectorAll("#tape [data-node]").length`))

	// Without the output layer the model gives [4] but the targets are [1].
	p.clickAndRedraw("remove-2")
	p.waitFor(`document.getElementById("layer-error-1") !== null`, "an error on layer 1")
	d, _ := app.DefaultDoc().Remove(2)
	ref, _ := app.New(d, reference(t, app.DefaultDoc(), app.Modes{}).Batch())
	want := ref.Err().Error()
	if got := p.js(`document.getElementById("layer-error-1").textContent`); !strings.Contains(got, want) {
		t.Errorf("layer 1 says %q, want the engine's %q", got, want)
	}
	if p.js(`document.getElementById("tape-notice").hidden`) != "false" {
		t.Error("no notice that the tape is the last working model's")
	}
	if got := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)); got != nodes {
		t.Errorf("the tape changed (%d nodes, was %d) although the model does not build", got, nodes)
	}
	p.clickAndRedraw("step") // the old tape still steps
	p.shot("6-broken-shape")
	p.noPageError()

	p.clickAndRedraw("undo")
	p.waitFor(`document.querySelector(".layer-error") === null`, "the error to go after undo")

	// A setting out of range: the engine names the field.
	p.typeInto("field-0-out", "0")
	p.waitFor(`document.getElementById("layer-error-0") !== null`, "an error on layer 0")
	if got := p.js(`document.getElementById("layer-error-0").textContent`); !strings.Contains(got, "out") {
		t.Errorf("layer 0 says %q, want the field named", got)
	}
	// Not a number at all.
	p.typeInto("field-0-out", "four")
	p.waitFor(`(e => e && e.textContent.includes("not a whole number"))(document.getElementById("layer-error-0"))`, "the parse error")
	p.noPageError()
	p.clickAndRedraw("undo")
	p.waitFor(`document.querySelector(".layer-error") === null`, "the error to go after undo")
}

// TestKeyboardShortcuts presses the keys a presenter uses.
func TestKeyboardShortcuts(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	ref := reference(t, app.DefaultDoc(), app.Modes{})
	c := ref.Stepper().Counts()
	fwd := func() string { return p.js(`document.getElementById("count-forward").textContent`) }
	bwd := func() string { return p.js(`document.getElementById("count-backward").textContent`) }
	total := strconv.Itoa(c.ForwardTotal)

	p.key(kb.ArrowRight, true)
	if fwd() != "forward 1/"+total {
		t.Errorf("→: %q", fwd())
	}
	p.key(kb.ArrowRight, true)
	p.key(kb.ArrowLeft, true)
	if fwd() != "forward 1/"+total {
		t.Errorf("→ → ←: %q", fwd())
	}
	p.key("b", true)
	if fwd() != "forward "+total+"/"+total {
		t.Errorf("b: %q", fwd())
	}
	p.key(kb.ArrowRight, true)
	if bwd() != "backward 1/"+strconv.Itoa(c.BackwardTotal) {
		t.Errorf("b →: %q", bwd())
	}
	p.key("r", true)
	if fwd() != "forward 0/"+total || bwd() != "backward 0/"+strconv.Itoa(c.BackwardTotal) {
		t.Errorf("r: %q %q", fwd(), bwd())
	}
	p.key(" ", false)
	p.waitFor(`document.getElementById("play").getAttribute("aria-pressed") === "true"`, "play to start")
	p.waitFor(`!document.getElementById("count-forward").textContent.startsWith("forward 0/")`, "play to step")
	p.key(" ", false)
	p.waitFor(`document.getElementById("play").getAttribute("aria-pressed") === "false"`, "play to pause")
	p.key("?", false)
	p.waitFor(`!document.getElementById("shortcuts").hidden`, "the shortcuts")
	p.shot("7-shortcuts")
	p.key(kb.Escape, false)
	p.waitFor(`document.getElementById("shortcuts").hidden`, "the shortcuts to close")

	// Every control is reachable with Tab and shows where the focus is.
	p.do("tabbing", chromedp.KeyEvent(kb.Tab+kb.Tab+kb.Tab))
	tag := p.js(`document.activeElement.tagName`)
	outline := p.js(`getComputedStyle(document.activeElement).outlineStyle`)
	if tag == "BODY" || outline == "none" {
		t.Errorf("after Tab the focus is on %s with outline %q", tag, outline)
	}
	if n := p.num(`[...document.querySelectorAll("button")].filter(b => !b.textContent.trim() && !b.getAttribute("aria-label")).length`); n != 0 {
		t.Errorf("%v buttons have no label", n)
	}
	p.noPageError()
}

// TestGradientCheck presses the gradient check button.
func TestGradientCheck(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.do("clicking gradient check", chromedp.Click(chromedp.ID("gradcheck")))
	p.waitFor(`document.getElementById("gradcheck-result").dataset.worst !== undefined`, "the gradient check")
	if !p.hasClass("gradcheck-result", "good") {
		t.Errorf("gradient check: %s", p.js(`document.getElementById("gradcheck-result").textContent`))
	}
	worst := p.num(`document.getElementById("gradcheck-result").dataset.worst`)
	g, err := reference(t, app.DefaultDoc(), app.Modes{}).GradCheck(nil)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(worst-g.Worst) > 1e-6 {
		t.Errorf("the page's worst relative error %g, native %g", worst, g.Worst)
	}
	p.shot("8-gradcheck")
}

// TestStagesAt1024 saves the stages at the small laptop size.
func TestStagesAt1024(t *testing.T) {
	p := openPlayground(t, 1024, 768)
	p.shot("1-start")
	for range 7 {
		p.clickAndRedraw("step")
	}
	p.shot("2-forward")
	p.clickAndRedraw("to-backward")
	p.clickAndRedraw("step")
	p.clickAndRedraw("step")
	p.shot("3-backward")
	p.clickAndRedraw("exec-compiled")
	p.clickAndRedraw("pass-singleoutput")
	p.clickAndRedraw("to-end")
	p.shot("5-compiled-single")
	p.do("L2", chromedp.Click(chromedp.ID("l2")))
	p.waitFor(`document.getElementById("l2").checked`, "L2 on")
	p.clickAndRedraw("to-end")
	p.do("inspect 0.weight", chromedp.Click(chromedp.ID("node-2")))
	p.waitFor(`document.getElementById("insp-received") !== null`, "the received list")
	if !strings.Contains(p.js(`document.getElementById("insp-received").textContent`), "+=") {
		t.Error("a weight used twice shows no +=")
	}
	p.shot("9-fan-in")
	p.clickAndRedraw("remove-2")
	p.shot("6-broken-shape")
	p.noPageError()
}

// TestWideLayerStaysUsable gives a layer 300 features: the tape still steps,
// and the inspector samples the large tensors instead of drawing them all.
func TestWideLayerStaysUsable(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.typeInto("field-0-out", "300")
	p.waitFor(`document.querySelector("#layer-0 .layer-shape").textContent.includes("[300]")`, "layer 0 to give [300]")
	p.clickAndRedraw("to-end")
	p.do("inspecting the wide linear", chromedp.Click(chromedp.ID("node-6")))
	p.waitFor(`document.getElementById("insp-node").dataset.node === "6"`, "the inspector to show node 6")
	if got := p.js(`document.getElementById("insp-value").dataset.shape`); got != "[4 300]" {
		t.Errorf("node 6 value shape %q, want [4 300]", got)
	}
	cells := int(p.num(`document.querySelectorAll("#insp-value rect").length`))
	if cells == 0 || cells > 48*48 {
		t.Errorf("the value grid draws %d cells, want a sample of at most 48x48", cells)
	}
	if !strings.Contains(p.js(`document.getElementById("insp-value").textContent`), "a sample") {
		t.Error("the grid does not say it is a sample")
	}
	p.shot("10-wide-layer")
	p.noPageError()
}
