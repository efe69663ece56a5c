//go:build !js

package e2e

import (
	"fmt"
	"reflect"
	"strconv"
	"testing"

	"github.com/chromedp/chromedp"

	"tapelab/engine/train"
	"tapelab/wasm/link"
	"tapelab/wasm/trainer"
)

// TestOptimizersSideBySide compares optimizers in the training view as a
// person would, with the mouse at 1280×720 and by touch at 390×844: run 2
// switched on (momentum), run 3 set to Adam at 0.01, then five batches.
// Each run's loss in the chart's key equals, to the bit, the same run
// trained natively from the weights and settings the page's link carries
// (trainer.NewRuns), and the link carries the comparison: opened in a new
// tab, it shows the same three runs.
func TestOptimizersSideBySide(t *testing.T) {
	srv := startServer(t, playgroundHandler(t))
	for _, size := range []struct {
		w, h  int64
		touch bool
	}{{1280, 720, false}, {390, 844, true}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			tab := newBrowser(t)
			p := &pgTab{t: t, tab: tab, size: fmt.Sprintf("%dx%d", size.w, size.h)}
			p.do("opening the page", chromedp.EmulateViewport(size.w, size.h), chromedp.Navigate(srv.URL),
				chromedp.WaitVisible(chromedp.CSS("#tape [data-node]")))
			press := func(sel string) {
				if size.touch {
					p.tap(sel)
				} else {
					click(t, tab, sel)
				}
			}
			press("#view-train")
			p.waitFor(`!document.getElementById("train-view").hidden`, "the training view")
			if size.touch {
				press("#train-settings-toggle")
			}
			press("#train-compare summary")
			press("#cmp-on-2")
			setValue(t, tab, "#cmp-opt-3", "adam")
			setValue(t, tab, "#cmp-lr-3", "0.01")
			p.waitFor(`document.querySelectorAll("#train-runs li").length === 3`, "three runs in the chart's key")
			st, err := link.Decode(settledLinkHash(t, tab))
			if err != nil {
				t.Fatal(err)
			}
			adam := train.DefaultOptimizer("adam")
			adam.LR = 0.01
			if want := []train.OptimizerConfig{train.DefaultOptimizer("momentum"), adam}; !reflect.DeepEqual(st.Compare, want) {
				t.Fatalf("the link compares %+v, want %+v", st.Compare, want)
			}
			runs, err := trainer.NewRuns(st.Model, append([]train.OptimizerConfig{st.Model.Optimizer}, st.Compare...), nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			for k := 1; k <= 5; k++ {
				press("#train-step")
				p.waitFor(fmt.Sprintf(`document.getElementById("train-view").dataset.steps === "%d"`, k), "step "+strconv.Itoa(k))
			}
			for i, r := range runs {
				if _, err := r.Run(5); err != nil {
					t.Fatal(err)
				}
				if err := r.Measure(); err != nil {
					t.Fatal(err)
				}
				sel := fmt.Sprintf(`document.querySelector('#train-runs li[data-run="%d"]')`, i+1)
				if steps := p.js(sel + `.dataset.steps`); steps != "5" {
					t.Errorf("run %d shows %s steps, want 5", i+1, steps)
				}
				got, err := strconv.ParseFloat(p.js(sel+`.dataset.trainLoss`), 64)
				if want := r.Last().Train.Loss; err != nil || got != want {
					t.Errorf("run %d (%s): the page's training loss %v, natively %v", i+1, trainer.RunName(r.Spec().Optimizer), got, want)
				}
				if text := p.js(sel + `.textContent`); text != trainer.RunName(r.Spec().Optimizer)+": "+figure(r.Last().Train.Loss) {
					t.Errorf("run %d's key says %q", i+1, text)
				}
			}
			if runs[0].Last().Train.Loss == runs[2].Last().Train.Loss {
				t.Error("SGD and Adam show the same loss")
			}
			p.shot("compare")
			p.noPageError()

			// The link, opened in a new tab: the same runs, ready to train.
			other := newBrowser(t)
			openPage(t, other, srv.URL+"/"+settledLinkHash(t, tab))
			waitJS(t, other, `document.getElementById("cmp-on-2").checked && document.getElementById("cmp-on-3").checked && document.getElementById("cmp-opt-3").value === "adam"`)
			waitJS(t, other, `document.querySelectorAll("#train-runs li").length === 3`)
		})
	}
}

// figure is the training view's readout of a loss.
func figure(v float64) string { return strconv.FormatFloat(v, 'f', 4, 64) }
