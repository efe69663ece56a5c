//go:build !js

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/op"
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

// nodeNamed returns the first node of the native step whose op is name.
func nodeNamed(t *testing.T, ref *app.Playground, name string) int {
	t.Helper()
	for _, n := range ref.Stepper().Nodes() {
		if n.Op != nil && n.Op.Name == name {
			return n.ID
		}
	}
	t.Fatalf("the CNN has no %s node", name)
	return -1
}

// example returns example ex's slice of an [N C H W] tensor.
func example(v *tensor.Tensor, ex int) *tensor.Tensor {
	per := len(v.Data) / v.Shape[0]
	return &tensor.Tensor{Shape: v.Shape[1:], Data: v.Data[ex*per : (ex+1)*per]}
}

// inputGrad is dL/dx for the step on b, computed natively without the
// page's code: the model's loss program on a session whose inputs want a
// gradient.
func inputGrad(t *testing.T, m *nn.Model, b app.Batch) *tensor.Tensor {
	t.Helper()
	s := autograd.NewSession()
	x := &tensor.Tensor{Shape: append(tensor.Shape{b.X.Shape[0]}, m.Seq.Input()...), Data: b.X.Data}
	in := []op.Value{s.Param(x, "x"), s.Input(b.Y, "y")}
	for i, p := range m.Seq.Params() {
		in = append(in, s.Param(m.Params[i], p.Name))
	}
	loss := m.LossProgram(nn.Train, 1)(s, in)
	var g autograd.Grads
	if err := s.Backward(loss, &g); err != nil {
		t.Fatal(err)
	}
	return g.Of(0)
}

// TestImagesOnTheTape steps a small CNN forward and backward as a person
// would, at both screen sizes: the feature maps, kernels and gradients are
// drawn as images holding the engine's numbers; the conv2d card at one
// position has the engine's numbers; max_pool2d rings its argmax and routes
// dY to it alone; the input's gradient image is dL/dx; and a digit drawn on
// the pad with pointer events becomes the example the tape steps on.
func TestImagesOnTheTape(t *testing.T) {
	for _, size := range [][2]int64{{1280, 720}, {1024, 768}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			p, ref := openCNN(t, size[0], size[1])
			p.noPageError()
			s := ref.Stepper()
			s.ToEnd()
			conv, pool := nodeNamed(t, ref, "conv2d"), nodeNamed(t, ref, "max_pool2d")
			if got, want := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)), len(s.Nodes()); got != want {
				t.Fatalf("the tape has %d nodes, the engine %d", got, want)
			}
			// Forward: every image node shows the engine's value for example 1.
			p.clickAndRedraw("to-backward")
			for _, n := range s.Nodes() {
				if !app.IsImage(n.Shape) {
					continue
				}
				g, _ := app.NodeGrid(n, 0)
				sel := fmt.Sprintf(`#node-%d .strip.val`, n.ID)
				cells := int(p.num(`document.querySelectorAll("` + sel + ` rect[data-k]").length`))
				if want := len(g.Offsets) * g.H * g.W; cells != want {
					t.Errorf("node %d %v: %d image cells, want %d", n.ID, n.Shape, cells, want)
				}
				want := example(s.Value(n.ID), 0)
				if app.IsKernel(n) {
					want = s.Value(n.ID)
				}
				if err := sameNumbers(p.valuesOf(sel), want); err != nil {
					t.Errorf("node %d's value images: %v", n.ID, err)
				}
			}
			// Backward, one step at a time, until the conv has run its VJP.
			for !p.hasClass(nodeID(conv), "ran") {
				p.clickAndRedraw("step")
			}
			p.do("inspecting the conv", chromedp.Click(chromedp.ID(nodeID(conv))))
			p.waitFor(`document.getElementById("insp-window") !== null`, "the conv's window card")
			checkConvCard(t, p, ref, conv)
			if err := sameNumbers(p.valuesOf(fmt.Sprintf(`#node-%d .strip.grad`, conv)), example(s.Grad(conv), 0)); err != nil {
				t.Errorf("the conv's gradient images: %v", err)
			}
			p.shot("images-conv-backward")
			// A click on a pixel of the conv's value picks the position the card explains.
			p.do("picking a pixel", chromedp.Click(chromedp.CSS(`#insp-value rect[data-k="10"]`)))
			p.waitFor(`document.getElementById("insp-window").dataset.flat === "10"`, "the card at the clicked pixel")
			checkConvCard(t, p, ref, conv)
			p.js(`document.querySelector('#insp-window figure[data-field="3"]').scrollIntoView()`)
			p.shot("images-conv-card")

			p.do("inspecting the max pool", chromedp.Click(chromedp.ID(nodeID(pool))))
			p.waitFor(`document.getElementById("insp-window").dataset.op === "max_pool2d"`, "the pool's window card")
			checkPoolCard(t, p, ref, pool)
			p.js(`document.getElementById("insp-window").scrollIntoView()`)
			p.shot("images-pool-card")

			// The saliency map: the input's gradient image is dL/dx.
			p.do("inspecting the input", chromedp.Click(chromedp.ID(nodeID(0))))
			p.waitFor(`document.getElementById("insp-grad") !== null`, "the saliency map")
			dx := inputGrad(t, ref.Model(), ref.Batch())
			if err := sameNumbers(p.values("insp-grad"), dx); err != nil {
				t.Errorf("the saliency map: %v", err)
			}
			if err := sameNumbers(p.valuesOf(`#node-0 .strip.grad`), example(dx, 0)); err != nil {
				t.Errorf("the input's gradient image on the tape: %v", err)
			}
			p.shot("images-saliency")

			// Choosing example 2 draws its images.
			chooseExample(p, 1)
			if err := sameNumbers(p.valuesOf(fmt.Sprintf(`#node-%d .strip.val`, conv)), example(s.Value(conv), 1)); err != nil {
				t.Errorf("the conv's images of example 2: %v", err)
			}
			if err := sameNumbers(p.valuesOf(`#node-0 .strip.grad`), example(dx, 1)); err != nil {
				t.Errorf("the saliency map of example 2: %v", err)
			}
			chooseExample(p, 0)

			drawDigit(t, p, ref)
			p.noPageError()
		})
	}
}

