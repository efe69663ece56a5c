//go:build !js

package e2e

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"

	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/static"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
	"tapelab/wasm/trainer"
)

// trainedDigitsCNN is the default CNN trained natively on digits for
// steps mini-batches, with its weights.
func trainedDigitsCNN(t *testing.T, steps int) *spec.Model {
	t.Helper()
	file, err := static.Digits()
	if err != nil {
		t.Fatal(err)
	}
	d := app.DefaultCNN(train.ExampleShape("digits"), 10)
	m := spec.New(d.Input, d.Loss, d.Layers...)
	m.Seed = d.Seed
	m.Dataset = train.DefaultData("digits")
	m.Optimizer = app.CNNOptimizer()
	m.BatchSize = app.CNNBatch
	s, err := trainer.New(m, nil, file)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Run(steps); err != nil {
		t.Fatal(err)
	}
	m.Params = s.Params()
	return m
}

// drawWithMouse draws strokes (in the pad's CSS pixels) on the drawing
// pad as a person does with a mouse: for each stroke the button goes down
// at its first point, the mouse moves through the others and the button
// comes up at the last. It returns the ink the page receives: each point
// as the page measures it from the canvas's corner.
func drawWithMouse(p *pgTab, strokes [][]app.Point) app.Ink {
	p.t.Helper()
	p.js(`document.getElementById("draw-canvas").scrollIntoView({block: "center"})`)
	var left, top float64
	if _, err := fmt.Sscan(p.js(`(r => r.left + " " + r.top)(document.getElementById("draw-canvas").getBoundingClientRect())`), &left, &top); err != nil {
		p.t.Fatal(err)
	}
	var ink app.Ink
	for _, s := range strokes {
		for k, pt := range s {
			// Whole viewport pixels, as a mouse reports them.
			x, y := float64(int(left+pt.X)), float64(int(top+pt.Y))
			ev := input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: x, Y: y, Button: input.MouseButtonLeft, Buttons: 1}
			if k == 0 {
				ev.Type, ev.ClickCount = input.DispatchMouseEventTypeMousePressed, 1
			}
			if _, err := chromedp.Call(p.tab, input.DispatchMouseEvent, ev); err != nil {
				p.t.Fatalf("drawing: %v", err)
			}
			ink.Add(app.Point{X: x - left, Y: y - top}, k == 0)
		}
		last := ink.Strokes[len(ink.Strokes)-1]
		n := p.redraws()
		ev := input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: last[len(last)-2] + left, Y: last[len(last)-1] + top, Button: input.MouseButtonLeft, ClickCount: 1}
		if _, err := chromedp.Call(p.tab, input.DispatchMouseEvent, ev); err != nil {
			p.t.Fatalf("lifting the pen: %v", err)
		}
		p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "the tape recorded on the stroke")
	}
	return ink
}

