//go:build !js

package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/wasm/app"
)

// offTapeJS lists the tape's nodes whose box is not wholly in view: out of
// the drawing's region, or the region itself under the stepper's bar.
const offTapeJS = `(() => {
	const tape = document.getElementById("tape").getBoundingClientRect();
	const bar = document.querySelector("#playground > .bottom").getBoundingClientRect();
	const bottom = Math.min(tape.bottom, bar.top);
	const out = [];
	for (const g of document.querySelectorAll("#tape [data-node]")) {
		const r = g.querySelector(".box").getBoundingClientRect();
		if (r.left < tape.left - 1 || r.right > tape.right + 1 || r.top < tape.top - 1 || r.bottom > bottom + 1) {
			out.push(g.id + " at " + [r.left, r.top, r.right, r.bottom].map(Math.round).join(","));
		}
	}
	return out.join("; ");
})()`

// wholeTape fails unless every node of the tape is in view, its titles
// at a readable size.
func (p *pgTab) wholeTape(when string) {
	p.t.Helper()
	if off := p.js(offTapeJS); off != "" {
		p.t.Errorf("%s %s: nodes out of view: %s (tape %s, stepper's bar at %s)", p.size, when, off,
			p.js(`JSON.stringify(document.getElementById("tape").getBoundingClientRect())`), p.js(`document.querySelector("#playground > .bottom").getBoundingClientRect().top`))
	}
	if px := p.num(titlePx); px < app.ReadableTitlePx-0.01 {
		p.t.Errorf("%s %s: titles drawn at %.1f px, want at least %v", p.size, when, px, app.ReadableTitlePx)
	}
}

// TestPresenterLinkFitsSmallerScreens is the class's case: at 1920×1080,
// ☰ → Presenter, three steps, copy the link; open it at 960×540 and at
// 1280×720 and step twice. Every node of the tape stays in view (none
// under the stepper's bar, the top row not cut), titles readable, and the
// inspector's numbers fit its column.
func TestPresenterLinkFitsSmallerScreens(t *testing.T) {
	tab := newBrowserFor(t, 3*time.Minute)
	srv := startServer(t, playgroundHandler(t))
	p := &pgTab{t: t, tab: tab, size: "1920x1080"}
	p.do("loading the playground", chromedp.EmulateViewport(1920, 1080), chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]")))
	p.click("presenter-toggle")
	p.waitFor(`document.documentElement.classList.contains("presenter")`, "presenter mode")
	for range 3 {
		p.clickAndRedraw("step")
	}
	p.wholeTape("presenting")
	url := settledLink(t, tab)

	for _, size := range [][2]int64{{960, 540}, {1280, 720}} {
		q := &pgTab{t: t, tab: tab, size: fmt.Sprintf("%dx%d", size[0], size[1])}
		q.do("opening the presenter's link", chromedp.EmulateViewport(size[0], size[1]), chromedp.Navigate("about:blank"),
			chromedp.Navigate(url), chromedp.WaitVisible(chromedp.CSS("#tape [data-node]")))
		q.waitFor(`document.documentElement.dataset.linkOpened === "true" && document.documentElement.classList.contains("presenter")`, "the presenter's link")
		q.waitFor(`document.getElementById("count-forward").textContent.startsWith("forward 3/")`, "the link's position")
		waitTapeFitted(t, tab) // the fit follows the layout by a frame
		q.wholeTape("opened")
		for k := range 2 {
			q.clickAndRedraw("step")
			waitTapeFitted(t, tab)
			q.wholeTape(fmt.Sprintf("after step %d", k+1))
			q.inspectorFits(fmt.Sprintf("after step %d", k+1))
		}
		q.shot("presenter-link")
		expectNoAxe(t, tab, "a presenter's link at "+q.size)
	}
}

// inspectorFitsJS lists the inspector's tensors that do not fit its
// column: cut at its edge, or needing a scroll.
const inspectorFitsJS = `(() => {
	const insp = document.getElementById("inspector");
	if (insp.getClientRects().length === 0) return "";
	const right = insp.getBoundingClientRect().left + insp.clientWidth;
	const out = [];
	for (const e of insp.querySelectorAll(".tensor")) {
		const r = e.getBoundingClientRect(), t = e.firstElementChild.getBoundingClientRect();
		if (r.right > right + 1 || t.right > r.right + 1 || e.scrollWidth > e.clientWidth + 1) {
			out.push(e.id + ": " + Math.round(t.right) + " past " + Math.round(Math.min(right, r.right)));
		}
	}
	return out.join("; ");
})()`

