//go:build !js

package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// goRendered matches #app once the Go program has rendered into it: main
// sets data-rendered-ms (ms since navigation) as its last step.
const goRendered = "#app[data-rendered-ms]"

// TestPageBoots loads the page as a visitor would, waits for what Go
// rendered, checks the heading and the version line, asks the engine for
// a gradient check, and saves screenshots at the two sizes the page is
// designed for (a projector and a small laptop). The playground's own
// tests drive the rest of the page.
func TestPageBoots(t *testing.T) {
	tab := newBrowser(t)
	srv := startServer(t, playgroundHandler(t))

	start := time.Now()
	waitRendered(t, tab, srv.URL)
	elapsed := time.Since(start)
	rendered, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("app").dataset.renderedMs`))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("navigation to the Go-rendered page: %d ms measured from Go; Go finished rendering %s ms after navigation start (in-page clock)", elapsed.Milliseconds(), rendered)
	logWasmTransfer(t, tab)

	expectText(t, tab, "#app h1", "TapeLab")
	version := text(t, tab, "#version")
	for _, want := range []string{"v0.1.0-dev", "go1.", "js/wasm"} {
		if !strings.Contains(version, want) {
			t.Errorf("version line %q lacks %q", version, want)
		}
	}
	if title, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("version").title`)); err != nil || !strings.Contains(title, "ops in the catalogue") {
		t.Errorf("version line's title %q (%v) does not give the op count", title, err)
	}

	// The engine differentiates the default model in the page; the check
	// compares its gradients with finite differences.
	reveal(t, tab, "#gradcheck", false)
	if err := chromedp.Do(tab, chromedp.Click(chromedp.ID("gradcheck"))); err != nil {
		t.Fatalf("clicking Gradient check: %v", err)
	}
	cond := `(document.getElementById("gradcheck-result")?.textContent ?? "").startsWith("✓ worst rel. error")`
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Errorf("gradient check says %q, want it to pass (%v)", text(t, tab, "#gradcheck-result"), err)
	}
	expectText(t, tab, "#error", "") // nothing went wrong

	for _, size := range []struct{ w, h int64 }{{1280, 720}, {1024, 768}} {
		if err := chromedp.Do(tab, chromedp.EmulateViewport(size.w, size.h)); err != nil {
			t.Fatalf("viewport %dx%d: %v", size.w, size.h, err)
		}
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot at %dx%d: %v", size.w, size.h, err)
		}
		saveScreenshot(t, fmt.Sprintf("page-%dx%d", size.w, size.h), png)
	}
}

// waitRendered navigates to url and waits up to 30 s for the Go program to
// render, failing with what the page says if it does not.
func waitRendered(t *testing.T, tab context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatalf("loading %s: %v", url, err)
	}
	waitGo(t, tab)
}

// waitGo waits up to 30 s for the Go program to render into the page.
func waitGo(t *testing.T, tab context.Context) {
	t.Helper()
	ctx, cancel := context.WithTimeout(tab, 30*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.WaitReady(chromedp.CSS(goRendered))); err != nil {
		t.Fatalf("waiting for Go to render (%s): %v\n%s", goRendered, err, pageError(tab))
	}
}

// logWasmTransfer logs how tapelab.wasm travelled (bytes on the wire and
// decoded, from the browser's resource timing) and the loader's marks.
func logWasmTransfer(t *testing.T, tab context.Context) {
	t.Helper()
	sizes, err := chromedp.Run(tab, chromedp.Evaluate[[]float64](
		`(e => e ? [e.encodedBodySize, e.decodedBodySize] : [])(performance.getEntriesByType("resource").find(r => r.name.endsWith("/tapelab.wasm")))`))
	if err != nil || len(sizes) != 2 {
		t.Logf("no resource timing for tapelab.wasm (%v)", err)
		return
	}
	t.Logf("tapelab.wasm: %.0f bytes over the wire, %.0f decoded", sizes[0], sizes[1])
	marks, err := chromedp.Run(tab, chromedp.Evaluate[string](
		`performance.getEntriesByType("mark").map(m => m.name + " " + m.startTime.toFixed(0) + " ms").join(", ")`))
	if err == nil {
		t.Logf("loader marks since navigation start: %s", marks)
	}
}

// text returns the text of the element sel (a CSS selector).
func text(t *testing.T, tab context.Context, sel string) string {
	t.Helper()
	s, err := chromedp.Run(tab, chromedp.Evaluate[string](fmt.Sprintf(
		`(e => e ? e.textContent.trim() : "<no element>")(document.querySelector(%q))`, sel)))
	if err != nil {
		t.Fatalf("reading %s: %v", sel, err)
	}
	return s
}

// expectText waits up to 5 s for the element sel to hold want, then fails
// naming what it holds instead.
func expectText(t *testing.T, tab context.Context, sel, want string) {
	t.Helper()
	cond := fmt.Sprintf(`(e => e !== null && e.textContent.trim() === %q)(document.querySelector(%q))`, want, sel)
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		t.Errorf("%s holds %q, want %q (%v)", sel, text(t, tab, sel), want, err)
	}
}

// pageError returns the page's error box, to explain a failed wait.
func pageError(tab context.Context) string {
	ctx, cancel := context.WithTimeout(tab, 2*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.getElementById("error")?.textContent ?? ""`))
	if err != nil || s == "" {
		return "(the page shows no error)"
	}
	return "the page says: " + s
}
