//go:build js && wasm

package stepview

import (
	"tapelab/wasm/dom"

	"strconv"

	"tapelab/engine/nn"
	"tapelab/wasm/app"
)

// editorView is the model editor: the layers with their settings and live
// output shapes, the engine's message on the layer at fault, add, remove,
// reorder, undo and redo.
type editorView struct {
	sv    *View
	root  dom.Elem
	list  dom.Elem
	undo  dom.Elem
	redo  dom.Elem
	local map[int]string // a setting that did not parse, per layer
}

func newEditorView(sv *View) *editorView {
	doc := sv.doc
	v := &editorView{sv: sv, local: map[int]string{}}
	v.root = sv.d.Own("model", doc.El("section", "class", "editor", "aria-labelledby", "model-title", "id", "editor"))
	bar := doc.El("div", "class", "region-bar")
	h := doc.El("h2", "id", "model-title")
	h.SetTextContent("Model")
	tools := doc.El("div", "class", "undo-tools", "role", "group", "aria-label", "History")
	v.undo = sv.doc.Button("↶", "Undo the last edit (Ctrl+Z)", sv.undo, "id", "undo")
	v.redo = sv.doc.Button("↷", "Redo (Ctrl+Y)", sv.redo, "id", "redo")
	dom.Add(tools, v.undo, v.redo)
	dom.Add(bar, h, tools)
	v.list = doc.El("ol", "class", "layers", "id", "layers")
	dom.Add(v.root, bar, v.list)
	return v
}

// forget drops the settings that did not parse: after an undo, a redo or
// a structural edit they no longer belong to their rows.
func (v *editorView) forget() { v.local = map[int]string{} }

// render redraws the editor from the playground's document.
func (v *editorView) render() {
	doc := v.sv.doc
	pg := v.sv.model()
	focused := activeID(doc)
	v.list.Clear()
	d := pg.Doc()
	in := doc.El("li", "class", "layer input-layer")
	dom.Add(in, doc.Txt("span", "input", "class", "layer-name"), doc.Txt("span", d.Input.String(), "class", "layer-shape mono"))
	in.AppendChild(doc.Txt("span", "from the dataset", "class", "layer-note"))
	v.list.AppendChild(in)
	st := pg.Status()
	for i, l := range d.Layers {
		v.list.AppendChild(v.layerRow(i, l, st[i], len(d.Layers)))
	}
	v.list.AppendChild(v.addRow(len(d.Layers)))
	v.list.AppendChild(v.lossRow(d))
	v.undo.SetDisabled(!pg.CanUndo())
	v.redo.SetDisabled(!pg.CanRedo())
	if focused != "" {
		if e := doc.ByID(focused); e.OK() {
			e.Focus()
		}
	}
}

func activeID(doc *dom.Document) string {
	a := doc.Active()
	if !a.OK() {
		return ""
	}
	return a.ID()
}

func (v *editorView) layerRow(i int, l nn.Layer, st app.LayerStatus, n int) dom.Elem {
	doc := v.sv.doc
	sv := v.sv
	idx := strconv.Itoa(i)
	li := doc.El("li", "class", "layer", "id", "layer-"+idx, "data-layer", idx)
	head := doc.El("div", "class", "layer-head")
	out := "?"
	if st.Out != nil {
		out = st.Out.String()
	}
	dom.Add(head, doc.Txt("span", idx, "class", "layer-index mono"), doc.Txt("span", l.Type(), "class", "layer-name"),
		doc.Txt("span", "→ "+out, "class", "layer-shape mono"))
	tools := doc.El("span", "class", "layer-tools")
	up := sv.doc.Button("↑", "Move layer "+idx+" up", func() { v.move(i, i-1) }, "id", "up-"+idx)
	down := sv.doc.Button("↓", "Move layer "+idx+" down", func() { v.move(i, i+1) }, "id", "down-"+idx)
	up.SetDisabled(i == 0)
	down.SetDisabled(i == n-1)
	dom.Add(tools, up, down, sv.doc.Button("✕", "Remove layer "+idx, func() { v.remove(i) }, "id", "remove-"+idx))
	li.AppendChild(head)
	row := doc.El("div", "class", "fields")
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
		e := doc.Txt("p", "⚠ "+msg, "class", "layer-error")
		e.SetAttribute("role", "alert")
		e.SetID("layer-error-" + idx)
		li.AppendChild(e)
	}
	return li
}

func (v *editorView) fieldEl(i int, l nn.Layer, f app.Field) dom.Elem {
	doc := v.sv.doc
	id := "field-" + strconv.Itoa(i) + "-" + f.Name
	lab := doc.El("label", "class", "field", "for", id)
	lab.AppendChild(doc.Txt("span", f.Name))
	var in dom.Elem
	if f.Kind == "bool" {
		in = doc.El("input", "type", "checkbox", "id", id)
		in.SetChecked(f.Value == "true")
	} else {
		in = doc.El("input", "type", "text", "inputmode", "decimal", "id", id, "size", "5", "class", "mono")
		in.SetValue(f.Value)
	}
	v.sv.doc.Listen(in, "change", "edit "+f.Name, func(dom.Event) {
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
		d, err := v.sv.model().Doc().Replace(i, nl)
		if err == nil {
			v.sv.edit(d)
		}
	})
	lab.AppendChild(in)
	return lab
}

func (v *editorView) addRow(n int) dom.Elem {
	doc := v.sv.doc
	li := doc.El("li", "class", "add-layer")
	sel := doc.El("select", "id", "add-type", "aria-label", "Layer type to add")
	for _, t := range app.LayerTypes(v.sv.model().Doc().Input) {
		o := doc.El("option", "value", t)
		o.SetTextContent(t)
		sel.AppendChild(o)
	}
	dom.Add(li, sel, v.sv.doc.Button("+ add layer", "Add a layer of the chosen type before the output layer", func() {
		l, err := app.NewLayer(sel.Value())
		if err != nil {
			v.sv.d.ShowError(err.Error())
			return
		}
		d := v.sv.model().Doc()
		v.forget()
		v.sv.edit(d.Insert(max(len(d.Layers)-1, 0), l))
	}, "id", "add-layer"))
	return li
}

func (v *editorView) move(i, j int) {
	d, err := v.sv.model().Doc().Move(i, j)
	if err == nil {
		v.forget()
		v.sv.edit(d)
	}
}

func (v *editorView) remove(i int) {
	d, err := v.sv.model().Doc().Remove(i)
	if err == nil {
		v.forget()
		v.sv.edit(d)
	}
}

// lossRow is the loss and its menu.
func (v *editorView) lossRow(d app.Doc) dom.Elem {
	doc := v.sv.doc
	li := doc.El("li", "class", "layer loss-layer")
	sel := doc.El("select", "id", "loss", "aria-label", "Loss", "class", "mono")
	for _, l := range nn.Losses() {
		o := doc.Txt("option", string(l), "value", string(l))
		sel.AppendChild(o)
	}
	sel.SetValue(string(d.Loss))
	v.sv.doc.Listen(sel, "change", "loss", func(dom.Event) {
		l, err := nn.ParseLoss(sel.Value())
		if err != nil {
			v.sv.d.ShowError(err.Error())
			return
		}
		d := v.sv.model().Doc()
		d.Loss = l
		v.sv.edit(d)
	})
	dom.Add(li, doc.Txt("span", "loss", "class", "layer-name"), sel)
	return li
}