// chooseExample picks example k (from 0) as the one the images show.
func chooseExample(p *pgTab, k int) {
	p.t.Helper()
	n := p.redraws()
	p.js(fmt.Sprintf(`(e => { e.value = "%d"; e.dispatchEvent(new Event("change")); })(document.getElementById("example"))`, k))
	p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "a redraw for the example")
}

// valuesOf reads the data-values of the element sel matches.
func (p *pgTab) valuesOf(sel string) []float64 {
	p.t.Helper()
	id := p.js(`(e => e ? (e.id = e.id || "probe-" + Math.random().toString(36).slice(2)) : "missing")(document.querySelector("` + sel + `"))`)
	if id == "missing" {
		p.t.Fatalf("%s is not shown", sel)
	}
	return p.values(id)
}

// checkConvCard holds the conv card's numbers to the engine's.
func checkConvCard(t *testing.T, p *pgTab, ref *app.Playground, conv int) {
	t.Helper()
	s := ref.Stepper()
	flat := int(p.num(`document.getElementById("insp-window").dataset.flat`))
	y, dy := s.Value(conv), s.Grad(conv)
	if got := p.num(`document.getElementById("insp-window").dataset.value`); got != y.Data[flat] {
		t.Errorf("the card's Y[%d] = %v, the engine's %v", flat, got, y.Data[flat])
	}
	if got := p.num(`document.getElementById("insp-window").dataset.dy`); got != dy.Data[flat] {
		t.Errorf("the card's dY[%d] = %v, the engine's %v", flat, got, dy.Data[flat])
	}
	c, _ := s.WindowAt(conv, flat)
	n := s.Nodes()[conv]
	x, w := s.Value(n.Parents[0]), s.Value(n.Parents[1])
	for field, want := range map[int]func(app.WindowTerm) float64{
		0: func(tm app.WindowTerm) float64 { return x.Data[tm.XIndex] },
		1: func(tm app.WindowTerm) float64 { return w.Data[tm.WIndex] },
		2: func(tm app.WindowTerm) float64 { return w.Data[tm.WIndex] * x.Data[tm.XIndex] },
		3: func(tm app.WindowTerm) float64 { return dy.Data[flat] * w.Data[tm.WIndex] },
		4: func(tm app.WindowTerm) float64 { return dy.Data[flat] * x.Data[tm.XIndex] },
	} {
		cells := p.js(fmt.Sprintf(`[...document.querySelectorAll('#insp-window figure[data-field="%d"] td[data-term]')].map(td => td.dataset.term + ":" + td.dataset.v).join(" ")`, field))
		seen := 0
		for _, f := range strings.Fields(cells) {
			k, v, _ := strings.Cut(f, ":")
			ki, _ := strconv.Atoi(k)
			got, _ := strconv.ParseFloat(v, 64)
			if ki >= len(c.Terms) || c.Terms[ki].Pad || got != want(c.Terms[ki]) {
				t.Errorf("table %d, term %s: the page shows %s", field, k, v)
			}
			seen++
		}
		if seen == 0 {
			t.Errorf("the card has no table %d", field)
		}
	}
	if eq := p.js(`document.getElementById("insp-window-eq").textContent`); !strings.HasSuffix(eq, "= "+app.Num(y.Data[flat])) {
		t.Errorf("the card's equation %q does not end in the engine's Y", eq)
	}
}

