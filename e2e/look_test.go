//go:build !js

package e2e

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// tapeTextPx is the smallest on-screen size, in CSS pixels, of the tape's
// node titles as the page draws them now (font size times the drawing's
// scale).
const tapeTextPx = `Math.min(...[...document.querySelectorAll("#tape .title-text")].map(e =>
	e.getScreenCTM().a * parseFloat(getComputedStyle(e).fontSize)))`

// sideways is how far the page scrolls horizontally.
const sideways = `document.documentElement.scrollWidth - document.documentElement.clientWidth`

// TestTapeReadableWhenProjected fits the default model's tape at the
// projector size and at the laptop size and checks that a node's title is
// large enough to read from the back of a room, and that the page never
// scrolls sideways.
func TestTapeReadableWhenProjected(t *testing.T) {
	for _, c := range []struct {
		w, h int64
		min  float64
	}{{1280, 720, 13}, {1024, 768, 11}} {
		p := openPlayground(t, c.w, c.h)
		p.do("clicking Fit", chromedp.Click(chromedp.ID("fit")))
		px := p.num(tapeTextPx)
		t.Logf("%d×%d: tape titles %.1f px at fit", c.w, c.h, px)
		if px < c.min {
			t.Errorf("at %d×%d the tape's titles are %.1f px at fit, want ≥ %.0f", c.w, c.h, px, c.min)
		}
		if over := p.num(sideways); over > 0 {
			t.Errorf("at %d×%d the page scrolls sideways by %.0f px", c.w, c.h, over)
		}
	}
}

// TestListingFitsAt1024 switches to compiled mode at the laptop size: every
// line of the SSA listing and the IR is shown whole (wrapped, not cut off).
func TestListingFitsAt1024(t *testing.T) {
	p := openPlayground(t, 1024, 768)
	p.clickAndRedraw("exec-compiled")
	p.waitFor(`!document.getElementById("listing").hidden`, "the compiled listing")
	if n := p.num(`document.querySelectorAll("#listing .code-line").length`); n < 6 {
		t.Fatalf("the listing has %.0f lines, want a line per node", n)
	}
	cut := p.js(`[...document.querySelectorAll("#listing .code-line")]
		.filter(b => b.scrollWidth > b.clientWidth + 1).map(b => b.textContent).join(" | ")`)
	if cut != "" {
		t.Errorf("listing lines cut off at 1024 px: %s", cut)
	}
	if over := p.num(sideways); over > 0 {
		t.Errorf("compiled mode at 1024×768 scrolls sideways by %.0f px", over)
	}
	p.noPageError()
}

// TestInspectorSaysKindOnce clicks an op node and an input: the inspector's
// head says each node's kind or role once (the op's kind is its "op" fact).
func TestInspectorSaysKindOnce(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	for _, c := range []struct{ node, want string }{{"6", ""}, {"8", "prediction"}, {"0", "input"}, {"2", "param"}} {
		p.clickNode("node-" + c.node)
		p.waitFor(`document.getElementById("insp-node").dataset.node === "`+c.node+`"`, "the inspector to show node "+c.node)
		got := p.js(`(document.querySelector("#insp-node .insp-kind") || {textContent: ""}).textContent`)
		if got != c.want {
			t.Errorf("node %s: the inspector's kind line is %q, want %q", c.node, got, c.want)
		}
	}
	p.noPageError()
}
