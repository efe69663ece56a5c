//go:build !js

package e2e

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// pgTab is the playground loaded in one browser tab, driven as a person
// would: clicks, typing and keys.
type pgTab struct {
	t    testing.TB
	tab  context.Context
	size string // "1280x720", for screenshot names
}

// openPlayground loads the playground at the given window size and waits
// until Go has drawn the tape.
func openPlayground(t testing.TB, w, h int64) *pgTab {
	t.Helper()
	return openPlaygroundOn(t, w, h, playgroundHandler(t), 90*time.Second)
}

// openPlaygroundOn is openPlayground on the handler given, in a tab good
// for d.
func openPlaygroundOn(t testing.TB, w, h int64, handler http.Handler, d time.Duration) *pgTab {
	t.Helper()
	tab := newBrowserFor(t, d)
	srv := startServer(t, handler)
	if err := chromedp.Do(tab, chromedp.EmulateViewport(w, h), chromedp.Navigate(srv.URL),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]"))); err != nil {
		t.Fatalf("loading the playground: %v\n%s", err, pageError(tab))
	}
	return &pgTab{t: t, tab: tab, size: fmt.Sprintf("%dx%d", w, h)}
}

// js evaluates expr in the page and returns its value as a string.
func (p *pgTab) js(expr string) string {
	p.t.Helper()
	s, err := chromedp.Run(p.tab, chromedp.Evaluate[string](`String(`+expr+`)`))
	if err != nil {
		p.t.Fatalf("evaluating %s: %v\n%s", expr, err, pageError(p.tab))
	}
	return s
}

// num evaluates expr as a number.
func (p *pgTab) num(expr string) float64 {
	p.t.Helper()
	v, err := strconv.ParseFloat(p.js(expr), 64)
	if err != nil {
		p.t.Fatalf("%s is not a number: %v", expr, err)
	}
	return v
}

// waitFor polls cond (a JS expression) for up to 5 s.
func (p *pgTab) waitFor(cond, what string) {
	p.t.Helper()
	if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(5*time.Second))); err != nil {
		p.t.Fatalf("waiting for %s (%s): %v\n%s", what, cond, err, pageError(p.tab))
	}
}

func (p *pgTab) do(what string, actions ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	as := make([]chromedp.Action[chromedp.Void], len(actions))
	copy(as, actions)
	if err := chromedp.Do(p.tab, as...); err != nil {
		p.t.Fatalf("%s: %v\n%s", what, err, pageError(p.tab))
	}
}

// redraws counts the playground's redraws so far.
func (p *pgTab) redraws() int {
	return int(p.num(`document.getElementById("playground").dataset.redraws`))
}

// click clicks the control id, opening the menu or the panel that holds
// it first.
func (p *pgTab) click(id string) {
	p.t.Helper()
	reveal(p.t, p.tab, "#"+id, false)
	p.do("clicking #"+id, chromedp.Click(chromedp.ID(id)))
}

// clickNode clicks the tape's node id. A panel open as a drawer over the
// tape (on a screen without room for columns) is closed first, by its
// toggle, as a person would to see the tape.
func (p *pgTab) clickNode(id string) {
	p.t.Helper()
	for _, tg := range []string{"panel-editor", "panel-inspector"} {
		if p.js(`(b => b !== null && b.getAttribute("aria-expanded") === "true" && !matchMedia("(min-width: 1240px)").matches)(document.getElementById("`+tg+`"))`) == "true" {
			p.do("closing the drawer", chromedp.Click(chromedp.ID(tg)))
		}
	}
	p.panTo(id)
	p.do("clicking the node #"+id, chromedp.Click(chromedp.ID(id)))
}

