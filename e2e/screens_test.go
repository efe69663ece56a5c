//go:build !js

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// screen is a device a class uses: a phone, a tablet, a laptop or a
// projector.
type screen struct {
	name  string
	w, h  int64
	scale float64 // device pixels per CSS pixel
	touch bool    // a touch screen (and a mobile browser)
	tape  float64 // the least share of the screen the tape must show
}

// screens are the sizes the page is checked at.
var screens = []screen{
	{"phone-390x844", 390, 844, 3, true, 0.5},
	{"phone-412x915", 412, 915, 2.625, true, 0.5},
	{"tablet-768x1024", 768, 1024, 2, true, 0.5},
	{"tablet-1024x768", 1024, 768, 2, true, 0.5},
	{"laptop-1280x720", 1280, 720, 1, false, 0.4},
	{"projector-1920x1080", 1920, 1080, 1, false, 0.4},
}

// String is the screen's size, as "390x844".
func (sc screen) String() string { return fmt.Sprintf("%dx%d", sc.w, sc.h) }

// emulate is the screen's viewport, touch and scale emulation.
func (sc screen) emulate() chromedp.Action[chromedp.Void] {
	if !sc.touch {
		return chromedp.EmulateViewport(sc.w, sc.h, chromedp.EmulateScale(sc.scale))
	}
	orient := chromedp.EmulatePortrait
	if sc.w > sc.h {
		orient = chromedp.EmulateLandscape
	}
	return chromedp.EmulateViewport(sc.w, sc.h, chromedp.EmulateScale(sc.scale), chromedp.EmulateMobile, chromedp.EmulateTouch, orient)
}

// tapeShare is the share of the screen where the tape is what a person
// sees: the page is sampled on a 48×48 grid and each point counts when the
// element on top there is the tape's drawing.
const tapeShare = `(() => {
	const tape = document.getElementById("tape"), n = 48;
	let hit = 0;
	for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) {
		const e = document.elementFromPoint((i + 0.5) * innerWidth / n, (j + 0.5) * innerHeight / n);
		if (e && tape.contains(e)) hit++;
	}
	return hit / (n * n);
})()`

// controlsJS is every control a person can use now: rendered, visible, not
// locked by the classroom settings.
const controlsJS = `[...scope.flatMap(s => [...document.querySelectorAll(s)])].filter(e =>
	e.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}) && !e.closest("[inert]"))`

// nameOf names a control for a report.
const nameOf = `const nameOf = e => e.id ? "#" + e.id : e.tagName.toLowerCase() + "(" + (e.getAttribute("aria-label") || e.textContent).replace(/\s+/g, " ").trim().slice(0, 30) + ")";`

// controlSel are the elements a person operates.
const controlSel = "button, summary, select, input, textarea, a[href]"

// unreachableJS scrolls every control (in the scope, a list of CSS
// selectors) into view and reports those that are still off the screen or
// partly under something else, with the ids of those that are reachable.
const unreachableJS = `(scope => {` + nameOf + `
	const bad = [], ok = [];
	for (const e of ` + controlsJS + `) {
		e.scrollIntoView({block: "nearest", inline: "nearest"});
		const r = e.getBoundingClientRect(), y = r.top + r.height / 2, lab = e.closest("label");
		// Its middle and both sides must be on the screen and on top.
		const miss = [0.2, 0.5, 0.8].map(f => r.left + f * r.width).map(x => {
			const hit = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight ? document.elementFromPoint(x, y) : null;
			return hit && (e === hit || e.contains(hit) || (lab && lab.contains(hit)) || hit.control === e) ? "" :
				" at " + Math.round(x) + "," + Math.round(y) + " under " + (hit ? nameOf(hit) : "nothing");
		}).find(m => m);
		if (!miss) ok.push(nameOf(e));
		else bad.push(nameOf(e) + miss);
	}
	return JSON.stringify({bad, ok});
})`

// smallTargetsJS reports the controls smaller than 44×44 CSS px (a
// checkbox counts with its label).
const smallTargetsJS = `(scope => {` + nameOf + `
	return JSON.stringify(` + controlsJS + `.map(e => {
		const t = e.matches("input[type=checkbox], input[type=radio]") && e.closest("label") || e;
		const r = t.getBoundingClientRect();
		return r.width < 43.5 || r.height < 43.5 ? nameOf(e) + " " + Math.round(r.width) + "×" + Math.round(r.height) : "";
	}).filter(s => s));
})`

