//go:build !js

package e2e

import (
	"bytes"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

// readmeShot is the playground picture the README opens with.
var readmeShot = filepath.Join("..", "docs", "playground.png")

// TestReadmeScreenshot opens the playground at the projector size and
// stops it mid-backward: the forward pass done, a few VJPs run, their
// node inspected. With TAPELAB_SCREENSHOTS=write it writes the picture to
// docs/playground.png (refresh it when the page changes); otherwise it
// checks that the committed picture is there and is a 1280×720 PNG.
func TestReadmeScreenshot(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.clickAndRedraw("to-backward")
	for range 3 {
		p.clickAndRedraw("step")
	}
	p.waitFor(`document.getElementById("count-backward").textContent === "backward 3/4"`, "three of four backward steps")
	p.noPageError()
	if os.Getenv("TAPELAB_SCREENSHOTS") == "write" {
		shot, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatalf("screenshot: %v", err)
		}
		if err := os.WriteFile(readmeShot, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", readmeShot, len(shot))
	}
	b, err := os.ReadFile(readmeShot)
	if err != nil {
		t.Fatalf("the README's screenshot: %v (write it with TAPELAB_SCREENSHOTS=write)", err)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil || cfg.Width != 1280 || cfg.Height != 720 {
		t.Errorf("%s is not a 1280×720 PNG: %v %+v", readmeShot, err, cfg)
	}
}
