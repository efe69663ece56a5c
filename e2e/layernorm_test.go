//go:build !js

package e2e

import (
	"strings"
	"testing"

	"tapelab/engine/nn"
	"tapelab/wasm/app"
)

// TestLayerNormFromTheEditor adds a layer_norm with the editor's menu, as a
// person would, steps its tape forward and backward against the engine,
// and opens the page's link in a fresh browser: the layer the registry
// offers works in the editor and travels in links.
func TestLayerNormFromTheEditor(t *testing.T) {
	p := openPlayground(t, 1280, 720)
	p.noPageError()
	p.addLayer("layer_norm", 4)
	if s := p.js(`document.getElementById("layer-2").textContent`); !strings.Contains(s, "layer_norm") {
		t.Fatalf("the new layer 2 reads %q, want a layer_norm", s)
	}

	ref := reference(t, app.DefaultDoc().Insert(2, nn.NewLayerNorm()), app.Modes{})
	p.stepEveryNode(ref.Stepper(), nil)
	p.paramGrads(ref)

	url := settledLink(t, p.tab)
	want := readState(t, p.tab)
	if !strings.Contains(want.Spec, `"layer_norm"`) {
		t.Fatalf("the page's spec has no layer_norm: %s", want.Spec)
	}
	b := newBrowser(t)
	openPage(t, b, url)
	if got := readState(t, b); got != want {
		t.Errorf("the link opened a different page:\n got %+v\nwant %+v", got, want)
	}
	p.noPageError()
}
