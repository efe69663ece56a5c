//go:build !js

package e2e

import (
	"fmt"
	"testing"

	"github.com/chromedp/chromedp"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// cnnModel is the small CNN the image tests open: [1 8 8] → conv 3×3×3
// (padding 1) → relu → max_pool 2 → flatten → linear 5, cross-entropy, on
// the generated shapes.
func cnnModel() *spec.Model {
	conv := nn.NewConv2D(3, 3)
	conv.Padding = 1
	m := spec.New(tensor.Shape{1, 8, 8}, nn.CrossEntropy, conv, nn.ReLU{}, nn.NewMaxPool2D(2), nn.Flatten{}, nn.NewLinear(5))
	m.Seed = 5
	m.Dataset = train.DefaultData("shapes")
	return m
}

// openCNN opens the playground on a link to the CNN and returns the tab
// and the same step computed natively.
func openCNN(t *testing.T, w, h int64) (*pgTab, *app.Playground) {
	t.Helper()
	m := cnnModel()
	frag, err := link.Encode(&link.State{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	tab := newBrowser(t)
	srv := startServer(t, playgroundHandler(t))
	if err := chromedp.Do(tab, chromedp.EmulateViewport(w, h), chromedp.Navigate(srv.URL+"/#"+frag),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]"))); err != nil {
		t.Fatalf("loading the playground: %v\n%s", err, pageError(tab))
	}
	p := &pgTab{t: t, tab: tab, size: fmt.Sprintf("%dx%d", w, h)}
	p.waitFor(`document.documentElement.dataset.linkOpened === "true"`, "the link to be applied")
	tr, _, err := train.Generate(m.Dataset)
	if err != nil {
		t.Fatal(err)
	}
	b, err := app.MiniBatch(tr.X, tr.Y, 4, m.Loss)
	if err != nil {
		t.Fatal(err)
	}
	ref, err := app.New(app.Doc{Input: m.Input, Layers: m.Layers, Loss: m.Loss, Seed: m.Seed}, b)
	if err != nil {
		t.Fatal(err)
	}
	return p, ref
}

func TestImagesOnTheTape(t *testing.T) {
	p, ref := openCNN(t, 1280, 720)
	p.noPageError()
	if got, want := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)), len(ref.Stepper().Nodes()); got != want {
		t.Fatalf("the tape has %d nodes, the engine %d", got, want)
	}
	p.shot("images-open")
}
