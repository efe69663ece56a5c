//go:build !js

package e2e

import (
	"slices"
	"testing"

	"github.com/chromedp/chromedp"

	"tapelab/engine/train"
	"tapelab/wasm/link"
)

// TestSharedBatchFollowsDataSettings opens, at 1280x720, a link to a CNN
// on shapes with noise 0.15 and seed 2 and steps once, as a person would:
// the input x the tape shows is the first four examples of that data, not
// of the dataset's defaults (whose pixels are all 0 or 1).
func TestSharedBatchFollowsDataSettings(t *testing.T) {
	m := cnnModel()
	m.Dataset.Noise, m.Dataset.Seed = 0.15, 2
	frag, err := link.Encode(&link.State{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	tab := newBrowser(t)
	srv := startServer(t, playgroundHandler(t))
	p := &pgTab{t: t, tab: tab, size: "1280x720"}
	p.do("opening the link", chromedp.EmulateViewport(1280, 720), chromedp.Navigate(srv.URL+"/#"+frag),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]")))
	p.waitFor(`document.documentElement.dataset.linkOpened === "true"`, "the link to be applied")
	p.noPageError()
	p.clickAndRedraw("step")
	p.waitFor(`document.getElementById("insp-node").dataset.node === "0"`, "the inspector to show x")
	got := p.values("insp-value")
	tr, _, err := train.Generate(m.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	want := tr.X.Data[:4*64]
	if !slices.Equal(got, want) {
		fractional := 0
		for _, v := range got {
			if v != 0 && v != 1 {
				fractional++
			}
		}
		t.Fatalf("the stepped x is not the first four examples of shapes at noise 0.15, seed 2 (%d of %d pixels are neither 0 nor 1)", fractional, len(got))
	}
	p.shot("shapes-noise")
	expectNoAxe(t, tab, "the shared noisy shapes, stepped")
}
