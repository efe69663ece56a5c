//go:build !js

package e2e

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// TestDenseVisitsTheMetricSingleSkipsIt steps backward through every node
// in both passes, as a person would, at both screen sizes: in dense mode the
// metric beside the loss runs its VJP (on dY = 0) within the loss's step,
// which says why it is no step of its own; in single-output mode it is
// skipped, and the engine's passes differ by exactly that one VJP. In both,
// the parameter gradients shown at the end are the engine's one-shot pass's.
func TestDenseVisitsTheMetricSingleSkipsIt(t *testing.T) {
	for _, size := range [][2]int64{{1280, 720}, {1024, 768}} {
		t.Run(fmt.Sprintf("%dx%d", size[0], size[1]), func(t *testing.T) {
			p := openPlayground(t, size[0], size[1])
			if p.js(`document.getElementById("pass-dense").getAttribute("aria-pressed")`) != "true" {
				t.Fatal("the playground does not start in dense mode")
			}
			dense := reference(t, app.DefaultDoc(), app.Modes{})
			single := reference(t, app.DefaultDoc(), app.Modes{Single: true})
			metric := dense.Recording().Metric
			ps, err := dense.Passes()
			if err != nil {
				t.Fatal(err)
			}
			if sk := ps.Skipped(); len(sk) != 1 || sk[0] != metric {
				t.Fatalf("the engine's single-output pass skips %v, want the metric %d", sk, metric)
			}

			ran := walkBackward(t, p, dense, "dense", metric)
			if !ran {
				t.Errorf("dense: the metric node %d never ran within a backward step", metric)
			}
			if got := p.countClass("ran"); got != ps.Dense {
				t.Errorf("dense: %d nodes ran their VJP, the engine's dense pass runs %d", got, ps.Dense)
			}
			if !p.hasClass(nodeID(metric), "ran") || !p.hasClass(nodeID(metric), "zero") || p.hasClass(nodeID(metric), "skipped") {
				t.Errorf("dense: the metric is drawn %q, want ran with dY = 0", p.js(`document.getElementById("`+nodeID(metric)+`").className.baseVal`))
			}
			checkParamGrads(t, p, dense, denseOneHot(t, dense))
			p.shot("11-dense-end")

			p.clickAndRedraw("pass-singleoutput")
			if s := p.passes()["text"]; !strings.Contains(s, "▶ stepping single-output") {
				t.Errorf("the passes line does not say single-output is being stepped: %q", s)
			}
			if ran := walkBackward(t, p, single, "single", metric); ran {
				t.Error("single-output: the metric node ran its VJP")
			}
			if got := p.countClass("ran"); got != ps.Single {
				t.Errorf("single-output: %d nodes ran their VJP, the engine reports %d", got, ps.Single)
			}
			if p.hasClass(nodeID(metric), "ran") || !p.hasClass(nodeID(metric), "skipped") {
				t.Error("single-output: the metric is not drawn skipped")
			}
			if got := p.countClass("skipped"); got != len(ps.Skipped()) {
				t.Errorf("single-output: %d nodes drawn skipped, the engine skips %d", got, len(ps.Skipped()))
			}
			if ps.Dense != ps.Single+len(ps.Skipped()) {
				t.Errorf("dense %d VJPs, single-output %d, skipped %d: the counts do not add up", ps.Dense, ps.Single, len(ps.Skipped()))
			}
			p.clickNode(nodeID(metric))
			p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, metric), "the inspector to show the metric")
			if s := p.js(`document.getElementById("insp-grad-status").textContent`); !strings.HasPrefix(s, "skipped") {
				t.Errorf("single-output: the inspector says %q about the metric's gradient", s)
			}
			checkParamGrads(t, p, single, oneShotGrads(t, single))
			p.shot("12-single-end")
			p.noPageError()
		})
	}
}

func nodeID(i int) string { return "node-" + strconv.Itoa(i) }

