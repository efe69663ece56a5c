//go:build js && wasm

package tape

import (
	"strings"

	"tapelab/wasm/app"
	"tapelab/wasm/dom"
)

// lossPointer says where the loss is when the tape's view does not show
// it: a button at the edge of the drawing on the loss's side ("Loss →"),
// which pans the view to it. A tape too long for its region (a phone's
// first screen) starts at its inputs; the pointer tells a person that the
// chain goes on, and to what.
type lossPointer struct {
	btn  dom.Elem
	node int    // the loss's node (-1: the tape has none)
	name string // "Loss", or "Output" for a program's output
	side string // the edge it is shown at ("": hidden)
}

// follow points at the output node i of nodes from now on.
func (lp *lossPointer) follow(nodes []app.NodeInfo, i int) {
	lp.node, lp.name, lp.side = i, "Output", "?"
	if i >= 0 && i < len(nodes) && nodes[i].Role == "loss" {
		lp.name = "Loss"
	}
}

// newLossPointer makes the pointer's button, hidden, for the tape frame.
func newLossPointer(v *View) *lossPointer {
	lp := &lossPointer{node: -1}
	lp.btn = v.deps.Doc.Button("Loss →", "Pan the tape to the loss", func() { v.panTo(lp.node) },
		"id", "to-loss", "class", "to-loss", "hidden", "")
	return lp
}

// update shows the pointer at the edge past which the loss lies, or hides
// it when the view shows the whole of the loss's box.
func (lp *lossPointer) update(v *View) {
	side := ""
	if i := lp.node; v.lay != nil && i >= 0 && i < len(v.lay.Boxes) {
		b, s := v.lay.Boxes[i], v.view.Scale
		w, h := v.size()
		x0, x1 := v.view.TX+b.X*s, v.view.TX+(b.X+b.W)*s
		y0, y1 := v.view.TY+b.Y*s, v.view.TY+(b.Y+b.H)*s
		switch {
		case x1 > w:
			side = "right"
		case x0 < 0:
			side = "left"
		case y1 > h:
			side = "bottom"
		case y0 < 0:
			side = "top"
		}
	}
	if side == lp.side {
		return
	}
	lp.side = side
	if side == "" {
		lp.btn.Show(false)
		return
	}
	arrow := map[string]string{"right": " →", "left": "← ", "bottom": " ↓", "top": " ↑"}[side]
	if side == "left" {
		lp.btn.SetTextContent(arrow + lp.name)
	} else {
		lp.btn.SetTextContent(lp.name + arrow)
	}
	lp.btn.SetAttribute("title", "Pan the tape to the "+strings.ToLower(lp.name))
	lp.btn.SetAttribute("data-side", side)
	lp.btn.Show(true)
}

// panTo pans the view, keeping the zoom, so that node i is in view.
func (v *View) panTo(i int) {
	if v.lay == nil || i < 0 || i >= len(v.lay.Boxes) {
		return
	}
	w, h := v.size()
	if nv, moved := v.view.Follow(v.lay.Boxes[i], w, h, followPad); moved {
		v.view = nv
		v.apply()
	}
}
