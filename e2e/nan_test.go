//go:build !js

package e2e

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"tapelab/wasm/app"
)

// stepperNaN is the node the stepper's bar says playing stopped at on a
// NaN or ∞ ("" while it says none).
const stepperNaN = `(document.querySelector("section.stepper").dataset.nanStop || "")`

// setProgram replaces the program's text, as a paste does, and waits
// for its tape.
func (p *pgTab) setProgram(src string) *app.ProgramPlayground {
	p.t.Helper()
	ref := programRef(p.t.(*testing.T), src, app.Modes{})
	p.js(fmt.Sprintf(`(e => { e.value = %q; e.dispatchEvent(new Event("input")); return true })(document.getElementById("program-text"))`, src))
	p.waitFor(fmt.Sprintf(`document.querySelectorAll("#tape [data-node]").length === %d`, ref.Program().Len()), "the program's tape")
	return ref
}

// playToNaN plays the stepper at full speed and waits for it to stop at
// a NaN or ∞; it returns the node.
func (p *pgTab) playToNaN() string {
	p.t.Helper()
	p.js(`(e => { e.value = "20"; e.dispatchEvent(new Event("input")); return true })(document.getElementById("speed"))`)
	p.click("play")
	p.waitFor(stepperNaN+` !== "" && document.getElementById("play").getAttribute("aria-pressed") === "false"`, "playing to stop at the NaN")
	return p.js(stepperNaN)
}

// varNode is the id of the program's node whose label starts with name + " = ".
func varNode(t *testing.T, ref *app.ProgramPlayground, name string) string {
	t.Helper()
	for i, n := range ref.Stepper().Nodes() {
		if strings.HasPrefix(n.Label, name+" = ") {
			return strconv.Itoa(i)
		}
	}
	t.Fatalf("no node %s", name)
	return ""
}

// checkNaN checks the inspector's note on node id (element, pass, a part
// of the reason) and the node's mark on the tape (its classes, its badge
// starting with badge).
func (p *pgTab) checkNaN(id, elem, pass, why, badge string, first bool) {
	p.t.Helper()
	p.waitFor(fmt.Sprintf(`(e => e !== null && e.isConnected && e.dataset.node === %q)(document.getElementById("insp-nan"))`, id), "the inspector's note on node "+id)
	got := p.js(`JSON.stringify(document.getElementById("insp-nan").dataset)`)
	for _, want := range []string{`"elem":"` + elem + `"`, `"pass":"` + pass + `"`, why} {
		if !strings.Contains(got, want) {
			p.t.Errorf("node %s: the inspector's note %s lacks %s", id, got, want)
		}
	}
	if !p.hasClass("node-"+id, "nonfinite") || p.hasClass("node-"+id, "first-nan") != first {
		p.t.Errorf("node %s's classes: %s", id, p.js(`document.getElementById("node-`+id+`").getAttribute("class")`))
	}
	if b := p.js(`document.querySelector("#node-` + id + ` .badge").textContent`); !strings.HasPrefix(b, badge) {
		p.t.Errorf("node %s's badge %q, want %q first", id, b, badge)
	}
}

// TestNaNStopLogOfZero plays a program that takes log(0): playing stops
// at the log node, which the tape marks and the inspector explains
// (element [1], log(0) = −∞); stepping on by hand shows the −∞ spread
// to the product, then the backward pass stops where the gradient flows
// through the infinite value. At 1280×720 and 390×844.
func TestNaNStopLogOfZero(t *testing.T) {
	const src = "x = param([1.0, 0.0, 2.0])\ny = log(x)\nz = y * y\nL = sum(z)"
	for _, size := range []struct{ w, h int64 }{{1280, 720}, {390, 844}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			p := openProgram(t, size.w, size.h)
			ref := p.setProgram(src)
			y, z := varNode(t, ref, "y"), varNode(t, ref, "z")
			if at := p.playToNaN(); at != y {
				t.Fatalf("playing stopped at node %s, want the log node %s", at, y)
			}
			if said := p.js(`document.getElementById("said").textContent`); !strings.Contains(said, "log(0) = −∞") {
				t.Errorf("the stepper says %q", said)
			}
			p.checkNaN(y, "[1]", "forward", "log(0) = −∞", "!−∞", true)
			p.shot("nan-log0")
			p.clickAndRedraw("step")
			if at := p.js(stepperNaN); at != "" {
				t.Errorf("stepping on still says it stopped at %s", at)
			}
			p.checkNaN(z, "[1]", "forward", "input already −∞: A[1] = −∞ came from node "+y, "+∞", false)
			p.playToNaN()
			p.checkNaN(p.js(stepperNaN), "[1]", "backward", "the gradient flows through an infinite value", "!", true)
			if size.w < 600 { // the inspector is a sheet the person opens
				p.click("panel-inspector")
				p.waitFor(`document.getElementById("playground").classList.contains("inspector-open")`, "the inspector's sheet")
			}
			p.shot("nan-log0-backward")
			p.noPageError()
		})
	}
}

// TestNaNStopOverflow plays a program whose exp overflows float64.
func TestNaNStopOverflow(t *testing.T) {
	p := openProgram(t, 1280, 720)
	ref := p.setProgram("x = param([1.0, 800.0])\ny = exp(x)\nL = sum(y)")
	y := varNode(t, ref, "y")
	if at := p.playToNaN(); at != y {
		t.Fatalf("playing stopped at node %s, want the exp node %s", at, y)
	}
	p.checkNaN(y, "[1]", "forward", "exp(800) = +∞: exp overflows above 709.78 in float64", "!+∞", true)
	p.noPageError()
}

// TestTrainNaNOpensTheTape: training that diverges offers to open the
// step's tape, which opens at the first node holding NaN or ∞.
func TestTrainNaNOpensTheTape(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.click("view-train")
	setValue(t, p.tab, "#train-lr", "10")
	p.click("train-play")
	if _, err := chromedp.Run(p.tab, chromedp.Poll[bool](`!document.getElementById("train-open-nan").hidden`, chromedp.WithPollingTimeout(30*time.Second))); err != nil {
		t.Fatalf("no offer to open the tape after diverging: %v\n%s", err, p.js(`document.getElementById("train-msg").textContent`))
	}
	t.Logf("message: %s", p.js(`document.getElementById("train-msg").textContent`))
	p.click("train-open-nan")
	p.waitFor(stepperNaN+` !== ""`, "the step view at the NaN")
	id := p.js(stepperNaN)
	p.waitFor(fmt.Sprintf(`(e => e !== null && e.isConnected && e.dataset.node === %q)(document.getElementById("insp-nan"))`, id), "the inspector on the NaN")
	if !p.hasClass("node-"+id, "first-nan") {
		t.Errorf("node %s is not marked first", id)
	}
	t.Logf("opened at node %s: %s", id, p.js(`document.getElementById("insp-nan").textContent`))
	p.shot("nan-train")
	p.noPageError()
}