// essential are the controls that must be reachable on every screen,
// directly or by opening a panel or the menu.
var essential = []string{
	"#step", "#step-back", "#reset", "#play", "#to-backward", "#to-end", "#speed", "#help",
	"#fit", "#view-step", "#view-train", "#dataset", "#exec-eager", "#exec-compiled",
	"#pass-dense", "#pass-singleoutput", "#mode-train", "#mode-eval", "#l2", "#gradcheck",
	"#presenter-toggle", "#explain-toggle", "#add-layer", "#edit-model", "#edit-program",
}

// screenTab is the page open on one screen.
type screenTab struct {
	*pgTab
	sc      screen
	reached map[string]bool
	axed    map[string]bool // the toggles axe-core ran with open
}

// TestEveryScreen opens the playground on phones, tablets, a laptop and a
// projector (touch and device scale emulated on the phones and tablets)
// and on each checks that the tape is the main region, that the page never
// scrolls sideways, that every control can be reached (opening the panels
// and the menu), that touch targets are at least 44×44 CSS px, that the
// step buttons step, that training, presenter and embed modes fit, that an
// unknown share link shows its message, and that axe-core reports no
// violations in any of these states. With TAPELAB_SCREENSHOTS=write it
// saves a screenshot of stepping and of training at each size (in
// e2e/screenshots).
func TestEveryScreen(t *testing.T) {
	_, h := fileStoreHandler(t)
	srv := startServer(t, h)
	for _, sc := range screens {
		t.Run(sc.name, func(t *testing.T) {
			tab := newBrowserFor(t, 4*time.Minute)
			p := &screenTab{pgTab: &pgTab{t: t, tab: tab, size: sc.name}, sc: sc, reached: map[string]bool{}, axed: map[string]bool{}}
			p.open(srv.URL + "/")
			if sc.touch != (p.js(`matchMedia("(pointer: coarse)").matches`) == "true") {
				t.Fatalf("the emulated screen's pointer is not what it should be (touch %v)", sc.touch)
			}
			p.checkLayout("start", true)
			p.press("step")
			p.press("step")
			p.waitFor(`document.getElementById("count-forward").textContent.startsWith("forward 2/")`, "two forward steps by the buttons")
			p.checkState("mid-forward")
			p.press("to-backward")
			for range 3 {
				p.press("step")
			}
			p.waitFor(`document.getElementById("count-backward").textContent.startsWith("backward 3/")`, "three backward steps by the buttons")
			p.checkLayout("mid-backward", false)
			p.screenshot("stepping")
			p.press("to-end")
			p.waitFor(`(t => t.startsWith("backward ") && t.split(" ")[1].split("/")[0] === t.split("/")[1])(document.getElementById("count-backward").textContent)`, "the end of the step")
			p.checkState("end")

			p.press("view-train")
			p.waitFor(`!document.getElementById("train-view").hidden`, "the training view")
			p.press("train-step")
			p.checkLayout("training", true)
			p.screenshot("training")
			field := p.num(`(r => r.width / r.height)(document.getElementById("train-field").getBoundingClientRect())`)
			if field < 0.98 || field > 1.02 {
				t.Errorf("%s: the training heatmap is %.2f times as wide as high, want square", sc.name, field)
			}

			p.press("view-step")
			p.press("presenter-toggle")
			if p.js(`document.getElementById("menu-toggle").getAttribute("aria-expanded")`) == "true" {
				p.pressToggle("menu-toggle")
			}
			p.waitFor(`document.documentElement.classList.contains("presenter")`, "presenter mode")
			p.checkLayout("presenter", false)
			p.screenshot("presenter")
			// A new query, so a new document (a new fragment alone would not be).
			p.open(srv.URL + "/?embed#" + fixtureLink(t, "embed"))
			p.waitFor(`document.documentElement.classList.contains("embed")`, "embed mode")
			p.checkState("embed")
			if share := p.num(tapeShare); share < sc.tape {
				t.Errorf("%s embed: the tape shows on %.0f%% of the screen, want ≥ %.0f%%", sc.name, 100*share, 100*sc.tape)
			}
			p.open(srv.URL + "/s/unknownid")
			p.waitFor(`!document.getElementById("link-error").hidden && document.getElementById("link-error").textContent.includes("could not be opened")`, "the unknown link's message")
			p.checkState("unknown share id")
			if r := p.num(`document.getElementById("link-error").getBoundingClientRect().bottom`); r > float64(sc.h) {
				t.Errorf("%s: the unknown link's message is below the screen (bottom at %.0f px)", sc.name, r)
			}
			p.screenshot("unknown-id")

			var missing []string
			for _, id := range essential {
				if !p.reached[id] {
					missing = append(missing, id)
				}
			}
			if len(missing) > 0 {
				t.Errorf("%s: never reachable: %s", sc.name, strings.Join(missing, " "))
			}
		})
	}
}

