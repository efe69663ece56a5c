//go:build !js

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestExplainLeavesTheStepperInView turns the explain panel on at every
// screen size, and presenting on a projector's, and checks that the
// stepper's bar stays uncovered (a student reading the explanation on a
// phone can still press Step) and so does the tape it explains: the whole
// tape where it is fitted to its region, else the node the step ran.
func TestExplainLeavesTheStepperInView(t *testing.T) {
	for _, size := range [][]int64{{390, 844}, {768, 1024}, {1024, 768}, {1280, 720}, {1920, 1080}, {1280, 720, 1}} {
		name := fmt.Sprintf("%dx%d", size[0], size[1])
		if len(size) > 2 {
			name += "-presenter"
		}
		t.Run(name, func(t *testing.T) {
			p := openPlayground(t, size[0], size[1])
			if len(size) > 2 {
				p.click("presenter-toggle")
				p.click("menu-toggle") // closes the menu the button is in
			}
			p.js(`(() => { document.getElementById("explain-toggle").click(); for (let i = 0; i < 14; i++) document.getElementById("step").click(); return "" })()`)
			waitJS(t, p.tab, `!document.getElementById("explain").hidden && document.getElementById("explain").textContent.includes("Backward step")`)
			// The bar's height reaches the drawer through a resize observer:
			// poll until the two do not overlap.
			if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](explainOverBottomBar+` === 0`)); err != nil {
				png, _ := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
				saveScreenshot(t, fmt.Sprintf("explain-over-stepper-%dx%d", size[0], size[1]), png)
				t.Fatalf("the explain panel covers %s px² of the stepper's bar (%v)", p.js(`String(`+explainOverBottomBar+`)`), err)
			}
			if got := p.js(`String(document.getElementById("step").getBoundingClientRect().bottom <= innerHeight)`); got != "true" {
				t.Errorf("Step is below the screen's edge")
			}
			if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](explainOverTape+` === ""`)); err != nil {
				png, _ := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
				saveScreenshot(t, "explain-over-tape-"+name, png)
				t.Errorf("the explain panel covers the tape's %s (the tape is drawn to %s; %v)", p.js(explainOverTape), p.js(`document.getElementById("tape").dataset.view`), err)
			}
			png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
			if err != nil {
				t.Fatal(err)
			}
			saveScreenshot(t, "explain-"+name, png)
		})
	}
}

// explainOverTape lists the tape's nodes the explain panel lies over
// ("" for none): any of them when the tape is fitted to its region, else
// (the tape longer than fits, panned along) the node the step ran.
const explainOverTape = `(() => {
  const d = document.getElementById("explain").getBoundingClientRect();
  const ran = document.getElementById("explain").textContent.match(/step \d+ of \d+: #(\d+)/);
  const nodes = document.getElementById("tape").dataset.view === "fit" ? [...document.querySelectorAll("#tape g.node")] :
    ran ? [document.getElementById("node-" + ran[1])] : [];
  return nodes.filter((g) => {
    const r = g.getBoundingClientRect();
    return Math.min(r.right, d.right) - Math.max(r.left, d.left) > 2 && Math.min(r.bottom, d.bottom) - Math.max(r.top, d.top) > 2;
  }).map((g) => g.id).join(" ");
})()`

// explainOverBottomBar is the area, in CSS px², where the explain panel
// lies over the bar of the stepper.
const explainOverBottomBar = `(() => {
  const a = document.getElementById("explain").getBoundingClientRect(), b = document.querySelector("#playground .bottom").getBoundingClientRect();
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? Math.round(w * h) : 0;
})()`