// panTo drags the tape with the mouse, as a person would, until the middle
// of node id is in view (a tape too long to fit at a readable size shows
// only part of itself). Each drag stays inside the tape's region, as a
// person's would: a node far away on a phone takes dozens. When three
// drags in a row leave the node where it was (on a loaded machine a drag
// has been seen to select text instead of panning), it presses Fit, as a
// person would, and goes on from the whole tape.
func (p *pgTab) panTo(id string) {
	p.t.Helper()
	var lastX, lastY float64
	still, fitted := 0, false
	for range 80 {
		s := p.js(`(() => {
			const e = document.getElementById("` + id + `"), r = e.getBoundingClientRect();
			const t = document.getElementById("tape").getBoundingClientRect();
			const x = r.x + r.width / 2, y = r.y + r.height / 2, h = document.elementFromPoint(x, y);
			if (h !== null && e.contains(h)) return "";
			return [t.x + t.width / 2, t.y + t.height / 2, t.width, t.height, x, y].join(" ");
		})()`)
		if s == "" {
			return
		}
		var cx, cy, w, h, x, y float64
		if _, err := fmt.Sscan(s, &cx, &cy, &w, &h, &x, &y); err != nil {
			p.t.Fatalf("where node #%s is: %q: %v", id, s, err)
		}
		if math.Abs(x-lastX) < 1 && math.Abs(y-lastY) < 1 {
			still++
		} else {
			still = 0
		}
		lastX, lastY = x, y
		if still >= 3 && !fitted {
			p.t.Logf("node #%s did not move in three drags: pressing Fit", id)
			p.js(`(() => { getSelection().removeAllRanges(); return ""; })()`)
			p.click("fit")
			fitted, still = true, 0
			continue
		}
		dx := math.Max(-w/2+8, math.Min(w/2-8, cx-x))
		dy := math.Max(-h/2+8, math.Min(h/2-8, cy-y))
		p.drag(cx, cy, cx+dx, cy+dy)
	}
	p.shot("out-of-view-" + id)
	p.t.Fatalf("node #%s stays out of view after panning the tape (screenshots/stepping-%s-out-of-view-%s.png)", id, p.size, id)
}

// drag presses the mouse at (x0, y0), moves it to (x1, y1) in steps and
// lets go.
func (p *pgTab) drag(x0, y0, x1, y1 float64) {
	p.t.Helper()
	const steps = 8
	evs := []*input.DispatchMouseEventParams{{Type: input.DispatchMouseEventTypeMousePressed, X: x0, Y: y0, Button: input.MouseButtonLeft, Buttons: 1, ClickCount: 1}}
	for i := 1; i <= steps; i++ {
		f := float64(i) / steps
		evs = append(evs, &input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseMoved, X: x0 + f*(x1-x0), Y: y0 + f*(y1-y0), Button: input.MouseButtonLeft, Buttons: 1})
	}
	evs = append(evs, &input.DispatchMouseEventParams{Type: input.DispatchMouseEventTypeMouseReleased, X: x1, Y: y1, Button: input.MouseButtonLeft, Buttons: 0, ClickCount: 1})
	for _, ev := range evs {
		if _, err := chromedp.Call(p.tab, input.DispatchMouseEvent, *ev); err != nil {
			p.t.Fatalf("dragging the tape: %v", err)
		}
	}
}

// clickAndRedraw clicks the button id and waits for the views to redraw.
func (p *pgTab) clickAndRedraw(id string) {
	p.t.Helper()
	n := p.redraws()
	p.click(id)
	p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "a redraw after #"+id)
}

// key presses a key on the page and waits for a redraw when wait is set.
func (p *pgTab) key(k string, wait bool) {
	p.t.Helper()
	n := p.redraws()
	p.do("pressing "+k, chromedp.KeyEvent(k))
	if wait {
		p.waitFor(fmt.Sprintf(`+document.getElementById("playground").dataset.redraws > %d`, n), "a redraw after a key")
	}
}

// values reads the full-precision numbers a tensor view shows.
func (p *pgTab) values(id string) []float64 {
	p.t.Helper()
	s := p.js(fmt.Sprintf(`(e => e ? e.dataset.values : "missing")(document.getElementById(%q))`, id))
	if s == "missing" {
		p.t.Fatalf("#%s is not shown", id)
	}
	return parseValues(p.t, id, s)
}

