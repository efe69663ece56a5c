//go:build !js

package e2e

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"tapelab/engine/program"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// openProgram loads the playground and switches to Program mode.
func openProgram(t *testing.T, w, h int64) *pgTab {
	t.Helper()
	p := openPlayground(t, w, h)
	p.clickAndRedraw("edit-program")
	p.waitFor(`!document.getElementById("program-editor").hidden`, "Program mode")
	return p
}

// programRef is the program's playground computed natively.
func programRef(t *testing.T, src string, m app.Modes) *app.ProgramPlayground {
	t.Helper()
	pg, err := app.NewProgramPlayground(src)
	if err != nil {
		t.Fatal(err)
	}
	if err := pg.SetModes(m); err != nil {
		t.Fatal(err)
	}
	return pg
}

// openExample clicks an example of the gallery and waits for its tape.
func (p *pgTab) openExample(ex program.Example) {
	p.t.Helper()
	p.clickAndRedraw("example-" + ex.Name)
	p.waitFor(fmt.Sprintf(`document.getElementById("program-text").value === %q`, ex.Text), "the example's text")
}

// inspectNode clicks node i on the tape and waits for the inspector.
func (p *pgTab) inspectNode(i int) {
	p.t.Helper()
	p.clickNode("node-" + strconv.Itoa(i))
	p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, i), "the inspector to show node "+strconv.Itoa(i))
}

// stepThrough checks the program's node titles, steps every node against
// the same stepper run natively (stepEveryNode), then every leaf's
// gradient against the program's one-shot pass.
func stepThrough(t *testing.T, p *pgTab, ref *app.ProgramPlayground) {
	t.Helper()
	nodes := ref.Stepper().Nodes()
	for i, n := range nodes {
		if got := p.js(fmt.Sprintf(`document.querySelector("#node-%d .title-text").textContent`, i)); got != n.Title() {
			t.Errorf("node %d is titled %q, want %q", i, got, n.Title())
		}
	}
	p.stepEveryNode(ref.Stepper(), nil)
	// Every leaf's gradient against the program's one-shot pass.
	one, err := ref.Program().Grad()
	if err != nil {
		t.Fatal(err)
	}
	for i, g := range one.Grads {
		p.inspectNode(i)
		if err := sameNumbers(p.values("insp-grad"), g); err != nil {
			t.Errorf("leaf %s: shown gradient vs program.Grad: %v", nodes[i].Title(), err)
		}
	}
}

// TestProgramTypeAndStep types a program key by key, sees the error mark
// appear under the line at fault and go away, steps forward and backward
// through every node against the engine, and undoes an edit.
func TestProgramTypeAndStep(t *testing.T) {
	p := openProgram(t, 1280, 720)
	p.do("clearing the text", chromedp.Click(chromedp.ID("program-text")),
		chromedp.KeyEvent("a", chromedp.KeyModifiers(chromedp.ModifierCtrl)), chromedp.KeyEvent(kb.Backspace))
	p.do("typing", chromedp.SendKeys(chromedp.ID("program-text"), "x = input(1.5)\nw = param(-2.0)\ny = tanh(w * x + b)"))
	p.waitFor(`(e => !e.hidden && e.textContent.includes("line 3, col 18: undefined: b"))(document.getElementById("program-error"))`, "the error under line 3")
	if got := p.js(`document.getElementById("program-mark").textContent`); got != "b" {
		t.Errorf("the mark underlines %q, want b", got)
	}
	if got := p.js(`document.getElementById("program-gutter-bad").textContent.trim()`); got != "3" {
		t.Errorf("the gutter marks line %q, want 3", got)
	}
	if p.js(`document.getElementById("tape-notice").hidden`) != "false" {
		t.Error("no notice that the tape is the last program that ran")
	}
	p.shot("program-error")
	p.do("fixing", chromedp.SendKeys(chromedp.ID("program-text"), kb.Backspace+kb.Backspace+"w)\nL = y * y"))
	p.waitFor(`document.getElementById("program-error").hidden && document.getElementById("program-mark") === null`, "the mark to go")
	src := "x = input(1.5)\nw = param(-2.0)\ny = tanh(w * x + w)\nL = y * y"
	ref := programRef(t, src, app.Modes{})
	p.waitFor(fmt.Sprintf(`document.querySelectorAll("#tape [data-node]").length === %d`, ref.Program().Len()), "the typed program's tape")
	if got := p.js(`document.getElementById("program-text").value`); got != src {
		t.Fatalf("the text is %q", got)
	}
	stepThrough(t, p, ref)
	p.noPageError()

	p.clickAndRedraw("program-undo")
	if got := p.js(`document.getElementById("program-text").value`); got == src {
		t.Errorf("undo left %q", got)
	}
	p.clickAndRedraw("program-redo")
	if got := p.js(`document.getElementById("program-text").value`); got != src {
		t.Errorf("redo gave %q, want %q", got, src)
	}
}

