//go:build !js

package e2e

import (
	"strings"
	"testing"
)

// TestDefaultBackwardHasNoMetricStep replays the first minute of a class
// at a projector's laptop size and on a phone: the default model, "⇥
// backward", then → twice. The backward pass has 4 steps, not 5: the first
// runs the loss's VJP and says in one line that #9 mean (the metric) is no
// step of its own; the second is the prediction's linear, never the
// metric. axe-core finds nothing after the first step.
func TestDefaultBackwardHasNoMetricStep(t *testing.T) {
	for _, sc := range []screen{screens[4], screens[0]} {
		p := openScreen(t, sc)
		p.clickAndRedraw("to-backward")
		if s := p.js(`document.getElementById("count-backward").textContent`); s != "backward 0/4" {
			t.Errorf("%v: before the first backward step the counter says %q, want backward 0/4", sc, s)
		}
		p.clickAndRedraw("step")
		said := p.js(`document.getElementById("said").textContent`)
		if !strings.HasPrefix(said, "Backward: #10 mse_loss") || !strings.Contains(said, "#9 mean is no step of its own: the loss does not depend on it") {
			t.Errorf("%v: the first backward step says %q, want the loss's step with one line on why #9 mean is no step", sc, said)
		}
		if s := p.js(`document.getElementById("count-backward").textContent`); s != "backward 1/4" {
			t.Errorf("%v: after the first backward step the counter says %q", sc, s)
		}
		if !p.hasClass(nodeID(9), "ran") {
			t.Errorf("%v: the metric is not drawn as run with the loss's step", sc)
		}
		p.shot("metric-no-step")
		expectNoAxe(t, p.tab, sc.String()+" first backward step")
		p.clickAndRedraw("step")
		said = p.js(`document.getElementById("said").textContent`)
		if !strings.HasPrefix(said, "Backward: #8 linear") {
			t.Errorf("%v: the second backward step says %q, want #8 linear", sc, said)
		}
		p.clickAndRedraw("step-back")
		p.clickAndRedraw("step-back")
		if s := p.js(`document.getElementById("count-backward").textContent`); s != "backward 0/4" || p.hasClass(nodeID(9), "ran") {
			t.Errorf("%v: two steps back the counter says %q and the metric ran: %v", sc, s, p.hasClass(nodeID(9), "ran"))
		}
		p.noPageError()
	}
}
