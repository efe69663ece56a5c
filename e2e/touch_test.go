//go:build !js

package e2e

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"tapelab/engine/nn"
	"tapelab/wasm/link"
)

// openScreen loads the playground on device s (touch emulated when it
// has touch) and waits until Go has drawn the tape.
func openScreen(t testing.TB, s screen) *pgTab {
	t.Helper()
	return openScreenAt(t, s, "")
}

// openScreenAt is openScreen opening the link fragment frag.
func openScreenAt(t testing.TB, s screen, frag string) *pgTab {
	t.Helper()
	return openScreenFor(t, 90*time.Second, s, frag)
}

// openScreenFor is openScreenAt with a tab good for d.
func openScreenFor(t testing.TB, d time.Duration, s screen, frag string) *pgTab {
	t.Helper()
	return openScreenWith(t, d, s, frag, "")
}

// openScreenWith is openScreenFor with a script (when not "") that runs in
// the document before the page's own scripts.
func openScreenWith(t testing.TB, d time.Duration, s screen, frag, script string) *pgTab {
	t.Helper()
	tab := newBrowserFor(t, d)
	if script != "" {
		if _, err := chromedp.Call(tab, page.AddScriptToEvaluateOnNewDocument,
			page.AddScriptToEvaluateOnNewDocumentParams{Source: script}); err != nil {
			t.Fatal(err)
		}
	}
	srv := startServer(t, playgroundHandler(t))
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(s.scale)}
	if s.touch {
		opts = append(opts, chromedp.EmulateTouch, chromedp.EmulateMobile)
	}
	url := srv.URL + "/"
	if frag != "" {
		url += "#" + frag
	}
	if err := chromedp.Do(tab, chromedp.EmulateViewport(s.w, s.h, opts...), chromedp.Navigate(url),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]"))); err != nil {
		t.Fatalf("loading the playground at %v: %v\n%s", s, err, pageError(tab))
	}
	return &pgTab{t: t, tab: tab, size: s.String()}
}

// view is the tape's zoom and pan, read from the drawing's transform.
type view struct{ tx, ty, scale float64 }

func (p *pgTab) view() view {
	p.t.Helper()
	s := p.js(`document.querySelector("#tape .world").getAttribute("transform")`)
	var v view
	if _, err := fmt.Sscanf(s, "translate(%g %g) scale(%g)", &v.tx, &v.ty, &v.scale); err != nil {
		p.t.Fatalf("the tape's transform %q: %v", s, err)
	}
	return v
}

// tapeRect returns the tape's drawing region in the viewport, after
// scrolling it into view.
func (p *pgTab) tapeRect() (x, y, w, h float64) {
	p.t.Helper()
	s := p.js(`(() => { const t = document.getElementById("tape"); t.scrollIntoView({block: "nearest"});
	  const r = t.getBoundingClientRect(); return [r.left, r.top, r.width, r.height].join(" "); })()`)
	if _, err := fmt.Sscanf(s, "%g %g %g %g", &x, &y, &w, &h); err != nil {
		p.t.Fatalf("the tape's rect %q: %v", s, err)
	}
	return
}

// touch sends one touch event with the given fingers (x, y pairs, ids 0,
// 1, … in order); an end event has none.
func (p *pgTab) touch(typ input.DispatchTouchEventType, fingers ...[2]float64) {
	p.t.Helper()
	pts := make([]*input.TouchPoint, len(fingers))
	for i, f := range fingers {
		id := float64(i)
		pts[i] = &input.TouchPoint{X: f[0], Y: f[1], ID: &id}
	}
	if _, err := chromedp.Call(p.tab, input.DispatchTouchEvent, input.DispatchTouchEventParams{Type: typ, TouchPoints: pts}); err != nil {
		p.t.Fatalf("touch %s: %v", typ, err)
	}
}

// gesture moves fingers from their from positions to their to positions
// in steps, then lifts them.
func (p *pgTab) gesture(from, to [][2]float64) {
	p.t.Helper()
	p.touch(input.DispatchTouchEventTypeTouchStart, from...)
	const steps = 8
	for k := 1; k <= steps; k++ {
		at := make([][2]float64, len(from))
		for i := range from {
			f := float64(k) / steps
			at[i] = [2]float64{from[i][0] + (to[i][0]-from[i][0])*f, from[i][1] + (to[i][1]-from[i][1])*f}
		}
		p.touch(input.DispatchTouchEventTypeTouchMove, at...)
	}
	p.touch(input.DispatchTouchEventTypeTouchEnd)
}