// checkPoolCard: one argmax ringed, the window's maximum, and dY routed to
// it alone.
func checkPoolCard(t *testing.T, p *pgTab, ref *app.Playground, pool int) {
	t.Helper()
	s := ref.Stepper()
	flat := int(p.num(`document.getElementById("insp-window").dataset.flat`))
	if n := p.num(`document.querySelectorAll('#insp-window figure[data-field="0"] td.argmax').length`); n != 1 {
		t.Fatalf("%v cells ringed as the maximum, want 1", n)
	}
	y, dy := s.Value(pool), s.Grad(pool)
	if got := p.num(`document.querySelector('#insp-window figure[data-field="0"] td.argmax').dataset.v`); got != y.Data[flat] {
		t.Errorf("the ringed maximum is %v, the engine's Y[%d] = %v", got, flat, y.Data[flat])
	}
	routed := p.js(`[...document.querySelectorAll('#insp-window figure[data-field="3"] td')].map(td => (td.classList.contains("argmax") ? "*" : "") + td.dataset.v).join(" ")`)
	for _, f := range strings.Fields(routed) {
		v, _ := strconv.ParseFloat(strings.TrimPrefix(f, "*"), 64)
		want := 0.0
		if strings.HasPrefix(f, "*") {
			want = dy.Data[flat]
		}
		if v != want {
			t.Errorf("dX cells %q: want dY = %v at the maximum and 0 elsewhere", routed, dy.Data[flat])
			break
		}
	}
}

// drawDigit draws a "7" on the pad with pointer events and checks it
// becomes example 1, classified as the engine classifies it, and that the
// tape then steps on it.
func drawDigit(t *testing.T, p *pgTab, ref *app.Playground) {
	t.Helper()
	stroke := []app.Point{{X: 30, Y: 30}, {X: 80, Y: 30}, {X: 130, Y: 30}, {X: 110, Y: 70}, {X: 90, Y: 110}, {X: 75, Y: 140}}
	var ink app.Ink
	var js strings.Builder
	js.WriteString(`(() => { const c = document.getElementById("draw-canvas"); c.scrollIntoView(); const r = c.getBoundingClientRect();
		const at = (type, x, y) => c.dispatchEvent(new PointerEvent(type, {bubbles: true, pointerType: "pen", clientX: r.left + x, clientY: r.top + y}));`)
	for k, pt := range stroke {
		ink.Add(pt, k == 0)
		kind := "pointermove"
		if k == 0 {
			kind = "pointerdown"
		}
		fmt.Fprintf(&js, "at(%q, %v, %v);", kind, pt.X, pt.Y)
	}
	js.WriteString(`at("pointerup", 75, 140); })()`)
	n := p.redraws()
	p.js(js.String())
	p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "the tape recorded on the drawing")
	px := ink.Pixels(8)
	pr, err := ref.UseImage(0, px)
	if err != nil {
		t.Fatal(err)
	}
	if got := p.js(`document.getElementById("draw-result").dataset.class`); got != strconv.Itoa(pr.Class) {
		t.Errorf("the page predicts class %s, the engine %d (%s)", got, pr.Class, p.js(`document.getElementById("draw-result").textContent`))
	}
	p.clickAndRedraw("to-end")
	p.do("inspecting the input", chromedp.Click(chromedp.ID(nodeID(0))))
	p.waitFor(`document.getElementById("insp-value") !== null`, "the drawn input")
	x := p.values("insp-value")
	if err := sameNumbers(x[:64], &tensor.Tensor{Shape: tensor.Shape{64}, Data: px}); err != nil {
		t.Errorf("the drawing as the tape's input: %v", err)
	}
	s := ref.Stepper()
	s.ToEnd()
	r := ref.Recording()
	if err := sameNumbers(p.valuesOf(fmt.Sprintf(`#node-%d .strip.val`, nodeNamed(t, ref, "conv2d"))), example(s.Value(nodeNamed(t, ref, "conv2d")), 0)); err != nil {
		t.Errorf("the feature maps of the drawing: %v", err)
	}
	if got, want := p.js(fmt.Sprintf(`document.querySelector("#node-%d .strip-num").textContent`, r.Loss)), app.Num(s.Value(r.Loss).Data[0]); got != want {
		t.Errorf("the loss on the drawing reads %s, the engine's %s", got, want)
	}
	p.shot("images-drawn")
}
