//go:build js && wasm

package main

import (
	"strconv"

	"tapelab/engine/nn"
	"tapelab/wasm/app"
)

// editorView is the model editor: the layers with their settings and live
// output shapes, the engine's message on the layer at fault, add, remove,
// reorder, undo and redo.
type editorView struct {
	pv    *playground
	root  elem
	list  elem
	undo  elem
	redo  elem
	local map[int]string // a setting that did not parse, per layer
}

func newEditorView(pv *playground) *editorView {
	doc := pv.doc
	v := &editorView{pv: pv, local: map[int]string{}}
	v.root = pv.regions.own("model", doc.el("section", "class", "editor", "aria-labelledby", "model-title", "id", "editor"))
	bar := doc.el("div", "class", "region-bar")
	h := doc.el("h2", "id", "model-title")
	h.SetTextContent("Model")
	tools := doc.el("div", "class", "undo-tools", "role", "group", "aria-label", "History")
	v.undo = pv.doc.button("↶", "Undo the last edit (Ctrl+Z)", pv.undo, "id", "undo")
	v.redo = pv.doc.button("↷", "Redo (Ctrl+Y)", pv.redo, "id", "redo")
	add(tools, v.undo, v.redo)
	add(bar, h, tools)
	v.list = doc.el("ol", "class", "layers", "id", "layers")
	add(v.root, bar, v.list)
	return v
}

// forget drops the settings that did not parse: after an undo, a redo or
// a structural edit they no longer belong to their rows.
func (v *editorView) forget() { v.local = map[int]string{} }

// render redraws the editor from the playground's document.
func (v *editorView) render() {
	doc := v.pv.doc
	pg := v.pv.model()
	focused := activeID(doc)
	v.list.clear()
	d := pg.Doc()
	in := doc.el("li", "class", "layer input-layer")
	add(in, doc.txt("span", "input", "class", "layer-name"), doc.txt("span", d.Input.String(), "class", "layer-shape mono"))
	in.AppendChild(doc.txt("span", "from the dataset", "class", "layer-note"))
	v.list.AppendChild(in)
	st := pg.Status()
	for i, l := range d.Layers {
		v.list.AppendChild(v.layerRow(i, l, st[i], len(d.Layers)))
	}
	v.list.AppendChild(v.addRow(len(d.Layers)))
	v.list.AppendChild(v.lossRow(d))
	v.undo.setDisabled(!pg.CanUndo())
	v.redo.setDisabled(!pg.CanRedo())
	if focused != "" {
		if e := doc.byID(focused); e.ok() {
			e.Focus()
		}
	}
}

func activeID(doc *document) string {
	a := doc.active()
	if !a.ok() {
		return ""
	}
	return a.ID()
}

func (v *editorView) layerRow(i int, l nn.Layer, st app.LayerStatus, n int) elem {
	doc := v.pv.doc
	pv := v.pv
	idx := strconv.Itoa(i)
	li := doc.el("li", "class", "layer", "id", "layer-"+idx, "data-layer", idx)
	head := doc.el("div", "class", "layer-head")
	out := "?"
	if st.Out != nil {
		out = st.Out.String()
	}
	add(head, doc.txt("span", idx, "class", "layer-index mono"), doc.txt("span", l.Type(), "class", "layer-name"),
		doc.txt("span", "→ "+out, "class", "layer-shape mono"))
	tools := doc.el("span", "class", "layer-tools")
	up := pv.doc.button("↑", "Move layer "+idx+" up", func() { v.move(i, i-1) }, "id", "up-"+idx)
	down := pv.doc.button("↓", "Move layer "+idx+" down", func() { v.move(i, i+1) }, "id", "down-"+idx)
	up.setDisabled(i == 0)
	down.setDisabled(i == n-1)
	add(tools, up, down, pv.doc.button("✕", "Remove layer "+idx, func() { v.remove(i) }, "id", "remove-"+idx))
	li.AppendChild(head)
	row := doc.el("div", "class", "fields")
	for _, f := range app.Fields(l) {
		row.AppendChild(v.fieldEl(i, l, f))
	}
	row.AppendChild(tools)
	li.AppendChild(row)
	msg := st.Err
	if m, ok := v.local[i]; ok {
		msg = m
	}
	if msg != "" {
		li.AddClass("bad")
		e := doc.txt("p", "⚠ "+msg, "class", "layer-error")
		e.SetAttribute("role", "alert")
		e.SetID("layer-error-" + idx)
		li.AppendChild(e)
	}
	return li
}