// inspectorFits fails when a tensor of the inspector does not fit it.
func (p *pgTab) inspectorFits(when string) {
	p.t.Helper()
	if s := p.js(inspectorFitsJS); s != "" {
		p.t.Errorf("%s %s: the inspector's numbers do not fit it: %s", p.size, when, s)
	}
}

// barControlsJS lists the top bar's and the stepper's visible controls
// less than 40 px tall.
const barControlsJS = `[...document.querySelectorAll("#playground :is(.top-bar, .stepper) :is(button, summary, select)")]
	.filter(e => e.getClientRects().length > 0 && e.getBoundingClientRect().height < 40)
	.map(e => (e.id || e.textContent.trim().slice(0, 12)) + " " + e.getBoundingClientRect().height.toFixed(1) + " px").join("; ")`

// TestBarControlsOnAProjector: at 1920×1080, presenting or not, the top
// bar's buttons and menus are at least 40 px tall (they were 29 px), and
// so are the stepper's.
func TestBarControlsOnAProjector(t *testing.T) {
	p := openPlayground(t, 1920, 1080)
	if s := p.js(barControlsJS); s != "" {
		t.Errorf("the top bar's controls under 40 px: %s", s)
	}
	p.shot("bar")
	expectNoAxe(t, p.tab, "the page at 1920×1080")
	p.click("presenter-toggle")
	p.waitFor(`document.documentElement.classList.contains("presenter")`, "presenter mode")
	if p.js(`document.getElementById("menu-toggle").getAttribute("aria-expanded")`) == "true" {
		p.click("menu-toggle")
	}
	if s := p.js(barControlsJS); s != "" {
		t.Errorf("presenting, the top bar's controls under 40 px: %s", s)
	}
	p.shot("bar-presenter")
	expectNoAxe(t, p.tab, "presenting at 1920×1080")
}

// inputImagePx is how wide the tape draws the input's value image, in CSS
// pixels.
const inputImagePx = `document.querySelector("#node-0 .strip.val .plane-frame").getBoundingClientRect().width`

// TestCNNTapeAtFit is the class's case at 1280×720: Train → Data: digits
// (the default CNN) → Step, one step. The 8×8 input is drawn at a size a
// room can read (it was 36 px), and Fit shows the whole tape, the loss
// included (it was cut off at the right), titles still readable.
func TestCNNTapeAtFit(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.click("view-train")
	setValue(t, p.tab, "#train-dataset", "digits")
	p.waitFor(`document.querySelector(".input-layer .layer-shape").textContent === "[1 8 8]"`, "the input to become [1 8 8]")
	p.click("view-step")
	p.waitFor(`!document.getElementById("playground").classList.contains("view-train")`, "the stepping view")
	p.clickAndRedraw("step")
	p.waitFor(`document.querySelector("#node-0 .strip.val .plane-frame") !== null`, "the input's image")
	if px := p.num(inputImagePx); px < 64 {
		t.Errorf("the 8×8 input is drawn %.0f px wide, want at least 64 (8 px a pixel)", px)
	}
	p.shot("cnn-stepped")
	p.click("fit")
	waitTapeFitted(t, p.tab) // the fit follows the layout by a frame
	p.wholeTape("at Fit")
	if px := p.num(inputImagePx); px < 64 {
		t.Errorf("at Fit the 8×8 input is drawn %.0f px wide, want at least 64", px)
	}
	p.shot("cnn-fit")
	expectNoAxe(t, p.tab, "the CNN's tape at Fit")
	p.clickAndRedraw("to-backward")
	waitTapeFitted(t, p.tab)
	p.wholeTape("with every feature map computed")
	p.shot("cnn-fit-forward")
	// The editor folded away to make the room: its toggle opens it again.
	p.click("panel-editor")
	p.waitFor(`document.getElementById("panel-editor").getAttribute("aria-expanded") === "true"`, "the editor to open")
	p.waitFor(`document.getElementById("editor").getClientRects().length > 0`, "the editor's column")
}