// TestProgramGallery opens every example with one click and steps it to
// the end (each value and gradient against the engine for micrograd's),
// in eager and compiled mode, with the gradient check; the skipped
// example's node is skipped by single-output backward.
func TestProgramGallery(t *testing.T) {
	p := openProgram(t, 1280, 720)
	exs := program.Examples()
	for _, ex := range exs {
		if n := p.js(fmt.Sprintf(`document.getElementById("example-%s").parentElement.querySelector(".caption").textContent`, ex.Name)); n != ex.Caption {
			t.Errorf("%s: caption %q", ex.Name, n)
		}
	}
	p.openExample(exs[0])
	stepThrough(t, p, programRef(t, exs[0].Text, app.Modes{}))
	for _, ex := range exs {
		for _, compiled := range []bool{false, true} {
			p.openExample(ex)
			if compiled {
				p.clickAndRedraw("exec-compiled")
			}
			ref := programRef(t, ex.Text, app.Modes{Compiled: compiled})
			p.clickAndRedraw("to-end")
			c := ref.Stepper().Counts()
			if s := p.js(`document.getElementById("count-backward").textContent`); s != fmt.Sprintf("backward %d/%d", c.BackwardTotal, c.BackwardTotal) {
				t.Errorf("%s: backward counter says %q", ex.Name, s)
			}
			one, err := ref.Program().Grad()
			if err != nil {
				t.Fatal(err)
			}
			for i, g := range one.Grads {
				p.inspectNode(i)
				if err := sameNumbers(p.values("insp-grad"), g); err != nil {
					t.Errorf("%s compiled=%v: leaf %d gradient: %v", ex.Name, compiled, i, err)
				}
			}
			if compiled {
				if got := int(p.num(`document.querySelectorAll("#ssa li").length`)); got != ref.Program().Len() {
					t.Errorf("%s: the SSA listing has %d lines for %d nodes", ex.Name, got, ref.Program().Len())
				}
				p.clickAndRedraw("exec-eager")
			}
		}
		if strings.Contains(p.js(`document.getElementById("program-note").textContent`), "ones") != exampleRef(t, ex).Program().OnesSeed() {
			t.Errorf("%s: the note %q does not say how backward is seeded", ex.Name, p.js(`document.getElementById("program-note").textContent`))
		}
	}
	// The gradient check of the last example (softmax cross-entropy).
	p.openExample(exs[5])
	p.click("gradcheck")
	p.waitFor(`document.getElementById("gradcheck-result").dataset.worst !== undefined`, "the gradient check")
	if !p.hasClass("gradcheck-result", "good") {
		t.Errorf("gradient check: %s", p.js(`document.getElementById("gradcheck-result").textContent`))
	}
	// Single-output backward skips u = exp(y) in the skipped example.
	skipped := exs[6]
	if skipped.Name != "skipped" {
		t.Fatalf("example 6 is %s, not skipped", skipped.Name)
	}
	p.openExample(skipped)
	p.clickAndRedraw("pass-singleoutput")
	p.clickAndRedraw("to-end")
	if !p.hasClass("node-2", "skipped") {
		t.Errorf("single-output: u = exp(y) is not shown skipped (%s)", p.js(`document.getElementById("node-2").getAttribute("class")`))
	}
	p.clickAndRedraw("pass-dense")
	p.noPageError()
}