// TestTapeTouch drives the tape with a finger on a phone and a tablet: a
// one-finger drag pans it by the finger's travel, a pinch zooms it around
// the fingers' midpoint by the ratio of their spread, and a tap on a node
// inspects it.
func TestTapeTouch(t *testing.T) {
	for _, s := range screens {
		if !s.touch {
			continue // TestTapeMouse
		}
		t.Run(s.String(), func(t *testing.T) {
			p := openScreen(t, s)
			x, y, w, h := p.tapeRect()
			cx, cy := x+w/2, y+h/2

			v0 := p.view()
			p.gesture([][2]float64{{cx - 60, cy}}, [][2]float64{{cx + 20, cy + 30}})
			v1 := p.view()
			if math.Abs(v1.tx-v0.tx-80) > 1.5 || math.Abs(v1.ty-v0.ty-30) > 1.5 || v1.scale != v0.scale {
				t.Errorf("a one-finger drag by (80, 30) moved the tape from %+v to %+v", v0, v1)
			}
			if got := p.js(`document.getElementById("tape").dataset.view`); got != "zoomed" {
				t.Errorf("after a drag the tape's view is %q, want zoomed (it stops refitting)", got)
			}

			p.gesture([][2]float64{{cx - 30, cy}, {cx + 30, cy}}, [][2]float64{{cx - 75, cy}, {cx + 75, cy}})
			v2 := p.view()
			if r := v2.scale / v1.scale; math.Abs(r-2.5) > 0.05 {
				t.Errorf("a pinch spreading the fingers from 60 to 150 px zoomed by %.3f, want 2.5 (%+v to %+v)", r, v1, v2)
			}
			// The drawing's point under the midpoint stays under it.
			mx, my := cx-x, cy-y
			before := [2]float64{(mx - v1.tx) / v1.scale, (my - v1.ty) / v1.scale}
			after := [2]float64{(mx - v2.tx) / v2.scale, (my - v2.ty) / v2.scale}
			if math.Abs(before[0]-after[0]) > 1 || math.Abs(before[1]-after[1]) > 1 {
				t.Errorf("the pinch moved the point under the fingers from %v to %v", before, after)
			}
			p.shot("pinched")

			p.fit()
			i, nx, ny := p.visibleNode()
			p.touch(input.DispatchTouchEventTypeTouchStart, [2]float64{nx, ny})
			p.touch(input.DispatchTouchEventTypeTouchEnd)
			p.waitFor(fmt.Sprintf(`document.getElementById("insp-node")?.dataset.node === "%d"`, i), "the inspector to show the tapped node")
			if !p.hasClass("node-"+strconv.Itoa(i), "selected") {
				t.Errorf("the tapped node %d is not marked selected", i)
			}
		})
	}
}

// TestTapeMouse drives the tape with a mouse on the laptop and projector
// screens, through the pointer-event path touch uses: a drag pans it by the
// mouse's travel, the wheel zooms it around the pointer, and a click on a
// node inspects it.
func TestTapeMouse(t *testing.T) {
	for _, s := range screens {
		if s.touch {
			continue // TestTapeTouch
		}
		t.Run(s.String(), func(t *testing.T) {
			p := openScreen(t, s)
			x, y, w, h := p.tapeRect()
			cx, cy := x+w/2, y+h/2
			v0 := p.view()
			p.drag(cx-60, cy, cx+20, cy+30)
			v1 := p.view()
			if math.Abs(v1.tx-v0.tx-80) > 1.5 || math.Abs(v1.ty-v0.ty-30) > 1.5 || v1.scale != v0.scale {
				t.Errorf("a mouse drag by (80, 30) moved the tape from %+v to %+v", v0, v1)
			}
			if _, err := chromedp.Call(p.tab, input.DispatchMouseEvent, input.DispatchMouseEventParams{
				Type: input.DispatchMouseEventTypeMouseWheel, X: cx, Y: cy, DeltaX: 1e-6, DeltaY: -120}); err != nil { // DeltaX must be sent, and a zero one is left out
				t.Fatal(err)
			}
			p.waitFor(fmt.Sprintf(`(t => t !== null && !t.endsWith("scale(%g)"))(document.querySelector("#tape .world").getAttribute("transform"))`, v1.scale), "the wheel to zoom the tape")
			if v2 := p.view(); v2.scale <= v1.scale {
				t.Errorf("the wheel up zoomed from %g to %g, want closer", v1.scale, v2.scale)
			}
			p.fit()
			i, nx, ny := p.visibleNode()
			p.do("clicking a node", chromedp.MouseClickXY(nx, ny))
			p.waitFor(fmt.Sprintf(`document.getElementById("insp-node")?.dataset.node === "%d"`, i), "the inspector to show the clicked node")
		})
	}
}