func (v *editorView) fieldEl(i int, l nn.Layer, f app.Field) elem {
	doc := v.pv.doc
	id := "field-" + strconv.Itoa(i) + "-" + f.Name
	lab := doc.el("label", "class", "field", "for", id)
	lab.AppendChild(doc.txt("span", f.Name))
	var in elem
	if f.Kind == "bool" {
		in = doc.el("input", "type", "checkbox", "id", id)
		in.SetChecked(f.Value == "true")
	} else {
		in = doc.el("input", "type", "text", "inputmode", "decimal", "id", id, "size", "5", "class", "mono")
		in.SetValue(f.Value)
	}
	v.pv.doc.listen(in, "change", "edit "+f.Name, func(event) {
		val := in.Value()
		if f.Kind == "bool" {
			val = strconv.FormatBool(in.Checked())
		}
		nl, err := app.SetField(l, f.Name, val)
		if err != nil {
			v.local[i] = err.Error()
			v.render()
			return
		}
		delete(v.local, i)
		d, err := v.pv.model().Doc().Replace(i, nl)
		if err == nil {
			v.pv.edit(d)
		}
	})
	lab.AppendChild(in)
	return lab
}

func (v *editorView) addRow(n int) elem {
	doc := v.pv.doc
	li := doc.el("li", "class", "add-layer")
	sel := doc.el("select", "id", "add-type", "aria-label", "Layer type to add")
	for _, t := range app.LayerTypes(v.pv.model().Doc().Input) {
		o := doc.el("option", "value", t)
		o.SetTextContent(t)
		sel.AppendChild(o)
	}
	add(li, sel, v.pv.doc.button("+ add layer", "Add a layer of the chosen type before the output layer", func() {
		l, err := app.NewLayer(sel.Value())
		if err != nil {
			v.pv.p.showError(err.Error())
			return
		}
		d := v.pv.model().Doc()
		v.forget()
		v.pv.edit(d.Insert(max(len(d.Layers)-1, 0), l))
	}, "id", "add-layer"))
	return li
}

func (v *editorView) move(i, j int) {
	d, err := v.pv.model().Doc().Move(i, j)
	if err == nil {
		v.forget()
		v.pv.edit(d)
	}
}

func (v *editorView) remove(i int) {
	d, err := v.pv.model().Doc().Remove(i)
	if err == nil {
		v.forget()
		v.pv.edit(d)
	}
}

// lossRow is the loss and its menu.
func (v *editorView) lossRow(d app.Doc) elem {
	doc := v.pv.doc
	li := doc.el("li", "class", "layer loss-layer")
	sel := doc.el("select", "id", "loss", "aria-label", "Loss", "class", "mono")
	for _, l := range nn.Losses() {
		o := doc.txt("option", string(l), "value", string(l))
		sel.AppendChild(o)
	}
	sel.SetValue(string(d.Loss))
	v.pv.doc.listen(sel, "change", "loss", func(event) {
		l, err := nn.ParseLoss(sel.Value())
		if err != nil {
			v.pv.p.showError(err.Error())
			return
		}
		d := v.pv.model().Doc()
		d.Loss = l
		v.pv.edit(d)
	})
	add(li, doc.txt("span", "loss", "class", "layer-name"), sel)
	return li
}