func exampleRef(t *testing.T, ex program.Example) *app.ProgramPlayground {
	return programRef(t, ex.Text, app.Modes{})
}

// TestProgramForwardMode runs forward mode on micrograd's example: each
// node's tangent along the one-hot of a, then of b (clicking it), then a
// typed direction, and the check against ⟨gradient, direction⟩.
func TestProgramForwardMode(t *testing.T) {
	for _, size := range []struct{ w, h int64 }{{1280, 720}, {1024, 768}} {
		p := openProgram(t, size.w, size.h)
		ex := program.Examples()[0]
		r := exampleRef(t, ex)
		p.clickAndRedraw("ad-forward")
		p.waitFor(`document.getElementById("dir-0").value === "1"`, "the one-hot of a")
		check := func(dir []*tensor.Tensor, what string) {
			t.Helper()
			tg, err := r.Program().Forward(r.Recording().Tape, dir)
			if err != nil {
				t.Fatal(err)
			}
			n := r.Program().Len()
			for i := 0; i < n; i++ {
				p.clickAndRedraw("step")
				want := tg.Of[i]
				if want == nil {
					want = tensor.Zeros(r.Program().Shape(i))
				}
				if err := sameNumbers(p.values("insp-tangent"), want); err != nil {
					t.Errorf("%s: node %d tangent: %v", what, i, err)
				}
				if got := p.js(fmt.Sprintf(`document.getElementById("tangent-%d").textContent`, i)); !strings.HasPrefix(got, "ṫ ") {
					t.Errorf("%s: node %d's box shows %q", what, i, got)
				}
			}
			c, err := r.Program().CheckForward(dir)
			if err != nil {
				t.Fatal(err)
			}
			p.waitFor(`document.getElementById("forward-check").dataset.agree === "true"`, "the forward check")
			if s := p.js(`document.getElementById("forward-check").textContent`); !strings.Contains(s, "⟨gradient, direction⟩") || !strings.Contains(s, app.Num(c.Reverse)) && !strings.Contains(s, fmt.Sprint(c.Reverse)) {
				t.Errorf("%s: the check says %q, want ⟨gradient, direction⟩ = %v", what, s, c.Reverse)
			}
			if s := p.js(`document.getElementById("count-backward").textContent`); !strings.HasPrefix(s, "backward 0/") {
				t.Errorf("%s: forward mode stepped backward: %q", what, s)
			}
		}
		dirA, _ := r.Program().OneHot(0, 0)
		check(dirA, "one-hot of a")
		p.shot("program-forward")
		p.clickAndRedraw("reset")
		p.inspectNode(1)
		p.waitFor(`document.getElementById("dir-1").value === "1" && document.getElementById("dir-0").value === "0"`, "the one-hot of b")
		dirB, _ := r.Program().OneHot(1, 0)
		check(dirB, "one-hot of b")
		for i, v := range []string{"0.5", "1", "-1", "2"} {
			setValue(t, p.tab, "#dir-"+strconv.Itoa(i), v)
		}
		dir, err := r.ParseDirection([]string{"0.5", "1", "-1", "2"})
		if err != nil {
			t.Fatal(err)
		}
		p.waitFor(`document.getElementById("count-forward").textContent.startsWith("forward 0/")`, "forward mode to start again")
		check(dir, "typed direction")
		p.clickAndRedraw("ad-reverse")
		if got := p.js(`document.getElementById("tangent-0").textContent`); got != "" {
			t.Errorf("reverse mode still shows tangents: %q", got)
		}
		p.noPageError()
	}
}