// fit clicks Fit and waits until the tape is fitted again.
func (p *pgTab) fit() {
	p.t.Helper()
	p.do("clicking Fit", chromedp.Click(chromedp.ID("fit")))
	p.waitFor(`document.getElementById("tape").dataset.view !== "zoomed"`, "the tape to be fitted")
}

// visibleNode returns a node other than the one the inspector shows whose
// box's centre is inside the tape region, and that centre.
func (p *pgTab) visibleNode() (i int, x, y float64) {
	p.t.Helper()
	s := p.js(`(() => {
	  const t = document.getElementById("tape").getBoundingClientRect();
	  const shown = document.getElementById("insp-node")?.dataset.node;
	  for (const g of document.querySelectorAll("#tape .node")) {
	    const r = g.querySelector(".box").getBoundingClientRect();
	    const x = r.left + r.width / 2, y = r.top + r.height / 2;
	    if (g.dataset.node !== shown && x > t.left && x < t.right && y > t.top && y < t.bottom) return [g.dataset.node, x, y].join(" ");
	  }
	  return "none";
	})()`)
	if _, err := fmt.Sscanf(s, "%d %g %g", &i, &x, &y); err != nil {
		p.t.Fatalf("no node is in view to tap (%q)", s)
	}
	return
}

// readablePx is the smallest title size allowed at fit: 12 CSS px, less
// the rounding of the drawing's scale to 4 decimals in its transform.
const readablePx = 12 - 0.01

// longLink is the link of a model whose tape has 60 nodes or more: 16
// linear layers with tanh between them, with the stepper at its start.
func longLink(t testing.TB) string {
	t.Helper()
	return longLinkAt(t, link.Position{})
}

// longLinkAt is longLink with the stepper at pos.
func longLinkAt(t testing.TB, pos link.Position) string {
	t.Helper()
	st := link.Default()
	st.Model.Layers = nil
	for range 15 {
		st.Model.Layers = append(st.Model.Layers, nn.NewLinear(4), nn.Tanh{})
	}
	st.Model.Layers = append(st.Model.Layers, nn.NewLinear(1))
	st.Pos = pos
	frag, err := link.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	return frag
}

// titlePx is the smallest size, in CSS px, of the node titles as drawn:
// each title's on-screen height over its height in the drawing, times its
// font size.
const titlePx = `(() => {
  let min = Infinity;
  for (const t of document.querySelectorAll("#tape .node .title-text")) {
    const px = t.getBoundingClientRect().height / t.getBBox().height * parseFloat(t.getAttribute("font-size"));
    min = Math.min(min, px);
  }
  return min;
})()`

// tapeFill is the share of the tape region's height the drawing takes.
const tapeFill = `(() => {
  const t = document.getElementById("tape");
  return t.querySelector(".nodes").getBoundingClientRect().height / t.getBoundingClientRect().height;
})()`

// focusInView reports whether the node the last step ran is inside the
// tape region.
const focusInView = `(() => {
  const f = document.querySelector("#tape .node.focus .box");
  if (!f) return false;
  const t = document.getElementById("tape").getBoundingClientRect(), r = f.getBoundingClientRect();
  return r.left >= t.left && r.right <= t.right && r.top >= t.top && r.bottom <= t.bottom;
})()`