// parseValues reads the comma-separated numbers s of element id's
// data-values attribute.
func parseValues(t testing.TB, id, s string) []float64 {
	t.Helper()
	var out []float64
	for _, f := range strings.Split(s, ",") {
		v, err := strconv.ParseFloat(f, 64)
		if err != nil {
			t.Fatalf("#%s holds %q", id, s)
		}
		out = append(out, v)
	}
	return out
}

// addLayer chooses typ in the editor's menu and adds it, as a person
// would: the new layer goes before the output layer.
func (p *pgTab) addLayer(typ string, layers int) {
	p.t.Helper()
	p.do("choosing "+typ, chromedp.SetValue(chromedp.ID("add-type"), typ))
	p.clickAndRedraw("add-layer")
	p.waitFor(fmt.Sprintf(`document.getElementById("layer-%d") !== null`, layers-1), "layer "+strconv.Itoa(layers-1))
}

// hasClass reports whether the element id has class c.
func (p *pgTab) hasClass(id, c string) bool {
	return p.js(fmt.Sprintf(`document.getElementById(%q).classList.contains(%q)`, id, c)) == "true"
}

// typeInto replaces a field's text and leaves it with Tab, as a person does.
func (p *pgTab) typeInto(id, s string) {
	p.t.Helper()
	reveal(p.t, p.tab, "#"+id, false)
	p.do("typing into #"+id, chromedp.Click(chromedp.ID(id)),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(s+kb.Tab))
}

func (p *pgTab) shot(name string) {
	p.t.Helper()
	png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Fatalf("screenshot: %v", err)
	}
	saveScreenshot(p.t, "stepping-"+p.size+"-"+name, png)
}

// noPageError fails when the page shows its error box.
func (p *pgTab) noPageError() {
	p.t.Helper()
	if s := p.js(`document.getElementById("error").hidden ? "" : document.getElementById("error").textContent`); s != "" {
		p.t.Fatalf("the page shows an error: %s", s)
	}
}

