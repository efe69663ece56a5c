//go:build !js

package e2e

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// phone is the screen of the class's phone cases (issue 36): 390×844,
// touch.
var phone = screens[0]

// shownJS reports how much of element e a person sees: the share of a
// 6×4 grid of points over its box that are inside the viewport and where
// e (or what it holds) is the element on top; 0 for a hidden element. A
// tape node's box counts as seen where the node's texts lie over it.
const shownJS = `(e => {
  if (!e || !e.checkVisibility()) return 0;
  const owner = e.closest("#tape [data-node]") || e;
  const r = e.getBoundingClientRect();
  if (r.width < 1 || r.height < 1) return 0;
  let hit = 0, n = 0;
  for (let i = 0; i < 6; i++) for (let j = 0; j < 4; j++) {
    const x = r.left + (i + 0.5) * r.width / 6, y = r.top + (j + 0.5) * r.height / 4;
    n++;
    if (x < 0 || y < 0 || x >= innerWidth || y >= innerHeight) continue;
    const h = document.elementFromPoint(x, y);
    if (h && owner.contains(h)) hit++;
  }
  return hit / n;
})`

// shown is shownJS of the element sel selects.
func (p *pgTab) shown(sel string) float64 {
	p.t.Helper()
	return p.num(shownJS + `(document.querySelector(` + jsString(sel) + `))`)
}

// tap taps the element sel, as a finger does.
func (p *pgTab) tap(sel string) {
	p.t.Helper()
	reveal(p.t, p.tab, sel, true)
	p.do("tapping "+sel, chromedp.Tap(chromedp.CSS(sel)))
}

// phoneShot saves the page as the phone shows it.
func (p *pgTab) phoneShot(name string) {
	p.t.Helper()
	// The refit after a panel moved, and the dots' travel.
	waitTapeFitted(p.t, p.tab)
	p.waitFor(`!document.getElementById("tape").hasAttribute("data-travelling")`, "the dots to arrive")
	png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatal(err)
	}
	saveScreenshot(p.t, "phone-"+name, png)
}

// TestPhoneLesson is the class's first case on a phone (issue 36, item
// 1): ☰ → Lessons → "The chain rule on micrograd's example", type −8 and
// Check. At each point the lesson is one column: the caption, the
// question (then its verdict) and the tape share the screen, nothing
// covers them, and the tape is at least half of it; the node the verdict
// reveals is in view on the tape.
func TestPhoneLesson(t *testing.T) {
	p := openScreen(t, phone)
	p.tap("#lessons-menu summary")
	p.waitFor(`!!document.getElementById("lesson-builtin-chain-rule")`, "the built-in lessons")
	p.tap("#lesson-builtin-chain-rule")
	p.waitFor(`document.getElementById("lesson")?.hidden === false && document.getElementById("lesson-count").textContent === "1 / 5"`, "the lesson's first stop")
	look := func(state string, parts ...string) {
		t.Helper()
		p.phoneShot("lesson-" + state)
		if share := p.num(tapeShare); share < 0.5 {
			t.Errorf("%s: the tape shows on %.0f%% of the screen, want ≥ 50%%", state, 100*share)
		} else {
			t.Logf("%s: the tape shows on %.0f%% of the screen", state, 100*share)
		}
		for _, sel := range parts {
			if s := p.shown(sel); s < 0.99 {
				t.Errorf("%s: %s is %.0f%% in view and uncovered, want all of it", state, sel, 100*s)
			}
		}
		// The caption starts in view: its first lines at least.
		if s := p.num(shownJS + `((c => { const r = document.createRange(); r.selectNodeContents(c.firstElementChild); return {checkVisibility: () => true, closest: () => null, getBoundingClientRect: () => r.getClientRects()[0], contains: e => c.contains(e)}; })(document.getElementById("lesson-caption-view")))`); s < 0.99 {
			t.Errorf("%s: the caption's first line is %.0f%% in view and uncovered", state, 100*s)
		}
		expectNoAxe(t, p.tab, "the phone's lesson, "+state)
	}
	look("first-stop", "#lesson-count", "#lesson-next", ".lesson-ask", "#lesson-guess", "#lesson-check")

	p.do("typing −8", chromedp.Tap(chromedp.ID("lesson-guess")), chromedp.KeyEvent("-8"))
	p.tap("#lesson-check")
	p.waitFor(`document.getElementById("lesson-verdict").dataset.right === "true"`, "the verdict")
	look("checked", "#lesson-count", "#lesson-verdict")
	if s := p.shown("#node-6 .box"); s < 0.99 {
		t.Errorf("the node the verdict shows, L, is %.0f%% in view on the tape", 100*s)
	}
}

