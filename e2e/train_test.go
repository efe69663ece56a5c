//go:build !js

package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// openPage navigates tab to url and waits until the page has applied its
// link (the html element's data-link-opened), failing with the page's
// error box otherwise.
func openPage(t *testing.T, tab context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.Navigate(url)); err != nil {
		t.Fatalf("navigating to %s: %v", url, err)
	}
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](`document.documentElement.dataset.linkOpened === "true"`,
		chromedp.WithPollingTimeout(20*time.Second))); err != nil {
		t.Fatalf("%s did not open: %v\n%s", url, err, pageError(tab))
	}
}

// eval evaluates a JavaScript expression.
func eval[T any](t *testing.T, tab context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(tab, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("evaluating %s: %v\n%s", expr, err, pageError(tab))
	}
	return v
}

// click clicks the element matching a CSS selector.
func click(t *testing.T, tab context.Context, sel string) {
	t.Helper()
	if err := chromedp.Do(tab, chromedp.Click(chromedp.CSS(sel))); err != nil {
		t.Fatalf("clicking %s: %v\n%s", sel, err, pageError(tab))
	}
}

// shoot saves screenshots at 1280×720 and 1024×768 and checks that the
// page does not scroll sideways.
func shoot(t *testing.T, tab context.Context, name string) {
	t.Helper()
	for _, size := range []struct{ w, h int64 }{{1280, 720}, {1024, 768}} {
		if err := chromedp.Do(tab, chromedp.EmulateViewport(size.w, size.h)); err != nil {
			t.Fatalf("viewport %dx%d: %v", size.w, size.h, err)
		}
		time.Sleep(150 * time.Millisecond)
		png, err := chromedp.Run(tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		saveScreenshot(t, fmt.Sprintf("%s-%dx%d", name, size.w, size.h), png)
		if size.w == 1024 {
			if over := eval[int](t, tab, `document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 0 {
				t.Errorf("%s at 1024×768 scrolls sideways by %d px", name, over)
			}
		}
	}
}

func TestTrainSmoke(t *testing.T) {
	tab := newBrowser(t)
	srv := startServer(t, playgroundHandler(t))
	openPage(t, tab, srv.URL)
	click(t, tab, "#view-train")
	click(t, tab, "#train-play")
	time.Sleep(2 * time.Second)
	steps := eval[string](t, tab, `document.getElementById("train-view").dataset.steps`)
	n, _ := strconv.Atoi(steps)
	t.Logf("steps after 2 s: %d", n)
	shoot(t, tab, "train-smoke")
}

// fixtureLink returns a kept v1 link of wasm/link/testdata.
func fixtureLink(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "wasm", "link", "testdata", name+".link"))
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(b))
}
