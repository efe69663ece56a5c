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

	"tapelab/wasm/app"
	"tapelab/wasm/link"
)

// TestGradProgramsInThePage opens, as a shared link, every program of
// engine/program/testdata/grad (grad nested, on params and inputs, through
// broadcasting, @, softmax, conv2d and max pooling), steps it to the end
// with the stepper's button and reads the output's value and every leaf's
// gradient from the inspector: each equals PyTorch's
// (torch.autograd.grad(create_graph=True), the goldens the CLI's test
// compares `go run . grad -program` with) to 1e-9 relative. The nodes a
// grad recorded are drawn framed and tagged "from ∂y/∂x", and the
// inspector names the VJP rule each came from, with a link to its node.
func TestGradProgramsInThePage(t *testing.T) {
	dir := filepath.Join("..", "engine", "program", "testdata")
	data, err := os.ReadFile(filepath.Join(dir, "torch_grads.json"))
	if err != nil {
		t.Fatal(err)
	}
	var golden struct {
		Examples map[string]struct {
			Output float64
			Grads  map[string]any
		}
	}
	if err := json.Unmarshal(data, &golden); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "grad", "*.tl"))
	if len(files) == 0 {
		t.Fatal("no programs with grad in testdata/grad")
	}
	srv := startServer(t, playgroundHandler(t))
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".tl")
		want, ok := golden.Examples[name]
		if !ok {
			t.Fatalf("%s has no PyTorch golden", name)
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		frag, err := link.Encode(&link.State{Program: string(src)})
		if err != nil {
			t.Fatal(err)
		}
		w, h := int64(1280), int64(720)
		if name == "hvp_mlp" {
			w, h = 390, 844
		}
		p := &pgTab{t: t, tab: newBrowser(t), size: fmt.Sprintf("%dx%d", w, h)}
		p.do("opening "+name, chromedp.EmulateViewport(w, h), chromedp.Navigate(srv.URL+"/#"+frag),
			chromedp.WaitVisible(chromedp.CSS("#tape [data-node]")))
		p.waitFor(`document.documentElement.dataset.linkOpened === "true"`, "the link to be applied")
		p.noPageError()
		ref := programRef(t, string(src), app.Modes{})
		nodes := ref.Stepper().Nodes()
		framed := 0
		for _, n := range nodes {
			if n.From.Grad > 0 {
				framed++
			}
		}
		if got := p.countClass("from-grad"); got != framed || framed == 0 {
			t.Errorf("%s: %d nodes drawn as recorded by grad, the program has %d", name, got, framed)
		}
		p.clickAndRedraw("to-end")
		out := ref.Program().Output()
		p.inspectNode(out)
		closeTo(t, name+" output", p.values("insp-value"), []float64{want.Output})
		names := ref.Program().Names()
		for leaf, g := range want.Grads {
			id := -1
			for i, n := range names {
				if n == leaf && nodes[i].Op == nil {
					id = i
				}
			}
			if id < 0 {
				t.Fatalf("%s: no leaf %s on the tape", name, leaf)
			}
			p.inspectNode(id)
			want := flatNumbers(g)
			if p.js(`String(document.getElementById("insp-grad") !== null)`) == "false" {
				// A class-index target: no gradient flows to it (PyTorch's is 0).
				if status := p.js(`document.getElementById("insp-grad-status").textContent`); !allZero(want) || !strings.HasPrefix(status, "none: no gradient flows") {
					t.Errorf("%s: d%s is not shown (%q); PyTorch's is %v", name, leaf, status, want)
				}
				continue
			}
			closeTo(t, name+" d"+leaf, p.values("insp-grad"), want)
		}
		// A node one of the catalogue's VJP rules recorded.
		for _, n := range nodes {
			if n.From.Grad == 0 || n.From.Node < 0 {
				continue
			}
			p.inspectNode(n.ID)
			if tag := p.js(fmt.Sprintf(`document.querySelector("#node-%d .role-text").textContent`, n.ID)); tag != "from "+n.From.Of {
				t.Errorf("%s: %s is tagged %q, want %q", name, n.Title(), tag, "from "+n.From.Of)
			}
			text := p.js(`document.getElementById("insp-from").textContent`)
			if !strings.Contains(text, "VJP rule of "+n.From.Rule) || !strings.Contains(text, n.From.Of) || !strings.Contains(text, nodes[n.From.Node].Title()) {
				t.Errorf("%s: %s's inspector says %q", name, n.Title(), text)
			}
			p.shot("grad-" + name + "-recorded")
			sel := fmt.Sprintf(`#insp-from button[data-inspect="%d"]`, n.From.Node)
			click(t, p.tab, sel)
			p.waitFor(fmt.Sprintf(`document.getElementById("insp-node").dataset.node === "%d"`, n.From.Node), "the inspector to show the forward node")
			break
		}
		p.shot("grad-" + name)
		p.noPageError()
	}
}

// closeTo fails unless got equals want to 1e-9 relative to want's largest
// entry.
func closeTo(t *testing.T, what string, got, want []float64) {
	t.Helper()
	if len(got) != len(want) || len(want) == 0 {
		t.Fatalf("%s: the page shows %d numbers, PyTorch %d", what, len(got), len(want))
	}
	scale := 0.0
	for _, v := range want {
		scale = max(scale, math.Abs(v))
	}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-9*scale {
			t.Errorf("%s[%d] = %.17g on the page, PyTorch %.17g", what, i, got[i], want[i])
		}
	}
}

// allZero reports whether every number of vs is 0.
func allZero(vs []float64) bool {
	for _, v := range vs {
		if v != 0 {
			return false
		}
	}
	return true
}

// flatNumbers lists the numbers of a nested JSON array in order.
func flatNumbers(v any) []float64 {
	switch v := v.(type) {
	case float64:
		return []float64{v}
	case []any:
		var out []float64
		for _, e := range v {
			out = append(out, flatNumbers(e)...)
		}
		return out
	}
	return nil
}
