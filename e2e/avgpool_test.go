//go:build !js

package e2e

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"tapelab/engine/autograd"
	"tapelab/engine/nn/nntest"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// cliTestdata is where the CLI's test models and their PyTorch goldens live
// (written by internal/cli/testdata/torch_goldens.py).
const cliTestdata = "../internal/cli/testdata"

// torchGolden is the part of a NAME_torch.json golden this test reads.
type torchGolden struct {
	Loss  float64
	Grads map[string]any
}

// TestAvgPoolGradsMatchPyTorch opens the page on a link to the CLI's
// LeNet-style CNN with two avg_pool2d layers (lenet_avg.json), its weights
// and its batch (lenet_avg_data.json), runs the step to the end and checks
// that the loss and every parameter's gradient the inspector shows equal
// PyTorch's (lenet_avg_torch.json) to 1e-12 relative, as the CLI's golden
// test does; then looks at the avg_pool2d node's window card. The editor's
// menu offers avg_pool2d.
func TestAvgPoolGradsMatchPyTorch(t *testing.T) {
	m, b := lenetAvg(t)
	var golden torchGolden
	readJSON(t, filepath.Join(cliTestdata, "lenet_avg_torch.json"), &golden)
	ref, err := app.New(app.Doc{Input: m.Input, Layers: m.Layers, Loss: m.Loss, Seed: m.Seed}, app.Batch{
		X: &tensor.Tensor{Shape: tensor.Shape{len(b.X), len(b.X[0])}, Data: flatRows(b.X)},
		Y: tensor.Vector(b.Y...)})
	if err != nil {
		t.Fatal(err)
	}
	frag, err := link.Encode(&link.State{Model: m, Batch: b})
	if err != nil {
		t.Fatal(err)
	}
	tab := newBrowser(t)
	srv := startServer(t, playgroundHandler(t))
	if err := chromedp.Do(tab, chromedp.EmulateViewport(1280, 720), chromedp.Navigate(srv.URL+"/#"+frag),
		chromedp.WaitVisible(chromedp.CSS("#tape [data-node]"))); err != nil {
		t.Fatalf("loading the playground: %v\n%s", err, pageError(tab))
	}
	p := &pgTab{t: t, tab: tab, size: "1280x720"}
	p.waitFor(`document.documentElement.dataset.linkOpened === "true"`, "the link to be applied")
	p.noPageError()
	if p.js(`[...document.getElementById("add-type").options].some(o => o.value === "avg_pool2d")`) != "true" {
		t.Error("the editor's menu does not offer avg_pool2d for an image model")
	}
	p.clickAndRedraw("to-end")

	nodes := ref.Stepper().Nodes()
	if got := int(p.num(`document.querySelectorAll("#tape [data-node]").length`)); got != len(nodes) {
		t.Fatalf("the tape shows %d nodes, the engine records %d", got, len(nodes))
	}
	p.clickNode(nodeID(0))
	p.waitFor(`document.getElementById("insp-node").dataset.node === "0"`, "the inspector to show x")
	if err := sameNumbers(p.values("insp-value"), &tensor.Tensor{Data: flatRows(b.X)}); err != nil {
		t.Fatalf("the page steps on another batch than the link's: %v", err)
	}
	last := len(nodes) - 1
	for last > 0 && nodes[last].Role != "loss" {
		last--
	}
	p.clickNode(nodeID(last))
	p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, last), "the inspector to show the loss")
	if loss := p.values("insp-value"); len(loss) != 1 || !closeRel(loss[0], golden.Loss) {
		t.Errorf("the page's loss %v, PyTorch %v", loss, golden.Loss)
	}
	seen := 0
	for i, n := range nodes {
		if n.Kind != autograd.Param {
			continue
		}
		want, ok := golden.Grads[n.Label]
		if !ok {
			t.Errorf("PyTorch has no gradient for %s", n.Label)
			continue
		}
		seen++
		p.clickNode(nodeID(i))
		p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, i), "the inspector to show "+n.Label)
		got, w := p.values("insp-grad"), nntest.Flat(want)
		if len(got) != len(w) {
			t.Errorf("%s: the page shows %d gradient entries, PyTorch %d", n.Label, len(got), len(w))
			continue
		}
		for k := range w {
			if !closeRel(got[k], w[k]) {
				t.Errorf("%s[%d]: the page's gradient %v, PyTorch %v", n.Label, k, got[k], w[k])
				break
			}
		}
	}
	if seen != len(golden.Grads) {
		t.Errorf("the tape has %d of PyTorch's %d parameters", seen, len(golden.Grads))
	}

	pool := nodeNamed(t, ref, "avg_pool2d")
	p.clickNode(nodeID(pool))
	p.waitFor(`document.getElementById("insp-window")?.dataset.op === "avg_pool2d"`, "the avg_pool2d window card")
	if n := p.num(`document.querySelectorAll("#insp-window td.argmax").length`); n != 0 {
		t.Errorf("the avg_pool2d card rings %v elements", n)
	}
	p.js(`document.getElementById("insp-window").scrollIntoView()`)
	p.shot("avgpool-card")
	if v := axeViolations(t, p.tab); len(v) > 0 {
		t.Errorf("axe-core on the avg_pool2d window card: %d violations:\n%s", len(v), strings.Join(v, "\n"))
	}
	p.noPageError()
}

// lenetAvg is the CLI's lenet_avg model with the weights its seed gives
// natively written out (so the page need not re-derive them), and its batch.
func lenetAvg(t *testing.T) (*spec.Model, *link.Points) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(cliTestdata, "lenet_avg.json"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := spec.Decode(raw)
	if err != nil {
		t.Fatal(err)
	}
	built, err := m.Build()
	if err != nil {
		t.Fatal(err)
	}
	m.Params = built.StateDict()
	var data struct {
		X [][]float64
		Y []float64
	}
	readJSON(t, filepath.Join(cliTestdata, "lenet_avg_data.json"), &data)
	return m, &link.Points{X: data.X, Y: data.Y}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func flatRows(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// closeRel is the CLI golden test's tolerance: 1e-12 relative to
// max(1, |want|).
func closeRel(got, want float64) bool {
	return math.Abs(got-want) <= 1e-12*math.Max(1, math.Abs(want))
}