// TestStepDataSwitchesToAFittingModel is TestDigitsSwitchesToAFittingModel
// from the stepping view's menu, at 1280×720: on the default MLP, ☰ →
// data: digits. The model becomes the default CNN at once, said above the
// tape with an Undo (no layer marked with an error, no tape of the model
// before); Undo brings back the data and the model there were.
func TestStepDataSwitchesToAFittingModel(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	before := p.js(`document.getElementById("dataset").value`)
	reveal(t, p.tab, "#dataset", false)
	setValue(t, p.tab, "#dataset", "digits")
	p.waitFor(`document.querySelector(".input-layer .layer-shape").textContent === "[1 8 8]"`, "the input to become [1 8 8]")
	p.waitFor(`document.querySelector("#node-0 .shape-text")?.textContent.includes("[4 1 8 8]")`, "the tape of a digits batch")
	if v := p.js(`document.getElementById("playground").classList.contains("view-train")`); v != "false" {
		t.Fatal("choosing data in the stepping view left it")
	}
	errs := p.js(`document.querySelectorAll("#layers .layer-error").length`)
	notice := p.js(`document.getElementById("tape-notice").hidden ? "" : document.getElementById("tape-notice").textContent`)
	if errs != "0" || notice != "" {
		t.Fatalf("after choosing digits: %s layer errors, the tape says %q", errs, notice)
	}
	if l := p.js(`document.getElementById("layer-0").textContent`); !strings.Contains(l, "conv2d") {
		t.Errorf("the model is not the default CNN: layer 0 is %q", l)
	}
	said := p.js(`(e => e !== null && !e.hidden && e.offsetParent !== null ? e.textContent : "")(document.getElementById("step-switched"))`)
	if !strings.Contains(said, "does not fit digits") {
		t.Fatalf("no notice above the tape says the model was switched (%q)", said)
	}
	p.shot("step-digits-switched")
	expectNoAxe(t, p.tab, "digits chosen in the stepping view")

	p.click("step-switched-undo")
	p.waitFor(`document.querySelector(".input-layer .layer-shape").textContent === "[2]"`, "the input to be [2] again")
	p.waitFor(`document.getElementById("dataset").value === "`+before+`"`, "the dataset before")
	if s := p.js(`document.getElementById("step-switched").hidden`); s != "true" {
		t.Error("the notice stays after Undo")
	}
	if errs := p.js(`document.querySelectorAll("#layers .layer-error").length`); errs != "0" {
		t.Errorf("after Undo: %s layer errors", errs)
	}
	p.shot("step-digits-undone")
	expectNoAxe(t, p.tab, "digits undone in the stepping view")
}