// TestTapeReadableAtFit checks that, fitted to its region, the tape's node
// titles are at least 12 CSS px on every screen, for the default model and
// for one of 60+ nodes, which then shows its start and pans along the
// chain.
func TestTapeReadableAtFit(t *testing.T) {
	long := longLink(t)
	for _, s := range screens {
		t.Run(s.String(), func(t *testing.T) {
			p := openScreen(t, s)
			if px := p.num(titlePx); px < readablePx {
				t.Errorf("the default model's titles are %.2f CSS px at fit, want at least 12", px)
			}
			p.navigate("/?long#" + long)
			n := int(p.num(`document.querySelectorAll("#tape [data-node]").length`))
			if px := p.num(titlePx); px < readablePx {
				t.Errorf("a model of %d nodes has titles of %.2f CSS px at fit, want at least 12", n, px)
			}
			if v := p.js(`document.getElementById("tape").dataset.view`); v != "pans" {
				t.Errorf("the tape of %d nodes fits whole at a readable size (%q): the test does not cover panning", n, v)
			}
			p.shot("long-at-fit")
		})
	}
}

// navigate opens path (with its fragment) in the tab as a new document and
// waits for a tape of 60 nodes or more.
func (p *pgTab) navigate(path string) {
	p.t.Helper()
	origin := p.js(`location.origin`)
	p.do("opening "+path[:min(len(path), 20)], chromedp.Navigate(origin+path))
	p.waitFor(`document.querySelectorAll("#tape [data-node]").length >= 60`, "the long model's tape")
}

// TestLongTapeFollowsTheSteps steps a tape too long to fit readably on a
// tablet: the first forward steps, then (after "backward", which finishes
// the forward pass) the first backward steps. After every step the node
// that ran is inside the tape's region, though the chain runs far past it.
func TestLongTapeFollowsTheSteps(t *testing.T) {
	p := openScreenAt(t, screens[2], longLink(t))
	p.waitFor(`document.querySelectorAll("#tape [data-node]").length >= 60`, "the long model's tape")
	if v := p.js(`document.getElementById("tape").dataset.view`); v != "pans" {
		t.Fatalf("the long tape's view is %q, want pans", v)
	}
	// The upright region is tall: the tape folds into rows to fill it.
	if f := p.num(tapeFill); f < 0.6 {
		t.Errorf("the long tape fills %.0f%% of its region's height (%s rows), want ≥ 60%%", 100*f, p.js(`document.getElementById("tape").dataset.rows`))
	}
	// The steps are clicked in the page: the redraw is synchronous, so
	// each check sees its step (and a busy machine's round trips add
	// nothing).
	steps := func(n int) string {
		return p.js(`(() => {
		  const inView = () => ` + focusInView + `;
		  const out = [];
		  for (let k = 0; k < ` + strconv.Itoa(n) + `; k++) {
		    const before = document.getElementById("playground").dataset.redraws;
		    document.getElementById("step").click();
		    if (document.getElementById("playground").dataset.redraws === before) return "stuck after " + k;
		    if (!inView()) out.push(document.querySelector("#tape .node.focus")?.dataset.node ?? "none");
		  }
		  return out.join(",");
		})()`)
	}
	if bad := steps(24); bad != "" {
		t.Errorf("forward steps: out of view after the steps of nodes %s", bad)
	}
	p.shot("long-forward")
	p.clickAndRedraw("to-backward")
	if p.js(focusInView) != "true" {
		t.Error("after finishing the forward pass the last node is out of view")
	}
	if bad := steps(16); bad != "" {
		t.Errorf("backward steps: out of view after the steps of nodes %s", bad)
	}
	if c := p.js(`document.getElementById("count-backward").textContent`); c != "backward 16/32" { // 33 VJPs, the metric's within the loss's step
		t.Errorf("after 16 backward steps the counter reads %q", c)
	}
	p.shot("long-backward")
}

// travelling is the number of dots moving along the tape's edges (0 when
// none is).
const travelling = `+(document.getElementById("tape").dataset.travelling ?? 0)`

// stepAndLook clicks Step and reads, in the same task (the redraw is
// synchronous, and the dots may be gone by the next round trip on a busy
// machine), what the step set moving.
const stepAndLook = `(() => {
  document.getElementById("step").click();
  const n = (sel) => document.querySelectorAll(sel).length;
  return {travelling: +(document.getElementById("tape").dataset.travelling ?? 0),
    fwd: n("#tape .mover.fwd"), bwd: n("#tape .mover.bwd"), plus: n("#tape .mover.bwd.plus"),
    hot: n("#tape .edge.hot"), contribs: n("#insp-contribs > li"),
    focus: +(document.querySelector("#tape .node.focus")?.dataset.node ?? -1)};
})()`

