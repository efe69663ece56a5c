//go:build !js

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// zeroTimesInf is an IR document whose exp overflows beside its result:
// the single-output pass from sum(p) visits the exp too (its VJP on a zero
// cotangent is 0·∞ = NaN, which the dense pass adds into p's gradient).
const zeroTimesInf = `{"format": "tapelab.ir.v1",
 "nodes": [
  {"id": 0, "parents": [], "kind": "param", "out_shape": [2]},
  {"id": 1, "parents": [0], "kind": "exp", "out_shape": [2]},
  {"id": 2, "parents": [0], "kind": "sum", "out_shape": []}],
 "payload": {"0": {"value": {"name": "p", "shape": [2], "data": [1000, 1]}}}}`

// stages reads the IR pipeline's stage lines as "name:class".
func (p *pgTab) stages() string {
	return p.js(`[...document.querySelectorAll("#ir-stages li")].map(l => l.dataset.stage + ":" + l.className).join()`)
}

// pasteIR opens the "Open an IR document" form, pastes doc into it and
// runs it.
func (p *pgTab) pasteIR(doc string) {
	p.t.Helper()
	if p.js(`document.getElementById("ir-open").open`) != "true" {
		p.do("opening the IR form", chromedp.Click(chromedp.CSS("#ir-open summary")))
	}
	p.do("pasting an IR document", chromedp.SetValue(chromedp.ID("ir-open-text"), doc))
	p.do("running the IR", chromedp.Click(chromedp.ID("ir-open-run")))
}

// TestIRPipelineInThePage: in compiled mode the listing shows the model's
// IR path stage by stage, each ✓; a pasted IR document with a wrong
// declared shape shows that check shapes refused it (and the tape stays);
// the model is still stepped.
func TestIRPipelineInThePage(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.clickAndRedraw("exec-compiled")
	p.waitFor(`document.querySelectorAll("#ir-stages li").length === 6`, "the IR pipeline's stages")
	want := "export:ok,check:ok,check shapes:ok,lower:ok,feed:ok,compile:ok"
	if got := p.stages(); got != want {
		t.Errorf("the model's IR path shows %s, want %s", got, want)
	}
	if s := p.js(`document.getElementById("ir-stages").textContent`); !strings.Contains(s, "check shapes ✓") {
		t.Errorf("the stages read %q", s)
	}
	nodes := p.countClass("op") + p.countClass("param") + p.countClass("input")
	p.shot("ir-01-model-pipeline")

	broken := strings.Replace(zeroTimesInf, `"kind": "sum", "out_shape": []`, `"kind": "sum", "out_shape": [2]`, 1)
	p.pasteIR(broken)
	p.waitFor(`document.querySelector("#ir-stages li.bad") !== null`, "a refused stage")
	want = "decode:ok,check:ok,check shapes:bad,lower:not-run,feed:not-run,compile:not-run"
	if got := p.stages(); got != want {
		t.Errorf("the broken document shows %s, want %s", got, want)
	}
	if s := p.js(`document.querySelector("#ir-stages li.bad").textContent`); !strings.HasPrefix(s, "check shapes ✗") || !strings.Contains(s, "node 2") {
		t.Errorf("the refusing stage says %q, want check shapes naming node 2", s)
	}
	if got := p.countClass("op") + p.countClass("param") + p.countClass("input"); got != nodes {
		t.Errorf("the tape changed (%d nodes, was %d) although the document was refused", got, nodes)
	}
	p.noPageError()
	p.shot("ir-02-refused")

	p.pasteIR(`{"format": "tapelab.ir.v1", "nodes": [{"id": 0, "parents": [1], "kind": "exp", "out_shape": [2]}]}`)
	p.waitFor(`document.querySelector("#ir-stages li.bad")?.dataset.stage === "check"`, "check to refuse a parent after its child")
}

