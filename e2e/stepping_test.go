//go:build !js

package e2e

import (
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapelab/engine/nn"
	"tapelab/wasm/app"
)

// TestBuildAndStepEveryNode builds a model with the editor, steps forward
// through every node checking each value, backward through every node
// checking each gradient, and compares the final parameter gradients with
// the engine's one-shot backward pass.
func TestBuildAndStepEveryNode(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.noPageError()

	// Add a linear layer before the output and give it 3 features.
	p.addLayer("linear", 4)
	p.typeInto("field-2-out", "3")
	p.waitFor(`document.querySelector("#layer-2 .layer-shape").textContent.includes("[3]")`, "layer 2 to give [3]")
	if s := p.js(`document.querySelector("#layer-3 .layer-shape").textContent`); !strings.Contains(s, "[1]") {
		t.Errorf("the output layer shows %q, want [1]", s)
	}
	p.shot("1-editor")

	doc := app.DefaultDoc().Insert(2, nn.Linear{Out: 3, Bias: true})
	ref := reference(t, doc, app.Modes{})
	rs := ref.Stepper()
	p.stepEveryNode(rs, func(forward bool, k, node int) {
		id := "node-" + strconv.Itoa(node)
		switch {
		case forward && !p.hasClass(id, "known"):
			t.Errorf("node %d is not marked known after its forward step", node)
		case !forward && !p.hasClass(id, "final"):
			t.Errorf("node %d is not marked final after its VJP step", node)
		}
		if forward && k == 7 {
			p.shot("2-forward")
		}
		if !forward && k == 2 {
			p.shot("3-backward")
			if n := int(p.num(`document.querySelectorAll("#insp-contribs li").length`)); n != len(rs.Contribs(node)) {
				t.Errorf("the chain-rule card lists %d contributions, the engine made %d", n, len(rs.Contribs(node)))
			}
		}
	})
	p.paramGrads(ref)
	p.shot("4-done")
	p.noPageError()
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
	passes := p.passes()
	for attr, want := range map[string]int{"dense": ps.Dense, "single": ps.Single, "skipped": len(ps.Skipped())} {
		if got := passes[attr]; got != strconv.Itoa(want) {
			t.Errorf("passes %s = %s, want %d", attr, got, want)
		}
	}
	if !strings.Contains(passes["text"], "bit-identical") {
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
	p.click("gradcheck")
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
	p.click("l2")
	p.waitFor(`document.getElementById("l2").checked`, "L2 on")
	p.clickAndRedraw("to-end")
	p.clickNode("node-2")
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
	p.clickNode("node-6")
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

// TestTapeListFollowsTheDrawing opens the text list of the tape: it lists
// every node, marks the current step and the chosen node, and its buttons
// inspect nodes as the drawing does.
func TestTapeListFollowsTheDrawing(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.do("opening the tape list", chromedp.Click(chromedp.CSS("#tape-list summary")))
	n := int(p.num(`document.querySelectorAll("#tape [data-node]").length`))
	if got := int(p.num(`document.querySelectorAll("#tape-list tbody tr").length`)); got != n {
		t.Errorf("the list has %d rows for %d nodes", got, n)
	}
	p.clickAndRedraw("step")
	p.clickAndRedraw("step")
	if got := p.js(`document.querySelector("#tape-list tr[aria-current]").id`); got != "row-1" {
		t.Errorf("the current row is %q after two steps, want row-1", got)
	}
	if s := p.js(`document.getElementById("row-1").textContent`); !strings.Contains(s, "value") {
		t.Errorf("row 1 says %q, want its value known", s)
	}
	p.do("inspecting from the list", chromedp.Click(chromedp.CSS("#row-6 button")))
	p.waitFor(`document.getElementById("insp-node").dataset.node === "6"`, "the inspector to show node 6")
	if !p.hasClass("row-6", "selected") || !p.hasClass("node-6", "selected") {
		t.Error("node 6 is not marked chosen in both the list and the drawing")
	}
	p.noPageError()
}
