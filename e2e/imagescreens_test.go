//go:build !js

package e2e

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/wasm/link"
)

// TestDigitsCNNScreens opens the default CNN trained on digits at the
// laptop and the projector size, steps its tape to the end and inspects
// its conv2d node, saving screenshots of both.
func TestDigitsCNNScreens(t *testing.T) {
	m := trainedDigitsCNN(t, 300)
	frag, err := link.Encode(&link.State{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, playgroundHandler(t))
	for _, size := range []struct{ w, h int64 }{{1280, 720}, {1024, 768}} {
		name := strconv.FormatInt(size.w, 10) + "x" + strconv.FormatInt(size.h, 10)
		t.Run(name, func(t *testing.T) {
			tab := newBrowserFor(t, 2*time.Minute)
			p := &pgTab{t: t, tab: tab, size: name}
			p.do("sizing", chromedp.EmulateViewport(size.w, size.h))
			openPage(t, tab, srv.URL+"/#"+frag)
			p.noPageError()
			p.waitFor(`document.getElementById("drawpad").hidden === false`, "the drawing pad")
			p.clickAndRedraw("to-end")
			p.shot("cnn-end")
			conv := p.js(`[...document.querySelectorAll("#tape .node")].find(g => g.textContent.includes("conv2d")).id`)
			p.clickNode(conv)
			p.waitFor(`document.getElementById("insp-value") !== null`, "the inspector to show the conv2d's value")
			p.shot("cnn-conv")

			// The feature maps: each 6×6 plane at least 84 pixels wide, the
			// grid inside the inspector's column.
			if w := p.num(`+document.querySelector("#insp-value .plane-frame").getAttribute("width")`); w < 6*14 {
				t.Errorf("the inspector draws a 6×6 feature map %v pixels wide, want at least 84", w)
			}
			if over := p.js(`(s => { const e = document.getElementById("inspector"), r = e.getBoundingClientRect();
				const right = r.left + e.clientLeft + e.clientWidth - parseFloat(getComputedStyle(e).paddingRight);
				return s.getBoundingClientRect().right > right + 0.5 ? s.getBoundingClientRect().right + " > " + right : "" })(document.querySelector("#insp-value svg"))`); over != "" {
				t.Errorf("the inspector's feature maps are wider than its column: right edge %s", over)
			}
			if wide := p.js(sidewaysJS); wide != "" {
				t.Errorf("the inspector scrolls sideways: %s", wide)
			}
			p.js(`document.getElementById("insp-value").scrollIntoView({block: "start"})`)
			p.shot("cnn-conv-value")

			// The conv's gradient images (|dY| about 1e-4) are scaled to
			// their range, which is said beside them, on the tape and in
			// the inspector.
			for _, sel := range []string{"#" + conv + " .strip.grad", "#insp-grad .strip.grad"} {
				if err := p.js(gradRangeJS(sel)); err != "" {
					t.Errorf("the conv's gradient images %s: %s", sel, err)
				}
			}
			p.js(`document.getElementById("insp-grad").scrollIntoView({block: "start"})`)
			p.shot("cnn-conv-grad")

			// The draw button brings the pad, far below, into view.
			if p.js(`(r => r.top >= 0 && r.bottom <= innerHeight)(document.getElementById("draw-canvas").getBoundingClientRect())`) == "true" {
				t.Log("the pad is in view before the draw button is pressed")
			}
			p.click("draw-jump")
			p.waitFor(`document.activeElement === document.getElementById("drawpad")`, "the focus on the pad")
			if got := p.js(`(c => { const r = c.getBoundingClientRect(), x = r.left + r.width / 2, y = r.top + r.height / 2;
				return r.top >= 0 && r.bottom <= innerHeight && document.elementFromPoint(x, y) === c ? "" : r.top + ".." + r.bottom + " of " + innerHeight })(document.getElementById("draw-canvas"))`); got != "" {
				t.Errorf("after the draw button the pad is not in view: %s", got)
			}
			p.shot("cnn-draw")
		})
	}
}

// sidewaysJS is "" when the inspector does not scroll sideways, else its
// widths and its widest element that reaches past its content box.
const sidewaysJS = `(e => {
	if (e.scrollWidth <= e.clientWidth) return "";
	const right = e.getBoundingClientRect().left + e.clientLeft + e.clientWidth - parseFloat(getComputedStyle(e).paddingRight);
	let worst = null, w = 0;
	const walk = document.createTreeWalker(e, NodeFilter.SHOW_ELEMENT | NodeFilter.SHOW_TEXT);
	for (let d = walk.nextNode(); d; d = walk.nextNode()) {
		let r = d.getBoundingClientRect ? d.getBoundingClientRect() : null;
		if (!r) { const g = document.createRange(); g.selectNodeContents(d); r = g.getBoundingClientRect(); }
		if (r.right > right + 0.5 && r.width > w) { worst = d; w = r.width; }
	}
	const el = worst && (worst.nodeType === 3 ? worst.parentElement : worst);
	return e.scrollWidth + " px of content in " + e.clientWidth + (el ? "; widest past the column: " + el.tagName +
		(el.id ? "#" + el.id : "") + "." + [...el.classList].join(".") + (worst !== el ? " (its text " + JSON.stringify(worst.textContent.slice(0, 40)) + ")" : "") +
		" " + Math.round(w) + " px" : "");
})(document.getElementById("inspector"))`

// gradRangeJS checks the gradient images under sel: "" when their range
// is said ("±m", m the largest magnitude drawn, to 2 digits) and the
// largest is drawn in the legend's colour for 2 or −2, else what is wrong.
func gradRangeJS(sel string) string {
	return strings.ReplaceAll(`(g => {
	if (!g) return "no images";
	const vals = g.dataset.values.split(",").map(Number), m = Math.max(...vals.map(Math.abs));
	const label = g.querySelector(".image-range");
	if (!label) return "no range said (largest |g| " + m + ")";
	const said = label.textContent;
	if (!said.startsWith("±") || Math.abs(parseFloat(said.slice(1)) - m) > 0.05 * m) return "says " + said + ", the largest |g| is " + m;
	const ends = [...document.querySelectorAll(".legend .swatch")].filter(s => s.textContent === "2" || s.textContent === "-2").map(s => getComputedStyle(s).backgroundColor);
	if (ends.length !== 2) return "the legend has no ±2";
	const fills = [...g.querySelectorAll("rect[data-k]")].map(r => getComputedStyle(r).fill);
	return fills.some(f => ends.includes(f)) ? "" : "no pixel drawn at the scale's end (" + ends.join(", ") + "); largest |g| " + m;
})(document.querySelector("SEL"))`, "SEL", sel)
}