// reference is the same step computed natively by the same engine.
func reference(t *testing.T, doc app.Doc, modes app.Modes) *app.Playground {
	t.Helper()
	tr, _, err := train.Generate(train.DefaultData("reg-plane"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := app.MiniBatch(tr.X, tr.Y, 4, doc.Loss)
	if err != nil {
		t.Fatal(err)
	}
	pg, err := app.New(doc, b)
	if err != nil {
		t.Fatal(err)
	}
	if err := pg.SetModes(modes); err != nil {
		t.Fatal(err)
	}
	return pg
}

// oneShotGrads runs the engine's one-shot backward pass natively.
func oneShotGrads(t testing.TB, pg *app.Playground) *autograd.Grads {
	t.Helper()
	r, err := app.Record(pg.Model().Clone(), pg.Batch(), app.Modes{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var g autograd.Grads
	if err := r.Tape.BackwardDense(r.Loss, tensor.Scalar(1), &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

// sameNumbers compares what the page shows with the native engine's numbers
// (relative 1e-12: the page computes in wasm, whose math library may differ
// from amd64's in the last bit).
func sameNumbers(got []float64, want *tensor.Tensor) error {
	if want == nil {
		return fmt.Errorf("the engine has no tensor here, the page shows %v", got)
	}
	if len(got) != len(want.Data) {
		return fmt.Errorf("the page shows %d numbers, the engine has %d", len(got), len(want.Data))
	}
	for i, w := range want.Data {
		if math.Abs(got[i]-w) > 1e-12*math.Max(1, math.Abs(w)) {
			return fmt.Errorf("element %d: page %v, engine %v", i, got[i], w)
		}
	}
	return nil
}

// countClass counts tape nodes with class c.
func (p *pgTab) countClass(c string) int {
	return int(p.num(fmt.Sprintf(`document.querySelectorAll("#tape .node.%s").length`, c)))
}

func countOp(pg *app.Playground, name string) int {
	k := 0
	for _, n := range pg.Stepper().Nodes() {
		if n.Op != nil && n.Op.Name == name {
			k++
		}
	}
	return k
}

// stepEveryNode steps the page forward through every node and backward
// through every VJP, stepping the reference rs (the same step run
// natively) along: the inspector must show each node's value and gradient
// as rs computes them, each chain-rule card the catalogue's rule, and the
// counters the whole pass. after, when not nil, checks more after each
// step: forward is the pass, k the step's index in it, node the node it
// handled.
func (p *pgTab) stepEveryNode(rs *app.Stepper, after func(forward bool, k, node int)) {
	t := p.t
	t.Helper()
	nodes := rs.Nodes()
	if got := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)); got != len(nodes) {
		t.Fatalf("the tape shows %d nodes, the engine records %d", got, len(nodes))
	}
	c := rs.Counts()
	for i := 0; i < c.ForwardTotal; i++ {
		p.clickAndRedraw("step")
		rs.Step()
		if got := p.js(`document.getElementById("insp-node").dataset.node`); got != strconv.Itoa(i) {
			t.Fatalf("after forward step %d the inspector shows node %s", i, got)
		}
		if err := sameNumbers(p.values("insp-value"), rs.Value(i)); err != nil {
			t.Errorf("node %d (%s) value: %v", i, nodes[i].Title(), err)
		}
		if after != nil {
			after(true, i, i)
		}
	}
	if s := p.js(`document.getElementById("count-forward").textContent`); s != fmt.Sprintf("forward %d/%d", c.ForwardTotal, c.ForwardTotal) {
		t.Errorf("forward counter says %q", s)
	}
	k := 0
	for _, j := range rs.Order() {
		if rs.Quiet(j) {
			continue // it runs within the step next to it, not as a step
		}
		p.clickAndRedraw("step")
		rs.Step()
		if got := p.js(`document.getElementById("insp-node").dataset.node`); got != strconv.Itoa(j) {
			t.Fatalf("backward step %d: the inspector shows node %s, the engine ran node %d", k, got, j)
		}
		if err := sameNumbers(p.values("insp-grad"), rs.Grad(j)); err != nil {
			t.Errorf("node %d (%s) gradient: %v", j, nodes[j].Title(), err)
		}
		if rule := p.js(`document.querySelector("#insp-rule .rule").textContent`); rule != nodes[j].Op.Rule {
			t.Errorf("node %d: the card's rule %q, the catalogue's %q", j, rule, nodes[j].Op.Rule)
		}
		if after != nil {
			after(false, k, j)
		}
		k++
	}
	if s := p.js(`document.getElementById("count-backward").textContent`); s != fmt.Sprintf("backward %d/%d", c.BackwardTotal, c.BackwardTotal) {
		t.Errorf("backward counter says %q", s)
	}
}

// paramGrads checks every parameter's gradient, as the inspector shows it
// when its node is clicked, against the engine's one-shot backward pass of
// the reference step.
func (p *pgTab) paramGrads(ref *app.Playground) {
	t := p.t
	t.Helper()
	g := oneShotGrads(t, ref)
	for i, n := range ref.Stepper().Nodes() {
		if n.Kind != autograd.Param {
			continue
		}
		p.clickNode("node-" + strconv.Itoa(i))
		p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, i), "the inspector to show "+n.Title())
		if err := sameNumbers(p.values("insp-grad"), g.Of(i)); err != nil {
			t.Errorf("%s: shown gradient vs one-shot backward: %v", n.Title(), err)
		}
	}
}

// passes opens the menu, as a person does to read the comparison of the
// dense and single-output passes (the page works it out when the menu
// opens), and returns that line's text ("text") and its data- attributes;
// a menu it opened it closes again.
func (p *pgTab) passes() map[string]string {
	p.t.Helper()
	m, err := chromedp.Run(p.tab, chromedp.Evaluate[map[string]string](`(() => {
		const b = document.getElementById("menu-toggle"), opened = b.getAttribute("aria-expanded") !== "true";
		if (opened) b.click();
		const e = document.getElementById("passes"), r = { text: e.textContent, ...e.dataset };
		if (opened) b.click();
		return r;
	})()`))
	if err != nil {
		p.t.Fatalf("reading the passes line: %v", err)
	}
	return m
}