// open loads url on the emulated screen and waits for the tape.
func (p *screenTab) open(url string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.tab, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, p.sc.emulate(), chromedp.Navigate(url),
		chromedp.WaitReady(chromedp.CSS(`[data-link-opened]`)), chromedp.WaitReady(chromedp.CSS("#tape [data-node]"))); err != nil {
		p.t.Fatalf("%s: loading %s: %v\n%s", p.sc.name, url, err, pageError(p.tab))
	}
}

// act runs an action, allowing it 15 s.
func (p *screenTab) act(what string, a chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.tab, 15*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, a); err != nil {
		p.t.Fatalf("%s: %s: %v\n%s", p.sc.name, what, err, pageError(p.tab))
	}
}

// press presses the control id as the screen's person would (a tap on a
// touch screen, a click otherwise), opening the panel that holds it first.
func (p *screenTab) press(id string) {
	p.t.Helper()
	reveal(p.t, p.tab, "#"+id, p.sc.touch)
	n := p.redraws()
	sel := chromedp.ID(id)
	act := chromedp.Click(sel)
	if p.sc.touch {
		act = chromedp.Tap(sel)
	}
	p.act("pressing #"+id, act)
	if id == "step" || id == "step-back" || id == "to-backward" || id == "to-end" || id == "reset" {
		p.waitFor(`+document.getElementById("playground").dataset.redraws > `+itoa(n), "a redraw after #"+id)
	}
}

// pressToggle presses a panel's or the menu's toggle and waits for it to
// say it changed.
func (p *screenTab) pressToggle(id string) {
	p.t.Helper()
	was := p.js(`document.getElementById(` + jsString(id) + `).getAttribute("aria-expanded")`)
	act := chromedp.Click(chromedp.ID(id))
	if p.sc.touch {
		act = chromedp.Tap(chromedp.ID(id))
	}
	p.act("pressing the toggle #"+id, act)
	p.waitFor(`document.getElementById(`+jsString(id)+`).getAttribute("aria-expanded") !== "`+was+`"`, "#"+id+" to open or close its panel")
	waitFrame(p.t, p.tab) // the layout of the panel that opened or closed
}

// checkState runs axe-core and checks that the page does not scroll
// sideways.
func (p *screenTab) checkState(state string) {
	p.t.Helper()
	defer func(t0 time.Time) {
		p.t.Logf("%s %s: checked in %v", p.sc.name, state, time.Since(t0).Round(time.Millisecond))
	}(time.Now())
	what := p.sc.name + " " + state
	if over := p.num(sideways); over > 0 {
		p.t.Errorf("%s: the page scrolls sideways by %.0f px", what, over)
	}
	expectNoAxe(p.t, p.tab, what)
	p.noPageError()
}

