//go:build !js

package e2e

import (
	"bytes"
	"flag"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"
)

var update = flag.Bool("update", false, "write docs/playground.png from a fresh render (TestReadmeScreenshot)")

// readmeShot is the playground picture the README opens with.
var readmeShot = filepath.Join("..", "docs", "playground.png")

// The committed picture may differ from a fresh render by the fonts'
// antialiasing: at most shotTolerance of its pixels (92 of 1280×720) may
// differ, each by more than shotChannelDiff in some channel (of 255). Here
// two renders are the same to the pixel; a changed word, box or colour
// differs in hundreds of pixels or more (a stale picture in 5%).
const (
	shotChannelDiff = 48
	shotTolerance   = 0.0001
)

// TestReadmeScreenshot opens the playground at the projector size and
// stops it mid-backward: the forward pass done, a few VJPs run, their
// node inspected. It fails when the README's picture, docs/playground.png,
// is not what the page shows now;
//
//	go test ./e2e -run TestReadmeScreenshot -update
//
// writes it afresh.
func TestReadmeScreenshot(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.clickAndRedraw("to-backward")
	for range 3 {
		p.clickAndRedraw("step")
	}
	p.waitFor(`document.getElementById("count-backward").textContent === "backward 3/4"`, "three of four backward steps")
	p.waitFor(`!document.getElementById("tape").hasAttribute("data-travelling")`, "the step's dots to arrive")
	waitTapeFitted(t, p.tab)
	p.noPageError()
	shot, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatalf("screenshot: %v", err)
	}
	if *update {
		if err := os.WriteFile(readmeShot, shot, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s (%d bytes)", readmeShot, len(shot))
		return
	}
	const again = "write it with: go test ./e2e -run TestReadmeScreenshot -update"
	b, err := os.ReadFile(readmeShot)
	if err != nil {
		t.Fatalf("the README's screenshot: %v (%s)", err, again)
	}
	old, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%s: %v", readmeShot, err)
	}
	fresh, err := png.Decode(bytes.NewReader(shot))
	if err != nil {
		t.Fatalf("the fresh screenshot: %v", err)
	}
	n, err := pixelsDiffering(old, fresh, shotChannelDiff)
	if err == nil && float64(n) > shotTolerance*float64(fresh.Bounds().Dx()*fresh.Bounds().Dy()) {
		err = fmt.Errorf("%d of its pixels differ from a fresh render (%.2f%%; at most %.2f%% may)",
			n, 100*float64(n)/float64(fresh.Bounds().Dx()*fresh.Bounds().Dy()), 100*shotTolerance)
	}
	if err != nil {
		saveScreenshot(t, "readme-fresh", shot)
		t.Errorf("%s is not what the page shows now: %v; %s", readmeShot, err, again)
	} else {
		t.Logf("%s: %d pixels differ from a fresh render", readmeShot, n)
	}
}

// pixelsDiffering counts the pixels of a and b that differ by more than
// d in a channel (of 255); pictures of different sizes are an error.
func pixelsDiffering(a, b image.Image, d int) (int, error) {
	ra, rb := a.Bounds(), b.Bounds()
	if ra.Dx() != rb.Dx() || ra.Dy() != rb.Dy() {
		return 0, fmt.Errorf("it is %d×%d, the page %d×%d", ra.Dx(), ra.Dy(), rb.Dx(), rb.Dy())
	}
	n := 0
	for y := range ra.Dy() {
		for x := range ra.Dx() {
			r1, g1, b1, a1 := a.At(ra.Min.X+x, ra.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(rb.Min.X+x, rb.Min.Y+y).RGBA()
			for _, c := range [][2]uint32{{r1, r2}, {g1, g2}, {b1, b2}, {a1, a2}} {
				if diff := int(c[0]>>8) - int(c[1]>>8); diff > d || -diff > d {
					n++
					break
				}
			}
		}
	}
	return n, nil
}
