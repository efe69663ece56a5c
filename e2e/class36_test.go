//go:build !js

package e2e

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/engine/train"
	"tapelab/static"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
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

// TestStepViewUsesTrainedWeights is the class's case at 1280x720: Train →
// Data: digits → Use the default CNN → train a while → pause → Step →
// ▶▶ end. The loss the tape reaches, and the class the pad predicts for a
// drawn 7, are those of the weights the training reached (the weights the
// training view's link carries, stepped natively), not the seeded ones.
func TestStepViewUsesTrainedWeights(t *testing.T) {
	tab := newBrowserFor(t, 3*time.Minute)
	srv := startServer(t, playgroundHandler(t))
	p := &pgTab{t: t, tab: tab, size: "1280x720"}
	p.do("loading the playground", chromedp.EmulateViewport(1280, 720), chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]")))
	p.click("view-train")
	setValue(t, p.tab, "#train-dataset", "digits")
	p.waitFor(`document.querySelector(".input-layer .layer-shape").textContent === "[1 8 8]"`, "the input to become [1 8 8]")
	p.click("train-cnn")
	p.waitFor(`document.querySelectorAll("#layers .layer-error").length === 0 && document.getElementById("layer-0").textContent.includes("conv2d")`, "the default CNN")
	p.click("train-play")
	view := `document.getElementById("train-view").dataset`
	p.waitFor(`+`+view+`.steps >= 150`, "150 training steps")
	p.click("train-play") // pause
	p.waitFor(`document.getElementById("train-play").textContent.includes("Train")`, "training to pause")
	trainLoss := p.num(view + ".trainLoss")

	// The weights the training reached, as the training view's link carries them.
	url := settledLink(t, tab)
	st, err := link.Decode(url[strings.Index(url, "#"):])
	if err != nil {
		t.Fatal(err)
	}
	if len(st.Model.Params) == 0 {
		t.Fatal("the training view's link carries no weights")
	}
	st.View, st.Pos = link.ViewStep, link.Position{}
	ref := state.New(link.DefaultDataset)
	file, err := static.Digits()
	if err != nil {
		t.Fatal(err)
	}
	ref.AddDataFile("digits", file)
	ref.Replace(st)
	if err := ref.Opened(); err != nil {
		t.Fatal(err)
	}
	rec := ref.Model().Recording()
	want := rec.Tape.Node(rec.Loss).Value.Data[0]

	p.click("view-step")
	p.waitFor(`!document.getElementById("playground").classList.contains("view-train")`, "the stepping view")
	p.clickAndRedraw("to-end")
	p.clickNode(nodeID(rec.Loss))
	p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, rec.Loss), "the inspector to show the loss")
	got := p.values("insp-value")
	t.Logf("after %s steps (training loss %.4f): the tape's loss %v, the trained weights' %v", p.js(view+".steps"), trainLoss, got, want)
	if len(got) != 1 || math.Abs(got[0]-want) > 1e-12 {
		t.Fatalf("the tape's loss after training is %v, want %v (the trained weights'; ln 10 = 2.303 is untrained)", got, want)
	}
	p.shot("trained-step")
	expectNoAxe(t, tab, "the stepping view after training")

	// The pad predicts with the trained weights too.
	p.waitFor(`document.getElementById("drawpad").hidden === false`, "the drawing pad")
	const ex = 2
	chooseExample(p, ex)
	ink := drawWithMouse(p, [][]app.Point{
		{{X: 34, Y: 32}, {X: 60, Y: 30}, {X: 90, Y: 29}, {X: 124, Y: 30}, {X: 112, Y: 62}, {X: 98, Y: 96}, {X: 86, Y: 130}},
		{{X: 68, Y: 80}, {X: 92, Y: 80}, {X: 118, Y: 79}},
	})
	pr, err := ref.Model().UseImage(ex, ink.Pixels(train.ImageSide))
	if err != nil {
		t.Fatal(err)
	}
	if got := p.js(`document.getElementById("draw-result").dataset.class`); got != strconv.Itoa(pr.Class) {
		t.Errorf("the pad predicts %s, the trained weights %d (%.0f%%)", got, pr.Class, 100*pr.Prob)
	}
	p.shot("trained-drawn")
	expectNoAxe(t, tab, "the pad after training")
}