// walkBackward resets, finishes the forward pass and steps backward through
// every step of ref's pass, checking at each step the node the inspector
// shows, its gradient, its drawing and the counter. It reports whether the
// metric ran within a step (and checks that step says why, with dY = 0).
func walkBackward(t *testing.T, p *pgTab, ref *app.Playground, mode string, metric int) bool {
	t.Helper()
	rs := ref.Stepper()
	var order []int // the steps: the pass's VJPs but the quiet ones
	for _, j := range rs.Order() {
		if !rs.Quiet(j) {
			order = append(order, j)
		}
	}
	p.clickAndRedraw("reset")
	p.clickAndRedraw("to-backward")
	rs.ForwardToEnd()
	want := fmt.Sprintf("backward 0/%d", len(order))
	if s := p.js(`document.getElementById("count-backward").textContent`); s != want {
		t.Errorf("%s: the counter says %q, want %q", mode, s, want)
	}
	if s := p.passes()["stepping"]; s != strconv.Itoa(len(rs.Order())) {
		t.Errorf("%s: the passes line says it steps %s VJPs, the engine's pass runs %d", mode, s, len(rs.Order()))
	}
	ran := false
	for k, j := range order {
		p.clickAndRedraw("step")
		rs.Step()
		if got := p.js(`document.getElementById("insp-node").dataset.node`); got != strconv.Itoa(j) {
			t.Fatalf("%s: backward step %d: the inspector shows node %s, the engine ran node %d", mode, k, got, j)
		}
		if err := sameNumbers(p.values("insp-grad"), rs.Grad(j)); err != nil {
			t.Errorf("%s: node %d gradient: %v", mode, j, err)
		}
		if !p.hasClass(nodeID(j), "ran") || !p.hasClass(nodeID(j), "final") {
			t.Errorf("%s: node %d is not drawn ran and final after its VJP step", mode, j)
		}
		if s, w := p.js(`document.getElementById("count-backward").textContent`), fmt.Sprintf("backward %d/%d", k+1, len(order)); s != w {
			t.Errorf("%s: the counter says %q, want %q", mode, s, w)
		}
		if slices.Contains(rs.Passed(), metric) {
			ran = true
			if !p.hasClass(nodeID(metric), "ran") || !p.hasClass(nodeID(metric), "zero") {
				t.Errorf("%s: the metric is drawn %q after the step that ran it", mode, p.js(`document.getElementById("`+nodeID(metric)+`").className.baseVal`))
			}
			if s := p.js(`document.getElementById("said").textContent`); !strings.Contains(s, "no step of its own") || !strings.Contains(s, "dY = 0") {
				t.Errorf("%s: the step line says %q, want it to say the metric is no step of its own and ran on dY = 0", mode, s)
			}
			if badge := p.js(`document.querySelector("#` + nodeID(metric) + ` .badge").textContent`); badge != "g=0" {
				t.Errorf("%s: the metric's badge is %q after its step", mode, badge)
			}
			p.shot("11-dense-metric-step")
		}
	}
	return ran
}

// checkParamGrads inspects every parameter and compares the gradient shown
// with want (the engine's one-shot pass, computed natively).
func checkParamGrads(t *testing.T, p *pgTab, ref *app.Playground, want *autograd.Grads) {
	t.Helper()
	for _, i := range ref.Recording().ParamNodes {
		n := ref.Stepper().Nodes()[i]
		p.clickNode(nodeID(i))
		p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, i), "the inspector to show "+n.Title())
		if err := sameNumbers(p.values("insp-grad"), want.Of(i)); err != nil {
			t.Errorf("%s: shown gradient vs one-shot backward: %v", n.Title(), err)
		}
	}
}

// denseOneHot is the engine's dense all-seeds pass of ref's step, natively:
// BackwardDenseFrom with 1 at the loss and +0 at every other node.
func denseOneHot(t *testing.T, ref *app.Playground) *autograd.Grads {
	t.Helper()
	r, err := app.Record(ref.Model().Clone(), ref.Batch(), app.Modes{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	seeds := make([]*tensor.Tensor, r.Tape.Len())
	for i := range seeds {
		seeds[i] = tensor.Zeros(r.Tape.Node(i).Value.Shape)
	}
	seeds[r.Loss].Fill(1)
	var g autograd.Grads
	if err := r.Tape.BackwardDenseFrom(seeds, &g); err != nil {
		t.Fatal(err)
	}
	return &g
}

// TestPassesWorkedOutWhenTheMenuOpens: the comparison of the dense and
// single-output passes (two more backward passes) is shown only in the
// menu, so the page works it out when the menu opens, not at start-up or
// at every edit; opened after a switch of the pass, it describes the new
// step.
func TestPassesWorkedOutWhenTheMenuOpens(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	if s := p.js(`document.getElementById("passes").textContent`); s != "" {
		t.Errorf("the passes line was worked out before the menu opened: %q", s)
	}
	p.click("menu-toggle")
	if s := p.js(`document.getElementById("passes").textContent`); !strings.Contains(s, "▶ stepping dense pass") || !strings.Contains(s, "bit-identical") {
		t.Errorf("the opened menu's passes line reads %q", s)
	}
	p.click("menu-toggle")
	p.clickAndRedraw("pass-singleoutput")
	if s := p.js(`document.getElementById("passes").textContent`); !strings.Contains(s, "▶ stepping dense pass") {
		t.Errorf("with the menu closed, the passes line changed to %q before it opened", s)
	}
	if s := p.passes()["text"]; !strings.Contains(s, "▶ stepping single-output") {
		t.Errorf("after the switch, the opened menu's passes line reads %q", s)
	}
	p.noPageError()
}