// TestProgramScreenshots saves micrograd's example mid-backward at both
// sizes.
func TestProgramScreenshots(t *testing.T) {
	for _, size := range []struct{ w, h int64 }{{1280, 720}, {1024, 768}} {
		p := openProgram(t, size.w, size.h)
		p.clickAndRedraw("to-backward")
		p.clickAndRedraw("step")
		p.clickAndRedraw("step")
		p.shot("program-micrograd-backward")
		if over := p.num(`document.documentElement.scrollWidth - document.documentElement.clientWidth`); over > 0 {
			t.Errorf("%dx%d scrolls sideways by %v px", size.w, size.h, over)
		}
		p.noPageError()
	}
}

// TestProgramLink steps a program, switches to compiled, copies its link
// and opens it in a fresh browser: the same text, modes, position and tape;
// then again with forward mode on along a typed direction: the same
// direction, tangents and check.
func TestProgramLink(t *testing.T) {
	srv := startServer(t, shareHandler(t))
	a := newBrowser(t)
	openPage(t, a, srv.URL)
	neuronText := program.Examples()[2].Text
	click(t, a, "#edit-program")
	waitJS(t, a, `!document.getElementById("program-editor").hidden`)
	click(t, a, "#example-neuron")
	waitJS(t, a, fmt.Sprintf(`document.getElementById("program-text").value === %q`, neuronText))
	click(t, a, "#exec-compiled")
	waitJS(t, a, `document.getElementById("exec-compiled").getAttribute("aria-pressed") === "true"`)
	neuron := programRef(t, neuronText, app.Modes{Compiled: true})
	key(t, a, "ArrowRight", neuron.Stepper().Counts().ForwardTotal+2) // the forward pass and 2 VJPs
	click(t, a, ".share summary")                                     // open the Share menu, as a person does
	click(t, a, "#copy-link")
	url := settledLink(t, a)
	st, err := link.Decode(eval[string](t, a, `location.hash`))
	if err != nil || st.Program != neuronText || !st.Modes.Compiled || st.Pos.Phase != link.PhaseBackward {
		t.Fatalf("the link %s holds %+v, %v; the page says %q and shows %q", url, st, err,
			eval[string](t, a, `document.getElementById("share-notes").textContent`), eval[string](t, a, `tapelabExport("tape-text")`))
	}
	want := readProgramState(t, a)
	if !strings.Contains(want.tape, "position backward") {
		t.Fatalf("tab A is not in the backward pass:\n%s", want.tape)
	}
	b := newBrowser(t)
	openPage(t, b, url)
	got := readProgramState(t, b)
	if got != want {
		t.Errorf("the link opened a different state:\n got %+v\nwant %+v", got, want)
	}
	key(t, a, "ArrowRight", 30)
	key(t, b, "ArrowRight", 30)
	if ta, tb := eval[string](t, a, `tapelabExport("tape-text")`), eval[string](t, b, `tapelabExport("tape-text")`); ta != tb || !strings.Contains(ta, "position done") {
		t.Errorf("after stepping to the end the tapes differ or are not done")
	}

	// Forward mode travels too: on, along a typed direction, stepped to
	// the end of the forward pass, it opens in a fresh browser as it was.
	click(t, a, "#ad-forward")
	waitJS(t, a, `document.getElementById("ad-forward").getAttribute("aria-pressed") === "true" && document.getElementById("dir-0").value === "1"`)
	setValue(t, a, "#dir-2", "0.5")
	waitJS(t, a, `document.getElementById("dir-2").value === "0.5"`)
	setValue(t, a, "#dir-4", "-1")
	waitJS(t, a, `document.getElementById("dir-4").value === "-1" && document.getElementById("count-forward").textContent.startsWith("forward 0/")`)
	key(t, a, "ArrowRight", neuron.Stepper().Counts().ForwardTotal)
	waitJS(t, a, `document.getElementById("forward-check").dataset.agree === "true"`)
	url = settledLink(t, a)
	st, err = link.Decode(eval[string](t, a, `location.hash`))
	wantDir := [][]float64{{1}, {0}, {0.5}, {0}, {-1}}
	if err != nil || !reflect.DeepEqual(st.Forward, wantDir) {
		t.Fatalf("the forward-mode link holds %+v, %v; want the direction %v", st, err, wantDir)
	}
	// The 30 presses ran update phases: the link carries the weights they
	// reached and the optimizer's state.
	if st.Params == nil || st.Update == nil || st.Params["w0"][0] == 2 {
		t.Fatalf("the forward-mode link after update phases carries params %v, update %+v", st.Params, st.Update)
	}
	want = readProgramState(t, a)
	c := newBrowser(t)
	openPage(t, c, url)
	waitJS(t, c, `document.getElementById("forward-check").dataset.agree === "true"`)
	if got := readProgramState(t, c); got != want {
		t.Errorf("the forward-mode link opened a different state:\n got %+v\nwant %+v", got, want)
	}
	for _, q := range []string{
		`document.getElementById("ad-forward").getAttribute("aria-pressed")`,
		`[0, 1, 2, 3, 4].map(i => document.getElementById("dir-" + i).value).join(" ")`,
		`document.getElementById("forward-check").dataset.forward`,
		`document.getElementById("tangent-0").textContent`,
		`document.getElementById("count-update").textContent`,
	} {
		if ga, gc := eval[string](t, a, q), eval[string](t, c, q); ga != gc {
			t.Errorf("%s: %q in the fresh browser, %q where the link was copied", q, gc, ga)
		}
	}

	// Mid-update with another optimizer: back in reverse mode, Adam chosen
	// in the Step view, two of the neuron's three params updated, it opens
	// in a fresh browser at update 2/3 with the same weights, and both take
	// the third step alike.
	click(t, a, "#ad-reverse")
	waitJS(t, a, `document.getElementById("ad-reverse").getAttribute("aria-pressed") === "true"`)
	// as a person's choice: the change event bubbles to the control's box
	eval[bool](t, a, `(e => { e.value = "adam"; return e.dispatchEvent(new Event("change", {bubbles: true})); })(document.getElementById("step-optimizer"))`)
	waitJS(t, a, `document.getElementById("step-optimizer").value === "adam"`)
	click(t, a, "#to-end")
	bt := neuron.Stepper().Counts().BackwardTotal
	if _, err := chromedp.Run(a, chromedp.Poll[bool](fmt.Sprintf(`document.getElementById("count-backward").textContent === "backward %d/%d"`, bt, bt), chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("to the end: the counters say %q, %q", eval[string](t, a, `document.getElementById("count-backward").textContent`), eval[string](t, a, `document.getElementById("count-update").textContent`))
	}
	key(t, a, "ArrowRight", 2)
	waitJS(t, a, `document.getElementById("count-update").textContent.startsWith("update 2/3")`)
	url = settledLink(t, a)
	st, err = link.Decode(eval[string](t, a, `location.hash`))
	if err != nil || st.Update == nil || st.Update.N != 2 || st.Optimizer == nil || st.Optimizer.Name != "adam" || st.Params == nil {
		t.Fatalf("the mid-update link holds %+v (update %+v, optimizer %+v), %v", st, st.Update, st.Optimizer, err)
	}
	want = readProgramState(t, a)
	d := newBrowser(t)
	openPage(t, d, url)
	waitJS(t, d, `document.getElementById("count-update").textContent.startsWith("update 2/3")`)
	if got := readProgramState(t, d); got != want {
		t.Errorf("the mid-update link opened a different state:\n got %+v\nwant %+v", got, want)
	}
	if o := eval[string](t, d, `document.getElementById("step-optimizer").value`); o != "adam" {
		t.Errorf("the mid-update link opened with the optimizer %q", o)
	}
	key(t, a, "ArrowRight", 1)
	key(t, d, "ArrowRight", 1)
	waitJS(t, d, `document.getElementById("count-update").textContent.startsWith("update 3/3")`)
	if ta, td := eval[string](t, a, `tapelabExport("tape-text")`), eval[string](t, d, `tapelabExport("tape-text")`); ta != td {
		t.Errorf("after the third update the tapes differ:\n%s\nwant\n%s", td, ta)
	}
}

// waitJS polls cond (a JavaScript expression) for up to 10 s.
func waitJS(t *testing.T, tab context.Context, cond string) {
	t.Helper()
	if _, err := chromedp.Run(tab, chromedp.Poll[bool](cond, chromedp.WithPollingTimeout(10*time.Second))); err != nil {
		t.Fatalf("waiting for %s: %v\n%s", cond, err, pageError(tab))
	}
}

type programState struct{ text, tape, hash, compiled string }

func readProgramState(t *testing.T, ctx context.Context) programState {
	t.Helper()
	return programState{
		text:     eval[string](t, ctx, `document.getElementById("program-text").value`),
		tape:     eval[string](t, ctx, `tapelabExport("tape-text")`),
		hash:     eval[string](t, ctx, `location.hash`),
		compiled: eval[string](t, ctx, `document.getElementById("exec-compiled").getAttribute("aria-pressed")`),
	}
}

// TestProgramShortLink opens a long program by its link, asks the share
// service for a short link (the program document is stored) and opens it
// in a fresh browser: the same program and tape.
func TestProgramShortLink(t *testing.T) {
	var b strings.Builder
	var names []string
	for i := range 60 {
		fmt.Fprintf(&b, "p%d = param([", i)
		for k := range 6 {
			if k > 0 {
				b.WriteString(", ")
			}
			fmt.Fprintf(&b, "%.6f", float64((i*7919+k*104729)%1000003)/1000003-0.5)
		}
		b.WriteString("])\n")
		names = append(names, fmt.Sprintf("sum(p%d * p%d)", i, i))
	}
	b.WriteString("L = " + strings.Join(names, " + ") + "\n")
	src := b.String()
	frag, err := link.Encode(&link.State{Program: src})
	if err != nil {
		t.Fatal(err)
	}
	srv := startServer(t, shareHandler(t))
	tab := newBrowser(t)
	openPage(t, tab, srv.URL+"/#"+frag)
	long := settledLink(t, tab)
	if len(long) <= 2000 {
		t.Fatalf("the link is %d characters; the test needs one over 2,000", len(long))
	}
	if got := eval[string](t, tab, `document.getElementById("program-text").value`); got != src {
		t.Fatalf("the link opened %q", got)
	}
	click(t, tab, ".share summary")
	click(t, tab, "#short-link")
	waitJS(t, tab, `!!document.getElementById("short-link").dataset.short`)
	short := eval[string](t, tab, `document.getElementById("short-link").dataset.short`)
	if !strings.Contains(short, "/s/") || len(short) > 200 {
		t.Fatalf("short link %q for a %d-character link", short, len(long))
	}
	want := readProgramState(t, tab)
	other := newBrowser(t)
	openPage(t, other, short)
	got := readProgramState(t, other)
	if got.text != want.text || got.tape != want.tape || got.compiled != want.compiled {
		t.Errorf("the short link opened a different program or tape")
	}

	// After an update phase and its next forward, back at the start: the
	// short link still carries the weights the phase reached.
	click(t, tab, "#to-end")
	key(t, tab, "ArrowRight", 61) // 60 params, then the next forward
	click(t, tab, "#reset")
	settledLink(t, tab)
	st, err := link.Decode(eval[string](t, tab, `location.hash`))
	if err != nil || !st.Pos.IsStart() || st.Params == nil || st.Update == nil {
		t.Fatalf("the link at the start after an update phase: %v, position %+v, update %+v", err, st.Pos, st.Update)
	}
	click(t, tab, "#short-link")
	waitJS(t, tab, `!!document.getElementById("short-link").dataset.short`)
	short = eval[string](t, tab, `document.getElementById("short-link").dataset.short`)
	other = newBrowser(t)
	openPage(t, other, short)
	key(t, tab, "ArrowRight", 3)
	key(t, other, "ArrowRight", 3)
	if a, b := eval[string](t, tab, `tapelabExport("tape-text")`), eval[string](t, other, `tapelabExport("tape-text")`); a != b || !strings.Contains(a, "value") {
		t.Errorf("the short link after an update phase opened a different tape:\n%s\nwant\n%s", b, a)
	}
}