// labelsPx is the smallest size, in CSS px, of the tape's texts that are
// drawn (titles, shapes, roles, the strips' labels and numbers, the
// badges): each text's on-screen height over its height in the drawing,
// times its font size; with the text found smallest.
const labelsPx = `JSON.stringify((() => {
  let min = Infinity, what = "";
  for (const t of document.querySelectorAll("#tape text")) {
    if (!t.textContent.trim() || !t.checkVisibility({visibilityProperty: true, opacityProperty: true})) continue;
    const b = t.getBBox();
    if (b.height === 0) continue;
    const px = t.getBoundingClientRect().height / b.height * parseFloat(getComputedStyle(t).fontSize);
    if (px < min) { min = px; what = t.getAttribute("class") + " " + t.textContent; }
  }
  return {px: min, what};
})())`

// TestPhoneFirstScreen is the phone's first screen (issue 36, item 5):
// every text on the tape is at least 12 CSS px; the tape is shown whole,
// or it pans along the steps and says where the loss is, a tap away; and
// the key to the badges is short and in plain words.
func TestPhoneFirstScreen(t *testing.T) {
	p := openScreen(t, phone)
	p.phoneShot("first-screen")
	var small struct {
		PX   float64
		What string
	}
	if err := json.Unmarshal([]byte(p.js(labelsPx)), &small); err != nil {
		t.Fatal(err)
	}
	if small.PX < readablePx {
		t.Errorf("the tape's smallest text is %.2f CSS px (%q), want at least 12", small.PX, small.What)
	} else {
		t.Logf("the tape's smallest text is %.2f CSS px (%q)", small.PX, small.What)
	}

	key := p.js(`document.querySelector("#playground .badge-key").textContent`)
	for _, jargon := range []string{"dY", "∞", "dependencies", "partial", "fed", "−0"} {
		if strings.Contains(key, jargon) {
			t.Errorf("the badges' key says %q: jargon (%q)", key, jargon)
		}
	}
	if lines := p.num(`(k => k.getBoundingClientRect().height / parseFloat(getComputedStyle(k).lineHeight))(document.querySelector("#playground .badge-key"))`); lines > 1.5 {
		t.Errorf("the badges' key takes %.1f lines on the phone, want one: %q", lines, key)
	}

	loss := p.js(`document.querySelector("#tape .node:last-of-type")?.dataset.node`)
	lossIn := p.shown("#node-" + loss + " .box")
	whole := p.num(`(() => { const t = document.getElementById("tape").getBoundingClientRect();
	  return [...document.querySelectorAll("#tape .node .box")].every(b => { const r = b.getBoundingClientRect();
	    return r.left >= t.left && r.right <= t.right && r.top >= t.top && r.bottom <= t.bottom; }) ? 1 : 0; })()`)
	t.Logf("the whole tape is in view: %v; the loss, node %s, is %.0f%% in view; the view %s", whole == 1, loss, 100*lossIn, p.js(`document.getElementById("tape").dataset.view`))
	if whole != 1 {
		if v := p.js(`document.getElementById("tape").dataset.view`); v != "pans" {
			t.Errorf("the tape is not shown whole, and its view is %q, not pans", v)
		}
		if lossIn < 0.99 {
			if s := p.shown("#to-loss"); s < 0.99 {
				t.Fatalf("the loss is off the screen and nothing says where it is (#to-loss is %.0f%% in view)", 100*s)
			}
			if got := p.js(`document.getElementById("to-loss").textContent`); !strings.Contains(strings.ToLower(got), "loss") {
				t.Errorf("the pointer to the loss reads %q", got)
			}
			expectNoAxe(t, p.tab, "the phone's first screen")
			p.tap("#to-loss")
			p.waitFor(shownJS+`(document.querySelector("#node-`+loss+` .box")) === 1`, "the loss to come into view")
			p.phoneShot("first-screen-loss")
			if s := p.shown("#to-loss"); s > 0 {
				t.Errorf("with the loss in view its pointer still shows")
			}
		}
	} else {
		expectNoAxe(t, p.tab, "the phone's first screen")
	}

	// The view follows the steps: forward, and backward from the loss.
	p.fit()
	for k := range 4 {
		p.clickAndRedraw("step")
		if p.js(focusInView) != "true" {
			t.Errorf("after forward step %d the node it ran is out of view", k+1)
		}
	}
	p.clickAndRedraw("to-backward")
	if p.js(focusInView) != "true" {
		t.Error("at the start of backward the loss is out of view")
	}
	p.clickAndRedraw("step")
	if p.js(focusInView) != "true" {
		t.Error("after the first backward step the node it ran is out of view")
	}
	p.phoneShot("first-screen-backward")
	expectNoAxe(t, p.tab, "the phone's tape, stepping backward")
}

