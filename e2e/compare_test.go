//go:build !js

package e2e

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
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

// TestLossSurfaceOfTwoParameters opens a link to y = w·x + b on the sine
// data with SGD, momentum and Adam compared, trains them together for 40
// batches, and checks the loss surface: shown for this two-parameter
// model, its axes named, its square holding every run's path (each run's
// weights now, trained natively, inside it).
func TestLossSurfaceOfTwoParameters(t *testing.T) {
	m := twoParamModel()
	mo, adam := train.DefaultOptimizer("momentum"), train.DefaultOptimizer("adam")
	mo.LR, adam.LR = 0.1, 0.1
	st := &link.State{Model: m, View: link.ViewTrain, Compare: []train.OptimizerConfig{mo, adam}}
	frag, err := link.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, playgroundHandler(t))
	tab := newBrowser(t)
	p := &pgTab{t: t, tab: tab, size: "1280x720"}
	p.do("opening the link", chromedp.EmulateViewport(1280, 720), chromedp.Navigate(srv.URL+"/#"+frag))
	p.waitFor(`document.querySelectorAll("#train-runs li").length === 3`, "three runs")
	p.shot("loss-surface-open")
	t.Log(p.js(`document.getElementById("error").textContent`))
	if p.js(`String(document.getElementById("train-surface-box").hidden)`) != "false" {
		t.Fatalf("no loss surface for a model with two parameter values (message %q) %s", p.js(`document.getElementById("train-msg").textContent`), p.js(`document.getElementById("train-surface-box").outerHTML.slice(0, 300) + " | " + document.querySelector(".train-side").innerHTML.slice(0, 600)`))
	}
	if c := p.js(`document.querySelector("#train-surface-box figcaption").textContent`); !strings.Contains(c, "0.weight[0] (across) and 0.bias[0] (up)") {
		t.Errorf("the surface's caption says %q", c)
	}
	for k := 1; k <= 40; k++ {
		click(t, tab, "#train-step")
		p.waitFor(fmt.Sprintf(`document.getElementById("train-view").dataset.steps === "%d"`, k), "step "+strconv.Itoa(k))
	}
	runs, err := trainer.NewRuns(m, []train.OptimizerConfig{m.Optimizer, mo, adam}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var x0, x1, y0, y1 float64
	if _, err := fmt.Sscan(p.js(`document.getElementById("train-surface").dataset.bounds`), &x0, &x1, &y0, &y1); err != nil {
		t.Fatal(err)
	}
	for i, r := range runs {
		if _, err := r.Run(40); err != nil {
			t.Fatal(err)
		}
		tr := r.Trail()
		for _, q := range []trainer.Point{tr[0], tr[len(tr)-1]} {
			if q.X < x0 || q.X > x1 || q.Y < y0 || q.Y > y1 {
				t.Errorf("run %d passes (%v, %v), outside the surface drawn [%v, %v]×[%v, %v]", i+1, q.X, q.Y, x0, x1, y0, y1)
			}
		}
	}
	p.shot("loss-surface")
	p.noPageError()
}

// twoParamModel is y = w·x + b on the sine data, with SGD at 0.1.
func twoParamModel() *spec.Model {
	m := spec.New(tensor.Shape{1}, nn.MSE, nn.NewLinear(1))
	m.Seed = 3
	m.Dataset = train.DefaultData("sine")
	m.Optimizer.LR = 0.1
	return m
}
