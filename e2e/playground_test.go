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

// TestPlayground loads the page as a visitor would, waits for what Go
// rendered, uses the live demo and saves screenshots at the two sizes the
// page is designed for (a projector and a small laptop).
func TestPlayground(t *testing.T) {
	tab := newBrowser(t)
	srv := startServer(t, playgroundHandler(t))

	start := time.Now()
	if err := chromedp.Do(tab, chromedp.Navigate(srv.URL), chromedp.WaitVisible(chromedp.ID("dydx"))); err != nil {
		t.Fatalf("loading %s: %v\n%s", srv.URL, err, pageError(tab))
	}
	elapsed := time.Since(start)
	rendered, err := chromedp.Run(tab, chromedp.Evaluate[string](`document.getElementById("app").dataset.renderedMs`))
	if err != nil || rendered == "" {
		t.Fatalf("#app has no data-rendered-ms (%v): Go did not finish rendering", err)
	}
	t.Logf("navigation to the Go-rendered demo: %d ms measured from Go; Go finished rendering %s ms after navigation start (in-page clock)", elapsed.Milliseconds(), rendered)
	logWasmTransfer(t, tab)

	expectText(t, tab, "h1", "TapeLab")
	version := text(t, tab, "#version")
	for _, want := range []string{"v0.1.0-dev", "js/wasm", "ops in the catalogue"} {
		if !strings.Contains(version, want) {
			t.Errorf("version line %q lacks %q", version, want)
		}
	}
	// The first evaluation, at the input's initial x = 3.
	expectText(t, tab, "#y", "7")
	expectText(t, tab, "#dydx", "2")
	if n, err := chromedp.Run(tab, chromedp.Evaluate[int](`document.querySelectorAll("#tape-rows tr").length`)); err != nil || n != 4 {
		t.Errorf("tape table has %d rows (%v), want 4 (x, scale, const, add)", n, err)
	}
	expectText(t, tab, "#tape-rows tr:nth-child(2) td:nth-child(2)", "scale(#0) c=2")
	expectText(t, tab, "#tape-rows tr:nth-child(3) td:nth-child(4)", "none")

	// Type a new x and press the button.
	if err := chromedp.Do(tab,
		chromedp.SetValue(chromedp.ID("x"), ""),
		chromedp.SendKeys(chromedp.ID("x"), "2.5"),
		chromedp.Click(chromedp.ID("evaluate")),
	); err != nil {
		t.Fatalf("typing x = 2.5 and clicking Evaluate: %v", err)
	}
	expectText(t, tab, "#y", "6")
	expectText(t, tab, "#dydx", "2")
	expectText(t, tab, "#tape-rows tr:nth-child(1) td:nth-child(3)", "2.5")
	expectText(t, tab, "#error", "") // nothing went wrong

	for _, size := range []struct{ w, h int64 }{{1280, 720}, {1024, 768}} {
		if err := chromedp.Do(tab, chromedp.EmulateViewport(size.w, size.h)); err != nil {
			t.Fatalf("viewport %dx%d: %v", size.w, size.h, err)
		}
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot at %dx%d: %v", size.w, size.h, err)
		}
		saveScreenshot(t, fmt.Sprintf("playground-%dx%d", size.w, size.h), png)
	}

	// A value that is not a number gets a message naming the problem.
	if err := chromedp.Do(tab, chromedp.SetValue(chromedp.ID("x"), ""), chromedp.SendKeys(chromedp.ID("x"), "\r")); err != nil {
		t.Fatalf("clearing x: %v", err)
	}
	expectText(t, tab, ".message", "type a number for x")
	expectText(t, tab, "#y", "–")
}

// logWasmTransfer logs how tapelab.wasm travelled: bytes on the wire and
// decoded, as the browser's resource timing saw them.
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

// text returns the visible text of the element sel (a CSS selector).
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