// TestSingleOutputShowsVisitsBeyondTheDependencies: a pasted IR document
// whose exp overflows beside its result is stepped in single-output mode;
// the pass visits the exp beyond the result's dependencies and the page
// says why (0·∞) on the node, in the inspector, in the step narration and
// in the passes line; the counters, the marks and the engine's count
// agree; back to the model afterwards.
func TestSingleOutputShowsVisitsBeyondTheDependencies(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.clickAndRedraw("exec-compiled")
	p.clickAndRedraw("pass-singleoutput")
	n := p.redraws()
	p.pasteIR(zeroTimesInf)
	p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "the document's tape")
	if got := p.stages(); got != "decode:ok,check:ok,check shapes:ok,lower:ok,feed:ok,compile:ok" {
		t.Fatalf("the document's pipeline: %s", got)
	}
	if got := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)); got != 3 {
		t.Fatalf("the tape shows %d nodes, want the document's 3", got)
	}
	p.clickAndRedraw("to-backward")
	// step backward one VJP at a time: the sum, then the exp beyond it
	p.clickAndRedraw("step")
	if s := p.js(`document.getElementById("said").textContent`); strings.Contains(s, "beyond") {
		t.Errorf("the sum's step is narrated as a visit beyond the dependencies: %q", s)
	}
	p.clickAndRedraw("step")
	if s := p.js(`document.getElementById("said").textContent`); !strings.Contains(s, "exp") || !strings.Contains(s, "visited beyond the loss's dependencies: 0·∞: not zero-safe") {
		t.Errorf("the exp's step is narrated %q", s)
	}
	if got := p.js(`document.getElementById("count-backward").textContent`); got != "backward 2/2" {
		t.Errorf("the backward counter reads %q, want 2/2", got)
	}
	passes := p.passes()
	single, _ := strconv.Atoi(passes["single"])
	if ran := p.countClass("ran"); ran != single || single != 2 {
		t.Errorf("%d nodes marked ran, the engine's BackwardFrom visited %d; want 2", ran, single)
	}
	if !p.hasClass("node-1", "extra") || !p.hasClass("node-1", "ran") || p.countClass("extra") != 1 {
		t.Errorf("the exp is drawn %q (%d extra)", p.js(`document.getElementById("node-1").className.baseVal`), p.countClass("extra"))
	}
	if b := p.js(`document.querySelector("#node-1 .badge").textContent`); b != "0·∞" {
		t.Errorf("the exp's badge reads %q", b)
	}
	if s := passes["text"]; !strings.Contains(s, "single-output: 2 VJPs") ||
		!strings.Contains(s, "visits beyond the loss's dependencies: ") || !strings.Contains(s, "(0·∞: not zero-safe)") {
		t.Errorf("the passes line does not name the visit beyond: %q", s)
	}
	if passes["beyond"] != "1" {
		t.Error("the passes line does not count one visit beyond the dependencies")
	}
	p.clickNode("node-1")
	p.waitFor(`document.getElementById("insp-node").dataset.node === "1"`, "the inspector to show the exp")
	if s := p.js(`document.getElementById("insp-grad-status").textContent`); s != "visited beyond the loss's dependencies: 0·∞: not zero-safe" {
		t.Errorf("the inspector says %q about the exp", s)
	}
	p.clickNode("node-0")
	p.waitFor(`document.getElementById("insp-node").dataset.node === "0"`, "the inspector to show p")
	if s := p.js(`document.getElementById("insp-grad").dataset.values`); !strings.HasPrefix(s, "NaN,") {
		t.Errorf("p's gradient is %q, want NaN first (0·∞ added in)", s)
	}
	p.noPageError()
	p.shot("ir-03-zero-times-inf")

	p.clickAndRedraw("ir-open-back")
	if got := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)); got <= 3 {
		t.Errorf("back to the model: the tape shows %d nodes", got)
	}
	if got := p.stages(); !strings.HasPrefix(got, "export:ok") {
		t.Errorf("back to the model: the pipeline shows %s", got)
	}
}
