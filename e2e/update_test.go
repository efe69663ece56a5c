//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/chromedp/chromedp/kb"

	"tapelab/engine/nn"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/link"
)

// optimGolden is engine/train's torch.optim trajectories with one target
// (testdata/torch_optim.py there): a linear 2→4, tanh, linear 4→1 model
// with fixed weights, one fixed batch, and the weights after each step.
type optimGolden struct {
	Init map[string]any
	X, Y [][]float64
	Runs []struct {
		Settings struct {
			Name              string
			LR, Momentum, Eps float64
			WeightDecay       float64 `json:"weight_decay"`
			Betas             []float64
		}
		Steps []map[string]any
	}
}

func readOptimGolden(t *testing.T) optimGolden {
	t.Helper()
	data, err := os.ReadFile("../engine/train/testdata/optim_golden_1.json")
	if err != nil {
		t.Fatal(err)
	}
	var g optimGolden
	if err := json.Unmarshal(data, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// updateLink is the link to the golden model with its weights, batch and
// the run's optimizer settings.
func updateLink(t *testing.T, g optimGolden, run int) string {
	t.Helper()
	s := g.Runs[run].Settings
	c := train.DefaultOptimizer(s.Name)
	c.LR, c.WeightDecay = s.LR, s.WeightDecay
	if s.Momentum != 0 {
		c.Momentum = s.Momentum
	}
	if s.Eps != 0 {
		c.Eps = s.Eps
	}
	if len(s.Betas) == 2 {
		c.Betas = [2]float64{s.Betas[0], s.Betas[1]}
	}
	m := spec.New(tensor.Shape{2}, nn.MSE, nn.NewLinear(4), nn.Tanh{}, nn.NewLinear(1))
	m.Optimizer = c
	m.Params = map[string]*tensor.Tensor{}
	for name, v := range g.Init {
		shape := tensor.Shape{len(nntest.Flat(v))}
		if rows, ok := v.([]any); ok {
			if r, ok := rows[0].([]any); ok {
				shape = tensor.Shape{len(rows), len(r)}
			}
		}
		m.Params[name] = &tensor.Tensor{Shape: shape, Data: nntest.Flat(v)}
	}
	st := &link.State{Model: m, Batch: &link.Points{X: g.X}}
	for _, y := range g.Y {
		st.Batch.Y = append(st.Batch.Y, y[0])
	}
	frag, err := link.Encode(st)
	if err != nil {
		t.Fatal(err)
	}
	return frag
}

// TestUpdatePhaseEqualsTorch steps K update phases on the golden batch,
// as a person would (→ and ← on a laptop, the step buttons tapped on a
// phone), for SGD, momentum and Adam, each with weight decay (Adam with
// betas and eps of its own), and reads each parameter's weights after its
// update from its inspector: they equal torch.optim's to 1e-12 relative.
func TestUpdatePhaseEqualsTorch(t *testing.T) {
	g := readOptimGolden(t)
	for _, sc := range []screen{screens[4], screens[0]} {
		for run, r := range g.Runs {
			if r.Settings.WeightDecay == 0 {
				continue
			}
			t.Run(sc.name+"/"+r.Settings.Name, func(t *testing.T) {
				p := openScreenAt(t, sc, updateLink(t, g, run))
				p.noPageError()
				ids := strings.Split(p.js(`[...document.querySelectorAll("#tape .node.param")].map(e => e.id).join(" ")`), " ")
				if len(ids) != 4 {
					t.Fatalf("parameter nodes %v, want the model's 4", ids)
				}
				step := func(back bool) {
					switch {
					case sc.touch && back:
						p.tap("#step-back")
					case sc.touch:
						p.tap("#step")
					case back:
						p.key(kb.ArrowLeft, false)
					default:
						p.key(kb.ArrowRight, false)
					}
				}
				counter := func(want string) {
					p.waitFor(fmt.Sprintf(`document.getElementById("count-update").textContent.startsWith(%q)`, want), "#count-update to read "+want)
				}
				weights := func(k, phase int) {
					p.clickNode(ids[k])
					p.waitFor(fmt.Sprintf(`(e => e && e.dataset.node === %q)(document.getElementById("insp-node"))`, strings.TrimPrefix(ids[k], "node-")), "the inspector to show "+ids[k])
					name := p.js(`document.querySelector("#` + ids[k] + ` .title-text").textContent`)
					got := p.values("insp-value")
					var want []float64
					for n, w := range r.Steps[phase-1] {
						if strings.Contains(name, n) {
							want = nntest.Flat(w)
						}
					}
					if len(want) != len(got) {
						t.Fatalf("phase %d: %s (%q) shows %d weights, torch.optim has %v", phase, ids[k], name, len(got), want)
					}
					for j := range want {
						if math.Abs(got[j]-want[j]) > 1e-12*math.Max(1, math.Abs(want[j])) {
							t.Errorf("phase %d: %s[%d] = %v, torch.optim %v", phase, name, j, got[j], want[j])
						}
					}
				}
				const K = 3
				for phase := 1; phase <= K; phase++ {
					p.clickAndRedraw("to-end")
					counter("update 0/4")
					for k := range ids {
						step(false)
						counter("update " + strconv.Itoa(k+1) + "/4")
					}
					if phase == 1 {
						step(true)
						counter("update 3/4")
						step(false)
						counter("update 4/4")
						if p.countClass("updated") != 4 {
							t.Errorf("%d boxes drawn as updated, want 4", p.countClass("updated"))
						}
						p.clickNode(ids[0])
						p.waitFor(`document.getElementById("insp-rule") !== null`, "the update rule in the inspector")
						if rule := p.js(`document.getElementById("insp-rule").textContent`); !strings.Contains(rule, "w ← w − η") {
							t.Errorf("the update rule reads %q", rule)
						}
						p.shot("update-" + r.Settings.Name)
						// the rule of another element, chosen by its index
						p.typeInto("upd-elem", "5")
						w := strconv.FormatFloat(nntest.Flat(r.Steps[0]["0.weight"])[5], 'g', 6, 64)
						p.waitFor(fmt.Sprintf(`document.getElementById("insp-rule").textContent.endsWith("= %s")`, w), "the rule of element 5 to end with "+w)
					}
					for k := range ids {
						weights(k, phase)
					}
					step(false) // the next forward
					counter("update 0/4")
					p.waitFor(fmt.Sprintf(`(e => e && e.textContent.includes("update phase %d"))(document.getElementById("insp-next"))`, phase), "the next forward of phase "+strconv.Itoa(phase))
				}
				// the inspector follows the loss after the next forward
				p.waitFor(`document.getElementById("insp-next") !== null`, "the next forward's losses")
				old, now, pred := p.num(`+document.getElementById("insp-next").dataset.old`), p.num(`+document.getElementById("insp-next").dataset.new`), p.num(`+document.getElementById("insp-next").dataset.predicted`)
				if !(now < old) || !(pred < 0) {
					t.Errorf("the next forward: loss %v → %v, predicted change %v", old, now, pred)
				}
				p.shot("next-forward-" + r.Settings.Name)
				p.noPageError()
			})
		}
	}
}

// TestUpdateLinkReopensMidUpdate stops in the second update phase with
// two of four tensors updated (Adam), opens the page's link in a new tab
// and steps both to the end of the phase: the reopened page stands at
// update 2/4 and reaches torch.optim's weights.
func TestUpdateLinkReopensMidUpdate(t *testing.T) {
	g := readOptimGolden(t)
	run := len(g.Runs) - 1 // adam with weight decay, betas and eps of its own
	if g.Runs[run].Settings.Name != "adam" || g.Runs[run].Settings.WeightDecay == 0 {
		t.Fatalf("the last golden run is %+v", g.Runs[run].Settings)
	}
	p := openScreenAt(t, screens[4], updateLink(t, g, run))
	for _, k := range []int{4 + 1, 2} { // phase 1 and its next forward, then two updates of phase 2
		p.clickAndRedraw("to-end")
		for range k {
			p.key(kb.ArrowRight, true)
		}
	}
	p.waitFor(`document.getElementById("count-update").textContent.startsWith("update 2/4")`, "update 2/4")
	p.waitFor(linkSyncedJS, "the link")
	frag := strings.TrimPrefix(p.js(`location.hash`), "#")
	st, err := link.Open(frag)
	if err != nil || st.Update == nil || st.Update.N != 2 {
		t.Fatalf("the page's link: %v, update %+v", err, st.Update)
	}
	q := openScreenAt(t, screens[4], frag)
	q.noPageError()
	q.waitFor(`document.getElementById("count-update").textContent.startsWith("update 2/4")`, "the reopened page at update 2/4")
	for range 2 {
		q.key(kb.ArrowRight, true)
	}
	q.waitFor(`document.getElementById("count-update").textContent.startsWith("update 4/4")`, "update 4/4")
	ids := strings.Split(q.js(`[...document.querySelectorAll("#tape .node.param")].map(e => e.id).join(" ")`), " ")
	for _, id := range ids {
		q.clickNode(id)
		q.waitFor(fmt.Sprintf(`(e => e && e.dataset.node === %q)(document.getElementById("insp-node"))`, strings.TrimPrefix(id, "node-")), "the inspector to show "+id)
		name := q.js(`document.querySelector("#` + id + ` .title-text").textContent`)
		got := q.values("insp-value")
		for n, w := range g.Runs[run].Steps[1] {
			if !strings.HasSuffix(name, n) {
				continue
			}
			for j, wv := range nntest.Flat(w) {
				if math.Abs(got[j]-wv) > 1e-12*math.Max(1, math.Abs(wv)) {
					t.Errorf("reopened, phase 2: %s[%d] = %v, torch.optim %v", name, j, got[j], wv)
				}
			}
		}
	}
	q.shot("update-reopened")
}