// looked is what stepAndLook reads.
type looked struct {
	Travelling, Fwd, Bwd, Plus, Hot, Contribs, Focus int
}

func (p *pgTab) stepAndLook() looked {
	p.t.Helper()
	n := p.redraws()
	l, err := chromedp.Run(p.tab, chromedp.Evaluate[looked](stepAndLook))
	if err != nil {
		p.t.Fatalf("stepping: %v\n%s", err, pageError(p.tab))
	}
	if p.redraws() <= n {
		p.t.Fatal("the step did not redraw the page before click() returned")
	}
	return l
}

// TestContributionsTravel steps forward and backward and checks the dots
// that move along the edges: one per operand into the node a forward step
// ran, one per contribution back to the parents on a backward step,
// labelled = or += (the L2 penalty makes a weight's gradient a sum), gone
// once they have arrived; and none under prefers-reduced-motion, where the
// steps still change the tape.
func TestContributionsTravel(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.do("turning L2 on", chromedp.Click(chromedp.ID("l2")))
	p.waitFor(`document.getElementById("l2").checked`, "L2 on")
	var l looked
	for k := 0; l.Hot == 0 && k < 10; k++ { // the leaves come first: nothing comes into them
		l = p.stepAndLook()
	}
	if l.Hot == 0 || l.Fwd != l.Hot || l.Travelling != l.Fwd || l.Bwd != 0 {
		t.Errorf("forward step of node %d: %+v; want one dot per lit edge into it", l.Focus, l)
	}
	p.waitFor(travelling+` === 0 && !document.querySelector("#tape .mover")`, "the forward dots to arrive and go")

	p.clickAndRedraw("to-backward")
	plus, steps := 0, 0
	for p.js(`document.getElementById("count-backward").textContent.split(" ")[1].split("/").reduce((a, b) => a === b)`) != "true" {
		l := p.stepAndLook()
		steps++
		if l.Bwd != l.Contribs || l.Travelling != l.Bwd || l.Fwd != 0 {
			t.Errorf("backward step %d (node %d): %+v; want one dot per contribution the inspector lists", steps, l.Focus, l)
		}
		plus += l.Plus
		p.waitFor(travelling+` === 0 && !document.querySelector("#tape .mover")`, "the contributions to arrive and go")
	}
	if plus == 0 {
		t.Error("no contribution travelled labelled += although L2 makes each weight's gradient a sum")
	}

	// A picture mid-way: at the slowest speed a dot travels 600 ms.
	p.do("slowest speed", chromedp.SetValue(chromedp.ID("speed"), "1"))
	p.clickAndRedraw("reset")
	p.clickAndRedraw("to-backward")
	for k := 0; k < 4; k++ {
		p.clickAndRedraw("step")
	}
	if l := p.stepAndLook(); l.Travelling == 0 {
		t.Fatalf("nothing moves for the screenshot: %+v", l)
	}
	// A quarter of the way, by the drawing's own animation clock.
	p.waitFor(`(s => { try { return s.getCurrentTime() - s.querySelector("animateMotion").getStartTime() >= 0.15; } catch (e) { return false; } })(document.getElementById("tape"))`, "the dots a quarter of the way")
	png, err := chromedp.Run(p.tab, chromedp.CaptureScreenshot())
	if err != nil {
		t.Fatal(err)
	}
	saveScreenshot(t, "stepping-1280x720-contribution-moving", png)

	if _, err := chromedp.Call(p.tab, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}}); err != nil {
		t.Fatal(err)
	}
	p.clickAndRedraw("reset")
	p.clickAndRedraw("to-backward")
	before := p.countClass("final")
	l = p.stepAndLook()
	if l.Travelling != 0 || l.Bwd != 0 || l.Fwd != 0 {
		t.Errorf("under prefers-reduced-motion a backward step set dots moving: %+v", l)
	}
	if got := p.js(`document.getElementById("count-backward").textContent`); !strings.HasPrefix(got, "backward 1/") {
		t.Errorf("under reduced motion the step did not happen: %q", got)
	}
	if p.countClass("final") <= before {
		t.Error("under reduced motion the backward step drew no new final gradient")
	}
}
