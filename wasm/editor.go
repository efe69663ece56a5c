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
	v.root = el(doc, "section", "class", "editor", "aria-labelledby", "model-title", "id", "editor")
	bar := el(doc, "div", "class", "region-bar")
	h := el(doc, "h2", "id", "model-title")
	h.SetTextContent("Model")
	tools := el(doc, "div", "class", "undo-tools", "role", "group", "aria-label", "History")
	v.undo = pv.button("↶", "Undo the last edit (Ctrl+Z)", pv.undo, "id", "undo")
	v.redo = pv.button("↷", "Redo (Ctrl+Y)", pv.redo, "id", "redo")
	add(tools, v.undo, v.redo)
	add(bar, h, tools)
	v.list = el(doc, "ol", "class", "layers", "id", "layers")
	add(v.root, bar, v.list)
	return v
}

// render redraws the editor from the playground's document.
func (v *editorView) render() {
	doc := v.pv.doc
	pg := v.pv.pg
	focused := activeID(doc)
	clearEl(v.list)
	d := pg.Doc()
	in := el(doc, "li", "class", "layer input-layer")
	add(in, textEl(doc, "span", "layer-name", "input"), textEl(doc, "span", "layer-shape mono", d.Input.String()))
	in.AppendChild(textEl(doc, "span", "layer-note", "from the dataset"))
	v.list.AppendChild(in)
	st := pg.Status()
	for i, l := range d.Layers {
		v.list.AppendChild(v.layerRow(i, l, st[i], len(d.Layers)))
	}
	v.list.AppendChild(v.addRow(len(d.Layers)))
	loss := el(doc, "li", "class", "layer loss-layer")
	add(loss, textEl(doc, "span", "layer-name", "loss"), textEl(doc, "span", "layer-shape mono", string(d.Loss)))
	v.list.AppendChild(loss)
	setDisabled(v.undo, !pg.CanUndo())
	setDisabled(v.redo, !pg.CanRedo())
	if focused != "" {
		if e := doc.GetElementByID(focused); e.ok() {
			e.Focus()
		}
	}
}

func activeID(doc document) string {
	a := doc.ActiveElement()
	if !a.ok() {
		return ""
	}
	return a.ID()
}

func setDisabled(e elem, off bool) {
	if off {
		e.SetAttribute("disabled", "")
	} else {
		e.RemoveAttribute("disabled")
	}
}

func (v *editorView) layerRow(i int, l nn.Layer, st app.LayerStatus, n int) elem {
	doc := v.pv.doc
	pv := v.pv
	idx := strconv.Itoa(i)
	li := el(doc, "li", "class", "layer", "id", "layer-"+idx, "data-layer", idx)
	head := el(doc, "div", "class", "layer-head")
	out := "?"
	if st.Out != nil {
		out = st.Out.String()
	}
	add(head, textEl(doc, "span", "layer-index mono", idx), textEl(doc, "span", "layer-name", l.Type()),
		textEl(doc, "span", "layer-shape mono", "→ "+out))
	tools := el(doc, "span", "class", "layer-tools")
	up := pv.button("↑", "Move layer "+idx+" up", func() { v.move(i, i-1) }, "id", "up-"+idx)
	down := pv.button("↓", "Move layer "+idx+" down", func() { v.move(i, i+1) }, "id", "down-"+idx)
	setDisabled(up, i == 0)
	setDisabled(down, i == n-1)
	add(tools, up, down, pv.button("✕", "Remove layer "+idx, func() { v.remove(i) }, "id", "remove-"+idx))
	li.AppendChild(head)
	row := el(doc, "div", "class", "fields")
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
		li.Class().Add("bad")
		e := textEl(doc, "p", "layer-error", "⚠ "+msg)
		e.SetAttribute("role", "alert")
		e.SetID("layer-error-" + idx)
		li.AppendChild(e)
	}
	return li
}

func (v *editorView) fieldEl(i int, l nn.Layer, f app.Field) elem {
	doc := v.pv.doc
	id := "field-" + strconv.Itoa(i) + "-" + f.Name
	lab := el(doc, "label", "class", "field", "for", id)
	lab.AppendChild(textEl(doc, "span", "", f.Name))
	var in elem
	if f.Kind == "bool" {
		in = el(doc, "input", "type", "checkbox", "id", id)
		in.SetChecked(f.Value == "true")
	} else {
		in = el(doc, "input", "type", "text", "inputmode", "decimal", "id", id, "size", "5", "class", "mono")
		in.SetValue(f.Value)
	}
	v.pv.listen(in, "change", "edit "+f.Name, func(event) {
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
		d, err := v.pv.pg.Doc().Replace(i, nl)
		if err == nil {
			v.pv.edit(d)
		}
	})
	lab.AppendChild(in)
	return lab
}

func (v *editorView) addRow(n int) elem {
	doc := v.pv.doc
	li := el(doc, "li", "class", "add-layer")
	sel := el(doc, "select", "id", "add-type", "aria-label", "Layer type to add")
	for _, t := range app.LayerTypes() {
		o := el(doc, "option", "value", t)
		o.SetTextContent(t)
		sel.AppendChild(o)
	}
	add(li, sel, v.pv.button("+ add layer", "Add a layer of the chosen type before the output layer", func() {
		l, err := app.NewLayer(sel.Value())
		if err != nil {
			v.pv.p.showError(err.Error())
			return
		}
		d := v.pv.pg.Doc()
		v.local = map[int]string{}
		v.pv.edit(d.Insert(max(len(d.Layers)-1, 0), l))
	}, "id", "add-layer"))
	return li
}

func (v *editorView) move(i, j int) {
	d, err := v.pv.pg.Doc().Move(i, j)
	if err == nil {
		v.local = map[int]string{}
		v.pv.edit(d)
	}
}

func (v *editorView) remove(i int) {
	d, err := v.pv.pg.Doc().Remove(i)
	if err == nil {
		v.local = map[int]string{}
		v.pv.edit(d)
	}
}
