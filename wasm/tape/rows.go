//go:build js && wasm

package tape

import (
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
	"tapelab/wasm/dom"
	"tapelab/wasm/ui"
)

// tensorRow is what a tape box shows a node's value or gradient with: a
// strip of cells (ui.Strip) or, for an image tensor, a grid of small
// images (ui.ImageStrip).
type tensorRow interface {
	Show(t *tensor.Tensor)
	Group() dom.Elem
}

// rows returns node n's value and gradient rows for a box of width w: image
// grids when its tensors are images, strips otherwise.
func (v *View) rows(n app.NodeInfo, w float64) (val, grad tensorRow) {
	doc, sc := v.deps.Doc, v.deps.Scale
	if g, ok := app.NodeGrid(n, 0); ok {
		vy, gy := app.ImageRows(g)
		kernel := app.IsKernel(n)
		return ui.NewImageStrip(doc, sc, "val", vy, "v", g, n.Shape, kernel, v.deps.Example),
			ui.NewImageStrip(doc, sc, "grad", gy, "g", g, n.Shape, kernel, v.deps.Example)
	}
	size := n.Shape.Size()
	vs := ui.NewStrip(doc, sc, "val", app.ValueY, "v", size, app.StripW(w), v.stripProtos)
	gs := ui.NewStrip(doc, sc, "grad", app.GradY, "g", size, app.StripW(w), v.stripProtos)
	return vs, gs
}
