//go:build js && wasm

package stepview

import (
	"tapelab/wasm/dom"

	"strconv"

	"tapelab/engine/ir"
)

// pipelineView shows, in the compiled listing, the IR path stage by stage
// (export or decode, check, check shapes, lower, feed, compile), each with
// a ✓ or its error, and lets the person open an IR document: pasted JSON
// runs through the same stages, and when it passes the page steps its
// graph; when it does not, the stage that refused it says why.
type pipelineView struct {
	sv     *View
	root   dom.Elem
	title  dom.Elem
	stages dom.Elem
	text   dom.Elem
}

func newPipelineView(sv *View) *pipelineView {
	doc := sv.doc
	v := &pipelineView{sv: sv}
	v.root = doc.El("div", "class", "pipeline", "id", "pipeline")
	v.title = doc.El("h4", "id", "pipeline-title")
	v.stages = doc.El("ol", "class", "stages mono", "id", "ir-stages", "aria-labelledby", "pipeline-title")
	open := doc.El("details", "class", "ir-open", "id", "ir-open")
	open.AppendChild(doc.Txt("summary", "Open an IR document"))
	v.text = doc.El("textarea", "id", "ir-open-text", "rows", "4", "spellcheck", "false",
		"aria-label", "IR document (tapelab.ir.v1 JSON)", "placeholder", `{"format": "tapelab.ir.v1", "nodes": [...], "payload": {...}}`)
	hint := doc.Txt("p", "Paste a tapelab.ir.v1 document (the IR export is one). Its inputs are the mini-batch (input 0 is x, input 1 the targets). "+
		"When every stage passes, the tape steps its graph from its last node; an edit or a mode switch goes back to the model.", "class", "hint")
	dom.Add(open, v.text, dom.Add(doc.El("div", "class", "row"),
		doc.Button("Run the IR", "Run the document through the IR pipeline", v.run, "id", "ir-open-run"),
		doc.Button("Back to the model", "Step the model's training step again", v.back, "id", "ir-open-back")), hint)
	dom.Add(v.root, v.title, v.stages, open)
	return v
}

// build lists the playground's pipeline: the model's IR path, or the
// opened document's.
func (v *pipelineView) build() {
	doc := v.sv.doc
	v.stages.Clear()
	p := v.sv.model().Pipeline()
	if p == nil {
		v.root.SetAttribute("hidden", "")
		return
	}
	v.root.RemoveAttribute("hidden")
	title := "IR path of the model: model → IR → checked compile"
	if len(p.Stages) > 0 && p.Stages[0].Name == ir.StageDecode {
		title = "IR path of the opened document"
	}
	if err := p.Err(); err != nil {
		title += " · refused"
	} else {
		title += " · ✓"
	}
	v.title.SetTextContent(title)
	for k, s := range p.Stages {
		class := "ok"
		switch {
		case !s.Ran:
			class = "not-run"
		case s.Err != nil:
			class = "bad"
		}
		v.stages.AppendChild(doc.Txt("li", s.String(), "class", class, "id", "ir-stage-"+strconv.Itoa(k), "data-stage", s.Name))
	}
}

// run opens the pasted document.
func (v *pipelineView) run() {
	if err := v.sv.st.OpenIR([]byte(v.text.Value())); err != nil {
		v.build() // the tape stays; the stages say which one refused
		v.stages.QuerySelector("li.bad").ScrollIntoView()
	}
}

// back records the model's step again.
func (v *pipelineView) back() {
	if err := v.sv.st.SetModes(v.sv.model().Modes()); err != nil {
		v.sv.d.ShowError(err.Error())
	}
}
