//go:build !js

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestExplainLeavesTheStepperInView turns the explain panel on at every
// screen size and checks that the stepper's bar stays uncovered: a student
// reading the explanation on a phone can still press Step.
func TestExplainLeavesTheStepperInView(t *testing.T) {
	for _, size := range [][2]int64{{390, 844}, {768, 1024}, {1024, 768}, {1280, 720}, {1920, 1080}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			p := openPlayground(t, size[0], size[1])
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
		})
	}
}

// explainOverBottomBar is the area, in CSS px², where the explain panel
// lies over the bar of the stepper.
const explainOverBottomBar = `(() => {
  const a = document.getElementById("explain").getBoundingClientRect(), b = document.querySelector("#playground .bottom").getBoundingClientRect();
  const w = Math.min(a.right, b.right) - Math.max(a.left, b.left), h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
  return w > 0 && h > 0 ? Math.round(w * h) : 0;
})()`