// TestLessonAuthoringDefaults is the class's case at 1280×720: ☰ →
// Lessons → New lesson, add the start as a stop with a caption, tick "Ask
// for a prediction". The question starts on a node that gets a gradient
// (the first parameter), so nothing is refused; a node that gets none is
// refused in plain words naming it; the buttons say "+" in a glyph every
// font has; the tape keeps a usable size; and once the prediction is
// revealed, "What just happened" says the step that computed it.
func TestLessonAuthoringDefaults(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.click("lesson-new")
	p.waitFor(`document.getElementById("lesson").dataset.mode === "author"`, "author mode")
	p.click("lesson-add")
	p.waitFor(`document.getElementById("lesson").dataset.stops === "1"`, "the first stop")
	p.typeInto("lesson-caption", "The **loss** is the last node.")
	p.click("lesson-ask-on")
	p.waitFor(`document.getElementById("lesson-stop-0").textContent.includes("asks") || !document.getElementById("lesson-q-error").hidden`, "the question to be taken or refused")
	if msg := p.js(`document.getElementById("lesson-q-error").hidden ? "" : document.getElementById("lesson-q-error").textContent`); msg != "" {
		t.Fatalf("ticking “Ask for a prediction” says at once: %s", msg)
	}
	node := p.js(`document.getElementById("lesson-q-node").value`)
	if got := p.js(`document.getElementById("lesson-q-of").value`); node != "2" || got != "grad" {
		t.Errorf("the question starts on the %s of node %s, want the gradient of node 2 (0.weight, the first parameter)", got, node)
	}
	for _, id := range []string{"lesson-add", "lesson-new"} {
		if s := p.js(`document.getElementById("` + id + `").textContent`); strings.ContainsRune(s, '＋') || !strings.HasPrefix(s, "+ ") {
			t.Errorf("#%s says %q: want a plain + (the full-width ＋ is an empty box without CJK fonts)", id, s)
		}
	}
	if h := p.num(`document.getElementById("tape").getBoundingClientRect().height`); h < 300 {
		t.Errorf("authoring, the tape is %.0f px tall, want at least 300", h)
	}
	p.wholeTape("authoring")
	p.shot("lesson-author")
	expectNoAxe(t, p.tab, "authoring a lesson")

	setValue(t, p.tab, "#lesson-q-node", "0")
	p.waitFor(`!document.getElementById("lesson-q-error").hidden`, "the refusal")
	msg := p.js(`document.getElementById("lesson-q-error").textContent`)
	for _, want := range []string{"#0 x never gets a gradient", "#2 0.weight"} {
		if !strings.Contains(msg, want) {
			t.Errorf("the refusal says %q, want %q in it", msg, want)
		}
	}
	for _, jargon := range []string{"stepper", "question.node", "lesson "} {
		if strings.Contains(msg, jargon) {
			t.Errorf("the refusal says %q: jargon %q", msg, jargon)
		}
	}
	p.shot("lesson-author-refused")
	expectNoAxe(t, p.tab, "a question refused")
	setValue(t, p.tab, "#lesson-q-node", node)
	p.waitFor(`document.getElementById("lesson-q-error").hidden && document.getElementById("lesson-stop-0").textContent.includes("asks")`, "the question taken again")

	// As the class sees it: predict, check, and read what just happened.
	p.click("lesson-play")
	p.waitFor(`document.getElementById("lesson").dataset.mode === "play" && !document.getElementById("lesson-question").hidden`, "the question")
	p.click("explain-toggle")
	p.waitFor(`!document.getElementById("explain").hidden`, "the explain panel")
	if p.js(`document.getElementById("menu-toggle").getAttribute("aria-expanded")`) == "true" {
		p.click("menu-toggle") // the menu closes over the question
	}
	p.typeInto("lesson-guess", "0.1")
	p.click("lesson-check")
	p.waitFor(`!document.getElementById("lesson-verdict").hidden && document.getElementById("lesson-verdict").dataset.actual !== undefined`, "the verdict")
	p.waitFor(`!document.getElementById("explain").textContent.includes("Nothing has been computed yet")`, "the explain panel to follow the reveal")
	if s := p.js(`document.getElementById("explain").textContent`); !strings.Contains(s, "0.weight") {
		t.Errorf("after the reveal “What just happened” says %q, want the step that computed 0.weight's gradient", s)
	}
	p.shot("lesson-revealed")
	expectNoAxe(t, p.tab, "a prediction revealed")
}

// TestRevealSaysWhatHappened: at 1280×720, ☰ → Lessons → "The chain rule
// on micrograd's example", "What just happened" open; the first stop asks
// for L's value. Once −8 is checked and revealed, the panel says the
// forward step that computed L (it said "Nothing has been computed yet").
func TestRevealSaysWhatHappened(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	reveal(t, p.tab, "#lessons-menu summary", false)
	click(t, p.tab, "#lessons-menu summary") // the menu lists the lessons when it opens
	p.click("lesson-builtin-chain-rule")
	p.waitFor(`document.getElementById("lesson")?.hidden === false && document.getElementById("lesson-count").textContent.startsWith("1 / ")`, "the lesson")
	if p.js(`document.getElementById("explain").hidden`) == "true" {
		p.click("explain-toggle")
	}
	p.waitFor(`!document.getElementById("explain").hidden`, "the explain panel")
	if p.js(`document.getElementById("menu-toggle").getAttribute("aria-expanded")`) == "true" {
		p.click("menu-toggle")
	}
	p.waitFor(`document.getElementById("explain").textContent.includes("Nothing has been computed yet")`, "the panel at the start")
	p.typeInto("lesson-guess", "-8")
	p.click("lesson-check")
	p.waitFor(`document.getElementById("lesson-verdict").dataset.right === "true"`, "the verdict")
	if s := p.js(`document.getElementById("explain").textContent`); strings.Contains(s, "Nothing has been computed yet") || !strings.Contains(s, "#6 L") {
		t.Errorf("after the reveal “What just happened” says %q, want the step that computed #6 L", s)
	}
	p.shot("lesson-chain-revealed")
	expectNoAxe(t, p.tab, "the chain rule's prediction revealed")
}
