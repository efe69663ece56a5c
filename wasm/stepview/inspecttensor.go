//go:build js && wasm

package stepview

import (
	"tapelab/engine/tensor"
	"tapelab/wasm/dom"
	"tapelab/wasm/ui"
)

// tensorEl shows t as a table of numbers (small tensors) or a colour grid
// (larger ones), each cell carrying its full-precision value. The element
// shown under id is made once per shape and kept (see gridFor): showing a
// tensor of a shape shown before updates that element in place, writing
// only the cells whose number or colour changed.
func (v *inspectorView) tensorEl(t *tensor.Tensor, id string) dom.Elem {
	g := v.gridFor(t, id)
	g.Show(t, v.sv.d.Scale)
	return g.Elem()
}

// The inspector keeps, per place, the grids of the last tensorViewsKept
// shapes it showed there, holding at most tensorCellsKept cells in all
// beyond the one on screen (a colour grid has up to 48 × 48): stepping
// goes from a node to its neighbours, whose tensors have a few shapes,
// and backward goes back and forth between them.
const (
	tensorViewsKept = 6
	tensorCellsKept = 5000
)

// keptGrid is a grid the inspector keeps, with its shape and its cells.
type keptGrid struct {
	shape string
	cells int
	grid  *ui.TensorGrid
}

// gridFor returns the grid for tensors of t's shape under id: the one
// kept from an earlier step, else a new one.
func (v *inspectorView) gridFor(t *tensor.Tensor, id string) *ui.TensorGrid {
	if kg := takeView(v.tensors[id], t.Shape.String()); kg != nil {
		return kg.grid
	}
	g := ui.NewTensorGrid(v.sv.doc, t, id)
	if v.tensors == nil {
		v.tensors = map[string][]*keptGrid{}
	}
	v.tensors[id] = keepViews(&keptGrid{shape: g.Shape(), cells: g.Cells(), grid: g}, v.tensors[id])
	return g
}

// takeView returns the grid of shape among kept (the latest shown
// first), moved to the front, or nil.
func takeView(kept []*keptGrid, shape string) *keptGrid {
	for k, kg := range kept {
		if kg.shape == shape {
			copy(kept[1:k+1], kept[:k])
			kept[0] = kg
			return kg
		}
	}
	return nil
}

// keepViews returns kept with kg in front, less the least recently shown
// beyond tensorViewsKept grids or tensorCellsKept cells besides kg.
func keepViews(kg *keptGrid, kept []*keptGrid) []*keptGrid {
	views, cells := []*keptGrid{kg}, 0
	for _, old := range kept {
		if cells += old.cells; len(views) == tensorViewsKept || cells > tensorCellsKept {
			break
		}
		views = append(views, old)
	}
	return views
}
