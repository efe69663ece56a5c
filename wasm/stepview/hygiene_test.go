//go:build js && wasm

package stepview

import (
	"tapelab/wasm/dom"

	"strings"
	"syscall/js"
	"testing"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
	"tapelab/wasm/state"
)

// fakeElem is a stand-in for a DOM element in node, which has no DOM: it
// keeps what render writes (its text, markup and attributes).
func fakeElem() dom.Elem {
	return dom.Wrap(js.Global().Call("eval", `({ attrs: {}, textContent: "", innerHTML: "",
		setAttribute(k, v) { this.attrs[k] = String(v); }, removeAttribute(k) { delete this.attrs[k]; } })`))
}

// TestHygieneSaysAFailedFold: when folding a backward pass into .grad
// fails, the panel says why, and the render that follows keeps saying it.
func TestHygieneSaysAFailedFold(t *testing.T) {
	st := state.New(link.DefaultDataset)
	st.SetAccumulate(true) // no zeroing: the fold adds to what .grad kept
	s := st.Model().Stepper()
	s.ToEnd()
	if s.Position().Phase != autograd.PhaseDone {
		t.Fatalf("the stepper is at %v after ToEnd, want the end", s.Position())
	}
	// Gradients kept from a tape of another size: the fold cannot add to them.
	x, _ := tensor.New(tensor.Shape{2, 2}, []float64{1, 2, 3, 4})
	y, _ := tensor.New(tensor.Shape{2, 1}, []float64{1, 0})
	b, err := app.MiniBatch(x, y, 2, nn.MSE)
	if err != nil {
		t.Fatal(err)
	}
	other, err := app.New(app.Doc{Input: tensor.Shape{2}, Layers: []nn.Layer{nn.NewLinear(1)}, Loss: nn.MSE, Seed: 1}, b)
	if err != nil {
		t.Fatal(err)
	}
	o := other.Stepper()
	o.ToEnd()
	var kept autograd.Grads
	seed := tensor.Zeros(o.Tape().Node(o.Output()).Value.Shape)
	seed.Fill(1)
	if _, err := o.Tape().BackwardAccumulate(o.Output(), seed, &kept); err != nil {
		t.Fatal(err)
	}

	h := &hygieneView{sv: &View{st: st}, root: fakeElem(), said: fakeElem(), rows: fakeElem(), card: fakeElem(), shown: -1}
	h.s, h.acc, h.armed = s, kept, true
	h.update(s)
	said := h.said.TextContent()
	if !strings.HasPrefix(said, "backward: ") || !strings.Contains(said, "slots") {
		t.Errorf("after a failed fold the panel says %q, want the fold's error", said)
	}
	h.render() // a click on a row, or the switch, renders again
	if got := h.said.TextContent(); got != said {
		t.Errorf("rendered again, the panel says %q, want the error %q still", got, said)
	}
}
