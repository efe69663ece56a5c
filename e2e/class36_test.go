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

// TestDigitsSwitchesToAFittingModel is the class's case at 1280x720: on
// the default MLP, Train → Data: digits. The page is not left in an error
// state: the model becomes the default CNN at once, said beside the menu
// with an Undo; the figures and counts are digits' (no loss or example
// count of the dataset before), and the test images are drawn. Undo brings
// back the dataset and the model there were, without an error.
func TestDigitsSwitchesToAFittingModel(t *testing.T) {
	tab := newBrowserFor(t, 2*time.Minute)
	srv := startServer(t, playgroundHandler(t))
	p := &pgTab{t: t, tab: tab, size: "1280x720"}
	p.do("loading the playground", chromedp.EmulateViewport(1280, 720), chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]")))
	p.click("view-train")
	p.click("train-step") // a loss and counts of the default dataset on screen
	p.waitFor(`+document.getElementById("train-view").dataset.steps === 1`, "one training step")
	before := p.js(`document.getElementById("train-dataset").value`)
	beforeCounts := p.js(`document.querySelector(".train-counts").textContent`)
	beforeLoss := p.js(`document.getElementById("train-loss").textContent`)

	setValue(t, p.tab, "#train-dataset", "digits")
	p.waitFor(`document.querySelector(".input-layer .layer-shape").textContent === "[1 8 8]"`, "the input to become [1 8 8]")
	p.waitFor(`+document.getElementById("train-grid").dataset.shown > 0`, "the test images")
	msg := p.js(`document.getElementById("train-msg").hidden ? "" : document.getElementById("train-msg").textContent`)
	errs := p.js(`document.querySelectorAll("#layers .layer-error").length`)
	if msg != "" || errs != "0" {
		t.Fatalf("after choosing digits the page shows %q with %s layer errors", msg, errs)
	}
	if !strings.Contains(p.js(`document.getElementById("layer-0").textContent`), "conv2d") {
		t.Errorf("the model is not the default CNN: layer 0 is %q", p.js(`document.getElementById("layer-0").textContent`))
	}
	if p.js(`(e => e !== null && !e.hidden && e.offsetParent !== null)(document.getElementById("train-switched"))`) != "true" {
		t.Fatal("no notice says the model was switched")
	}
	counts := p.js(`document.querySelector(".train-counts").textContent`)
	if counts == beforeCounts || !strings.Contains(counts, "899 test") {
		t.Errorf("the counts say %q on digits (before: %q)", counts, beforeCounts)
	}
	// The figures are the new session's, on the 1797 digits, at its step 0.
	if got, want := p.js(`document.getElementById("train-loss").textContent`), p.num(`+document.getElementById("train-view").dataset.trainLoss`); got == beforeLoss || got != strconv.FormatFloat(want, 'f', 4, 64) {
		t.Errorf("the training loss shows %q on digits (before: %q; the session's %v)", got, beforeLoss, want)
	}
	if got := p.js(`document.getElementById("train-view").dataset.examples + " " + document.getElementById("train-view").dataset.steps`); got != "1797 0" {
		t.Errorf("the view's examples and steps are %q, want 1797 0", got)
	}
	p.shot("digits-switched")
	expectNoAxe(t, tab, "digits chosen on the MLP")

	p.click("train-switched-undo")
	p.waitFor(`document.querySelector(".input-layer .layer-shape").textContent === "[2]"`, "the input to be [2] again")
	p.waitFor(`document.getElementById("train-dataset").value === "`+before+`"`, "the dataset before")
	if s := p.js(`document.getElementById("train-switched").hidden`); s != "true" {
		t.Error("the notice stays after Undo")
	}
	if errs := p.js(`document.querySelectorAll("#layers .layer-error").length`); errs != "0" || strings.Contains(p.js(`document.getElementById("layer-0").textContent`), "conv2d") {
		t.Errorf("after Undo: layer 0 is %q, %s layer errors", p.js(`document.getElementById("layer-0").textContent`), errs)
	}
	if got := p.js(`document.querySelector(".train-counts").textContent`); got != beforeCounts {
		t.Errorf("after Undo the counts say %q, want %q", got, beforeCounts)
	}
	p.shot("digits-undone")
	expectNoAxe(t, tab, "digits undone")
}
