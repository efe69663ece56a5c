//go:build !js

package e2e

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/web"
)

// staticDir is the playground's static folder, seen from this package.
const staticDir = "../static"

// TestMain builds the playground with `go run . build` in the repository
// root before the tests, so they load the wasm the current sources make.
// Without a browser there is nothing to build for.
func TestMain(m *testing.M) {
	if findChromium() != "" {
		cmd := exec.Command("go", "run", ".", "build")
		cmd.Dir = ".."
		if out, err := cmd.CombinedOutput(); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: go run . build: %v\n%s", err, out)
			os.Exit(1)
		}
	}
	os.Exit(m.Run())
}

// findChromium returns where Debian's chromium package put the browser,
// preferring the real binary (the /usr/bin wrapper script adds flags from
// /etc/chromium.d), or "" when it is not installed.
func findChromium() string {
	for _, p := range []string{"/usr/lib/chromium/chromium", "/usr/bin/chromium"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// chromium returns the browser's path, or skips the test (fails it when
// TAPELAB_E2E=required, as ./build.sh test sets) when there is none.
func chromium(t testing.TB) string {
	t.Helper()
	exe := findChromium()
	if exe != "" {
		return exe
	}
	if os.Getenv("TAPELAB_E2E") == "required" {
		t.Fatal("Chromium is not installed (no /usr/lib/chromium/chromium or /usr/bin/chromium), and TAPELAB_E2E=required")
	}
	t.Skip("skipping the end-to-end browser tests: Chromium is not installed (no /usr/lib/chromium/chromium or /usr/bin/chromium); ./build.sh test installs it with apt-get and runs them")
	return ""
}

// newBrowser starts headless Chromium with a temporary profile and returns
// a context for one tab, good for 90 s; the browser stops when the test ends.
func newBrowser(t testing.TB) context.Context {
	t.Helper()
	return newBrowserFor(t, 90*time.Second)
}

// newBrowserFor is newBrowser with a tab good for d.
func newBrowserFor(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	return newBrowserWith(t, d)
}

// newBrowserWith is newBrowserFor with Chromium started with the options
// extra too, such as a flag that limits what its tabs may use.
func newBrowserWith(t testing.TB, d time.Duration, extra ...chromedp.ExecAllocatorOption) context.Context {
	t.Helper()
	exe := chromium(t)
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox, // the tests may run as root (CI does)
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.UserDataDir(t.TempDir()),
		chromedp.WindowSize(1280, 720),
	}
	opts = append(opts, extra...)
	ctx, cancelTimeout := context.WithTimeout(context.Background(), d)
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	tab, cancelTab := chromedp.NewContext(allocCtx)
	t.Cleanup(func() {
		cancelTab()
		cancelAlloc()
		cancelTimeout()
	})
	if err := chromedp.Do(tab); err != nil { // starts the browser
		t.Fatalf("starting Chromium at %s: %v", exe, err)
	}
	return tab
}

// startServer serves h on a free loopback port until the test ends.
func startServer(t testing.TB, h http.Handler) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(h) // listens on 127.0.0.1:0
	t.Cleanup(srv.Close)
	return srv
}

// playgroundHandler is the real handler over the real static folder.
func playgroundHandler(t testing.TB) http.Handler {
	t.Helper()
	h, err := web.NewHandler(web.Options{Static: os.DirFS(staticDir), Precompress: true})
	if err != nil {
		t.Fatalf("web.NewHandler: %v", err)
	}
	return h
}

// saveScreenshot writes png to screenshots/name.png (git-ignored).
func saveScreenshot(t testing.TB, name string, png []byte) {
	t.Helper()
	if err := os.MkdirAll("screenshots", 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("screenshots", name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: e2e/%s (%d bytes)", path, len(png))
}