// TestDrawnDigit opens a link to the default CNN trained on digits, draws
// a 7 on the pad with the mouse, stroke by stroke, and checks that the
// drawing, downsampled as the engine downsamples the same strokes, is the
// inspected example on the tape, classified as the engine classifies it;
// then that its link, opened in a fresh browser, shows the same drawing
// with the same numbers.
func TestDrawnDigit(t *testing.T) {
	m := trainedDigitsCNN(t, 300)
	frag, err := link.Encode(&link.State{Model: m})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, playgroundHandler(t))
	tab := newBrowserFor(t, 2*time.Minute)
	p := &pgTab{t: t, tab: tab, size: "1280x720"}
	p.do("sizing", chromedp.EmulateViewport(1280, 720))
	openPage(t, tab, srv.URL+"/#"+frag)
	p.noPageError()
	p.waitFor(`document.getElementById("drawpad").hidden === false`, "the drawing pad")
	const ex = 2
	chooseExample(p, ex)
	seven := [][]app.Point{
		{{X: 34, Y: 32}, {X: 60, Y: 30}, {X: 90, Y: 29}, {X: 124, Y: 30}, {X: 112, Y: 62}, {X: 98, Y: 96}, {X: 86, Y: 130}},
		{{X: 68, Y: 80}, {X: 92, Y: 80}, {X: 118, Y: 79}},
	}
	ink := drawWithMouse(p, seven)
	px := ink.Pixels(train.ImageSide)

	// The link carries the strokes the page received: the mouse's points.
	url := settledLink(t, tab)
	st, err := link.Decode(url[strings.Index(url, "#"):])
	if err != nil {
		t.Fatal(err)
	}
	if st.Drawing == nil || st.Drawing.Example != ex || !reflect.DeepEqual(st.Drawing.Ink, ink) {
		t.Fatalf("the link's drawing is %+v, want example %d drawn with %v", st.Drawing, ex, ink)
	}

	// The engine's step on the same batch with the drawing as example 2.
	ref := state.New(link.DefaultDataset)
	file, _ := static.Digits()
	ref.AddDataFile("digits", file)
	drawing := *st.Drawing
	st.Drawing = nil
	ref.Replace(st)
	if err := ref.Opened(); err != nil {
		t.Fatal(err)
	}
	pr, err := ref.Model().UseImage(ex, px)
	if err != nil {
		t.Fatal(err)
	}
	checkDrawn(t, p, ref.Model(), ex, px, pr)
	canvas := p.js(`document.getElementById("draw-canvas").toDataURL()`)
	p.shot("digit-drawn")

	// The link in a fresh browser: the same drawing, the same numbers.
	tab2 := newBrowser(t)
	q := &pgTab{t: t, tab: tab2, size: "1024x768"}
	q.do("sizing", chromedp.EmulateViewport(1024, 768))
	st.Drawing = &drawing
	again, err := link.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	openPage(t, tab2, srv.URL+"/#"+again)
	q.noPageError()
	q.waitFor(`document.getElementById("draw-result").dataset.class !== undefined`, "the drawing's prediction")
	if got := q.js(`document.getElementById("example").value`); got != strconv.Itoa(ex) {
		t.Errorf("the fresh page shows example %s, want the drawing, example %d", got, ex)
	}
	if q.js(`document.getElementById("draw-canvas").toDataURL()`) != canvas {
		t.Error("the fresh page's pad shows another drawing")
	}
	checkDrawn(t, q, ref.Model(), ex, px, pr)
	q.js(`document.getElementById("draw-canvas").scrollIntoView({block: "center"})`)
	q.shot("digit-drawn")
}

// checkDrawn checks the page p against the engine's step ref with the
// drawing px as example ex, classified as pr: the prediction and its
// class name, the tape's input image and the inspector's input, and the
// loss at the end of the tape.
func checkDrawn(t *testing.T, p *pgTab, ref *app.Playground, ex int, px []float64, pr app.Prediction) {
	t.Helper()
	if got := p.js(`document.getElementById("draw-result").dataset.class`); got != strconv.Itoa(pr.Class) {
		t.Errorf("the page predicts class %s, the engine %d (%s)", got, pr.Class, p.js(`document.getElementById("draw-result").textContent`))
	}
	if got := p.js(`document.getElementById("draw-result").textContent`); !strings.HasPrefix(got, "Predicted: "+strconv.Itoa(pr.Class)+" (") {
		t.Errorf("the pad says %q, want the predicted digit %d", got, pr.Class)
	}
	p.clickAndRedraw("to-end")
	if err := sameNumbers(p.valuesOf(`#node-0 .strip.val`), &tensor.Tensor{Shape: tensor.Shape{len(px)}, Data: px}); err != nil {
		t.Errorf("the tape's input image: %v", err)
	}
	p.clickNode(nodeID(0))
	p.waitFor(`document.getElementById("insp-node").dataset.node === "0"`, "the inspector to show x")
	x := p.values("insp-value")
	n := len(px)
	if len(x) < (ex+1)*n {
		t.Fatalf("the inspector's x holds %d numbers", len(x))
	}
	if err := sameNumbers(x[ex*n:(ex+1)*n], &tensor.Tensor{Shape: tensor.Shape{len(px)}, Data: px}); err != nil {
		t.Errorf("the inspector's example %d: %v", ex, err)
	}
	s := ref.Stepper()
	s.ToEnd()
	r := ref.Recording()
	if got, want := p.js(fmt.Sprintf(`document.querySelector("#node-%d .strip-num").textContent`, r.Loss)), app.Num(s.Value(r.Loss).Data[0]); got != want {
		t.Errorf("the loss with the drawing reads %s, the engine's %s", got, want)
	}
}
