//go:build js && wasm

package main

import (
	"bytes"
	"fmt"
	"strings"
	"syscall/js"

	"tapelab/engine/ir"
	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
	"tapelab/engine/pytorch"
	"tapelab/engine/spec"
	"tapelab/engine/tensor"
	"tapelab/wasm/app"
)

// exportKinds are the downloads: id, button label, file name, MIME type.
var exportKinds = [][4]string{
	{"pytorch", "PyTorch code", "tapelab_model.py", "text/x-python"},
	{"state_dict", "state_dict (JSON)", "state_dict.json", "application/json"},
	{"ir", "IR (JSON)", "model.ir.json", "application/json"},
	{"spec", "Model document (JSON)", "model.json", "application/json"},
	{"tape-svg", "Tape picture (SVG)", "tape.svg", "image/svg+xml"},
	{"tape-text", "Tape as text", "tape.txt", "text/plain"},
}

// exportPanel lists the downloads.
func (sh *shell) exportPanel() js.Value {
	u := sh.u
	list := u.el("div", "class", "pop export-list")
	for _, k := range exportKinds {
		k := k
		list.Call("append", u.btn(k[1], "Download "+k[2], func() { sh.download(k[0], k[2], k[3]) }, "id", "export-"+k[0]))
	}
	sh.exportMsg = u.txt("p", "", "class", "train-msg", "role", "alert", "hidden", "", "id", "export-msg")
	list.Call("append", sh.exportMsg)
	return appendAll(u.el("details", "class", "export", "data-control", "export"), u.txt("summary", "Export"), list)
}

// exposeExports makes the exports callable from the page's console and
// tests: tapelabExport("pytorch") returns the text a download would save.
func (sh *shell) exposeExports() {
	js.Global().Set("tapelabExport", js.FuncOf(func(_ js.Value, args []js.Value) any {
		var out any = nil
		recovered("export", sh.u.report, func() {
			if len(args) == 0 {
				return
			}
			s, err := sh.export(args[0].String())
			if err != nil {
				out = map[string]any{"error": err.Error()}
				return
			}
			out = s
		})
		return out
	}))
}

// download saves one export as a file.
func (sh *shell) download(kind, name, mime string) {
	text, err := sh.export(kind)
	if err != nil {
		sh.exportMsg.Set("textContent", kind+": "+err.Error())
		show(sh.exportMsg, true)
		return
	}
	show(sh.exportMsg, false)
	blob := js.Global().Get("Blob").New(js.ValueOf([]any{text}), map[string]any{"type": mime})
	url := js.Global().Get("URL").Call("createObjectURL", blob)
	a := sh.u.el("a", "href", url.String(), "download", name, "hidden", "")
	sh.u.doc.Get("body").Call("append", a)
	a.Call("click")
	a.Call("remove")
	js.Global().Call("setTimeout", js.FuncOf(func(js.Value, []js.Value) any {
		js.Global().Get("URL").Call("revokeObjectURL", url)
		return nil
	}), 10000)
}

// current is the model on screen with its current parameters.
func (sh *shell) current() (*spec.Model, *nn.Model, error) {
	sm := sh.state().Model
	if sh.view != "train" && sh.pv.pg.Model() != nil && sh.pv.pg.Err() == nil {
		m := sh.pv.pg.Model()
		sm.Params = map[string]*tensor.Tensor{}
		for i, p := range m.Seq.Params() {
			sm.Params[p.Name] = m.Params[i]
		}
	}
	m, err := sm.Build()
	return sm, m, err
}