// checkLayout checks a state as checkState does, and also the tape's share
// of the screen (in the stepping view), the size of touch targets and that
// every control is reachable as the page shows it; deep also opens each
// folded section of the page, then each panel and the menu in turn (and
// each folded section in them), runs axe-core with each open and checks
// their controls.
func (p *screenTab) checkLayout(state string, deep bool) {
	p.t.Helper()
	what := p.sc.name + " " + state
	p.checkState(state)
	if p.js(`document.getElementById("playground").classList.contains("view-train")`) != "true" {
		if share := p.num(tapeShare); share < p.sc.tape {
			p.t.Errorf("%s: the tape shows on %.0f%% of the screen, want ≥ %.0f%%", what, 100*share, 100*p.sc.tape)
		} else {
			p.t.Logf("%s: the tape shows on %.0f%% of the screen", what, 100*share)
		}
	}
	p.reachable(what, controlSel)
	if !deep {
		return
	}
	p.unfold(what, "body")
	var toggles []string
	if err := json.Unmarshal([]byte(p.js(`JSON.stringify([...document.querySelectorAll("[aria-controls][aria-expanded=false]")].filter(b => b.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true}) && b.id).map(b => b.id))`)), &toggles); err != nil {
		p.t.Fatal(err)
	}
	for _, tg := range toggles {
		p.pressToggle(tg)
		// What the toggle opened (over the page, so only its controls).
		var regions, inside []string
		for _, id := range strings.Fields(p.js(`document.getElementById(` + jsString(tg) + `).getAttribute("aria-controls")`)) {
			regions = append(regions, "#"+id)
			inside = append(inside, "#"+id+" :is("+controlSel+")")
		}
		p.reachable(what+" with #"+tg+" open", inside...)
		if !p.axed[tg] {
			p.axed[tg] = true
			expectNoAxe(p.t, p.tab, what+" with #"+tg+" open")
		}
		p.unfold(what+" with #"+tg+" open", regions...)
		if p.js(`document.getElementById(`+jsString(tg)+`).getAttribute("aria-expanded")`) == "true" {
			p.pressToggle(tg)
		}
	}
}

// unfold opens, one at a time, each folded section shown inside the
// scopes (CSS selectors) and checks the controls in it as reachable does.
func (p *screenTab) unfold(what string, scope ...string) {
	p.t.Helper()
	var folds []string
	if err := json.Unmarshal([]byte(p.js(`JSON.stringify([...new Set(`+jsList(scope)+`.flatMap(sel => [...document.querySelectorAll(sel + " details:not([open]) > summary")]))].filter(s => s.checkVisibility({contentVisibilityAuto: true, visibilityProperty: true})).map((s, i) => { s.dataset.fold = "" + i; return "" + i; }))`)), &folds); err != nil {
		p.t.Fatal(err)
	}
	for _, f := range folds {
		p.js(`document.querySelector('summary[data-fold="` + f + `"]').click()`)
		p.reachable(what+" and a section unfolded", `details:has(> summary[data-fold="`+f+`"]) :is(`+controlSel+`)`)
		p.js(`(s => { s.parentElement.open = false; delete s.dataset.fold; return true; })(document.querySelector('summary[data-fold="` + f + `"]'))`)
	}
}

// reachable checks the controls shown now in the scope (CSS selectors):
// each can be scrolled to and hit, and on touch screens each is at least
// 44×44 CSS px.
func (p *screenTab) reachable(what string, scope ...string) {
	p.t.Helper()
	sc := jsList(scope)
	var r struct{ Bad, OK []string }
	if err := json.Unmarshal([]byte(p.js(unreachableJS+"("+sc+")")), &r); err != nil {
		p.t.Fatal(err)
	}
	for _, id := range r.OK {
		p.reached[id] = true
	}
	if len(r.Bad) > 0 {
		p.t.Errorf("%s: controls out of reach: %s", what, strings.Join(r.Bad, "; "))
	}
	if !p.sc.touch {
		return
	}
	var small []string
	if err := json.Unmarshal([]byte(p.js(smallTargetsJS+"("+sc+")")), &small); err != nil {
		p.t.Fatal(err)
	}
	if len(small) > 0 {
		p.t.Errorf("%s: touch targets under 44×44 px: %s", what, strings.Join(small, ", "))
	}
}

// screenshot saves the page as the screen shows it, when
// TAPELAB_SCREENSHOTS=write.
func (p *screenTab) screenshot(state string) {
	p.t.Helper()
	if os.Getenv("TAPELAB_SCREENSHOTS") != "write" {
		return
	}
	png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	saveScreenshot(p.t, "screen-"+p.sc.name+"-"+state, png)
}

// jsString quotes s as a JavaScript string.
func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// jsList is a JavaScript array of strings.
func jsList(s []string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// itoa formats an int.
func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}
