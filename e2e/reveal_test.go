//go:build !js

package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// closedHolderJS finds what hides the element a CSS selector matches: the
// outermost closed holder around it, which must be opened first: the
// toggle (its id) of a closed panel or menu, or "summary" (its summary
// marked data-reveal) for a closed <details>; "" when nothing does.
const closedHolderJS = `(e => {
	if (!e) return "";
	let found = "", details = null;
	for (let a = e.parentElement; a; a = a.parentElement) {
		if (a.tagName === "DETAILS" && !a.open && !e.closest("summary")) {
			found = "summary";
			details = a;
		} else if (a.id && getComputedStyle(a).display === "none") {
			const b = document.querySelector('[aria-controls~="' + a.id + '"][aria-expanded="false"]');
			if (b && b.id) found = b.id;
		}
	}
	if (found === "summary") {
		document.querySelectorAll("[data-reveal]").forEach(s => s.removeAttribute("data-reveal"));
		details.querySelector(":scope > summary").dataset.reveal = "";
	}
	return found;
})(document.querySelector(%s))`

// reveal opens, as a person would, what hides the element sel: the menu,
// a panel or a folded section around it, so that it can be clicked.
func reveal(t testing.TB, tab context.Context, sel string, touch bool) {
	t.Helper()
	for range 4 {
		what, err := chromedp.Run(tab, chromedp.Evaluate[string](fmt.Sprintf(closedHolderJS, jsString(sel))))
		if err != nil {
			t.Fatalf("finding what hides %s: %v", sel, err)
		}
		if what == "" {
			return
		}
		s := chromedp.CSS("#" + what)
		if what == "summary" {
			s = chromedp.CSS("summary[data-reveal]")
		}
		act := chromedp.Click(s)
		if touch {
			act = chromedp.Tap(s)
		}
		ctx, cancel := context.WithTimeout(tab, 15*time.Second)
		err = chromedp.Do(ctx, act)
		cancel()
		if err != nil {
			t.Fatalf("opening what hides %s (%s): %v\n%s", sel, what, err, pageError(tab))
		}
		waitFrame(t, tab) // the layout of what opened
	}
}