// export returns the text of one download.
func (sh *shell) export(kind string) (string, error) {
	switch kind {
	case "tape-svg":
		return sh.tapeSVG()
	case "tape-text":
		s := sh.pv.pg.Stepper()
		if s == nil {
			return "", fmt.Errorf("no tape yet")
		}
		return tapeText(s), nil
	}
	sm, m, err := sh.current()
	if err != nil {
		return "", err
	}
	switch kind {
	case "pytorch":
		code, err := pytorch.Code(sm, m, "the TapeLab playground")
		return string(code), err
	case "state_dict":
		var b bytes.Buffer
		b.WriteString("{\n")
		for i, p := range m.Seq.Params() {
			if i > 0 {
				b.WriteString(",\n")
			}
			b.WriteString("  ")
			b.Write(jsontext.AppendString(nil, p.Name))
			b.WriteString(": ")
			nested(&b, m.Params[i].Shape, m.Params[i].Data)
		}
		b.WriteString("\n}\n")
		return b.String(), nil
	case "ir":
		g, err := ir.FromModel(m, sh.pv.pg.Batch().X.Shape[0], nn.Train, 1, true)
		if err != nil {
			return "", err
		}
		out, err := ir.Encode(g)
		return string(out), err
	case "spec":
		out, err := spec.Encode(sm)
		return string(out), err
	}
	return "", fmt.Errorf("no export %q", kind)
}

// nested writes data as nested JSON arrays of the given shape.
func nested(b *bytes.Buffer, shape tensor.Shape, data []float64) {
	if len(shape) == 0 {
		v, _ := jsontext.AppendFloatJS(nil, data[0])
		b.Write(v)
		return
	}
	step := shape[1:].Size()
	b.WriteByte('[')
	for i := 0; i < shape[0]; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		nested(b, shape[1:], data[i*step:(i+1)*step])
	}
	b.WriteByte(']')
}

// tapeText lists the tape one node per line, with values and gradients
// where the stepper has them.
func tapeText(s *app.Stepper) string {
	var b strings.Builder
	pos := s.Position()
	fmt.Fprintf(&b, "# TapeLab tape: %d nodes, position %s node %d\n", len(s.Nodes()), pos.Phase, pos.Node)
	for _, n := range s.Nodes() {
		parents := make([]string, len(n.Parents))
		for k, p := range n.Parents {
			parents[k] = fmt.Sprintf("#%d", p)
		}
		fmt.Fprintf(&b, "%s(%s) shape %v", n.Title(), strings.Join(parents, ", "), n.Shape)
		if n.Role != "" {
			fmt.Fprintf(&b, " [%s]", n.Role)
		}
		if v := s.Value(n.ID); v != nil {
			fmt.Fprintf(&b, "\n    value %s", full(v))
		}
		if g := s.Grad(n.ID); g != nil {
			fmt.Fprintf(&b, "\n    grad  %s", full(g))
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// full writes a tensor's numbers at full precision.
func full(t *tensor.Tensor) string {
	parts := make([]string, len(t.Data))
	for i, v := range t.Data {
		parts[i] = app.Full(v)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// tapeSVG serialises the drawn tape with the page's style rules inlined, so
// that the file looks the same outside the page.
func (sh *shell) tapeSVG() (string, error) {
	svg := sh.u.query("#playground .tape-region svg")
	if !present(svg) {
		return "", fmt.Errorf("no tape drawing on the page")
	}
	clone := svg.Call("cloneNode", true)
	clone.Call("setAttribute", "xmlns", svgNS)
	var css strings.Builder
	sheets := sh.u.doc.Get("styleSheets")
	for i := 0; i < sheets.Length(); i++ {
		rules := sheets.Index(i).Get("cssRules")
		for k := 0; k < rules.Length(); k++ {
			css.WriteString(rules.Index(k).Get("cssText").String())
			css.WriteByte('\n')
		}
	}
	style := sh.u.doc.Call("createElementNS", svgNS, "style")
	style.Set("textContent", css.String())
	clone.Call("prepend", style)
	if box := svg.Call("getBoundingClientRect"); box.Get("width").Float() > 0 {
		clone.Call("setAttribute", "width", box.Get("width").Float())
		clone.Call("setAttribute", "height", box.Get("height").Float())
	}
	return `<?xml version="1.0" encoding="UTF-8"?>` + "\n" + js.Global().Get("XMLSerializer").New().Call("serializeToString", clone).String(), nil
}