// TestPhoneInspectorSheet is the phone's inspector (issue 36, item 6):
// mid-backward a tap on a node opens the inspector as a sheet of at most
// 45% of the screen; the tapped node stays in view above it, uncovered;
// the chain-rule card shows in the sheet without scrolling it; and the
// sentence saying what the step did is whole, wrapped and not cut.
func TestPhoneInspectorSheet(t *testing.T) {
	p := openScreen(t, phone)
	p.clickAndRedraw("to-backward")
	for range 3 {
		p.clickAndRedraw("step")
	}
	focus := p.js(`document.querySelector("#tape .node.focus").dataset.node`)
	saidWhole := func(state string) {
		t.Helper()
		said := p.js(`document.getElementById("said").textContent`)
		if cut := p.num(`(s => s.scrollHeight - s.clientHeight)(document.getElementById("said"))`); cut > 1 {
			t.Errorf("%s: the step's sentence %q is cut: %0.f px of it are hidden", state, said, cut)
		}
		if c := p.js(`getComputedStyle(document.getElementById("said")).webkitLineClamp`); c != "none" {
			t.Errorf("%s: the step's sentence is clamped to %s lines", state, c)
		}
		if s := p.shown("#said"); s < 0.99 {
			t.Errorf("%s: the step's sentence %q is %.0f%% in view", state, said, 100*s)
		}
	}
	saidWhole("mid-backward")

	p.panTo("node-" + focus)
	p.tap("#node-" + focus + " .box")
	p.waitFor(`document.getElementById("insp-node")?.dataset.node === "`+focus+`"`, "the inspector to show the tapped node")
	p.waitFor(`document.getElementById("panel-inspector").getAttribute("aria-expanded") === "true"`, "the inspector sheet")
	waitTapeFitted(t, p.tab) // the refit after the sheet opened
	p.phoneShot("inspector")

	sheet := p.num(`document.getElementById("inspector").getBoundingClientRect().height / innerHeight`)
	if sheet > 0.455 {
		t.Errorf("the inspector sheet is %.0f%% of the screen's height, want at most 45%%", 100*sheet)
	}
	if s := p.shown("#node-" + focus + " .box"); s < 0.99 {
		t.Errorf("the tapped node %s is %.0f%% in view and uncovered with the sheet open", focus, 100*s)
	}
	if share := p.num(tapeShare); share < 0.25 {
		t.Errorf("with the sheet open the tape shows on %.0f%% of the screen, want at least a quarter", 100*share)
	} else {
		t.Logf("with the sheet open (%.0f%% of the screen's height) the tape shows on %.0f%% of the screen", 100*sheet, 100*share)
	}
	p.waitFor(`!!document.getElementById("insp-rule")`, "the chain-rule card")
	if st := p.num(`document.getElementById("inspector").scrollTop`); st != 0 {
		t.Fatalf("the sheet is scrolled by %v px", st)
	}
	for _, sel := range []string{"#insp-node", "#insp-rule h3", "#insp-rule .rule"} {
		if s := p.shown(sel); s < 0.99 {
			t.Errorf("%s is %.0f%% in view in the sheet without scrolling it", sel, 100*s)
		}
	}
	saidWhole("inspector open")
	expectNoAxe(t, p.tab, "the phone's inspector sheet")

	// Another node, inspected from the sheet's parents list, comes into
	// view too.
	parent := p.js(`document.querySelector("#inspector button[data-inspect]").dataset.inspect`)
	p.tap(`#inspector button[data-inspect="` + parent + `"]`)
	p.waitFor(`document.getElementById("insp-node")?.dataset.node === "`+parent+`"`, "the inspector to show the parent")
	waitTapeFitted(t, p.tab)
	if s := p.shown("#node-" + parent + " .box"); s < 0.99 {
		t.Errorf("the parent %s, inspected from the sheet, is %.0f%% in view", parent, 100*s)
	}
	p.js(`document.getElementById("inspector").scrollTop = 0`)
	for _, sel := range []string{"#insp-node", "#insp-rule h3", "#insp-rule .rule"} {
		if s := p.shown(sel); s < 0.99 {
			t.Errorf("the parent's %s is %.0f%% in view in the sheet without scrolling it", sel, 100*s)
		}
	}
	p.phoneShot("inspector-parent")
}
