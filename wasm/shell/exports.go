//go:build js && wasm

package shell

import (
	"tapelab/wasm/dom"

	"bytes"
	"fmt"

	"tapelab/engine/ir"
	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
	"tapelab/engine/pytorch"
	"tapelab/engine/spec"
	"tapelab/wasm/app"
	"tapelab/wasm/link"
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
func (sh *Shell) exportPanel() dom.Elem {
	u := sh.u
	list := u.El("div", "class", "pop export-list")
	for _, k := range exportKinds {
		k := k
		list.AppendChild(u.Button(k[1], "Download "+k[2], func() { sh.download(k[0], k[2], k[3]) }, "id", "export-"+k[0]))
	}
	sh.exportMsg = u.Txt("p", "", "class", "train-msg", "role", "alert", "hidden", "", "id", "export-msg")
	list.AppendChild(sh.exportMsg)
	return dom.Add(sh.pv.regions.own("export", u.El("details", "class", "export")), u.Txt("summary", "Export"), list)
}

// exposeExports makes the exports callable from the page's console and
// tests: tapelabExport("pytorch") returns the text a download would save.
func (sh *Shell) exposeExports() { dom.Expose(sh.u, "tapelabExport", sh.export) }

// download saves one export as a file.
func (sh *Shell) download(kind, name, mime string) {
	text, err := sh.export(kind)
	if err != nil {
		sh.exportMsg.SetTextContent(kind + ": " + err.Error())
		sh.exportMsg.Show(true)
		return
	}
	sh.exportMsg.Show(false)
	dom.Download(sh.u, text, name, mime)
}

// current is the model on screen with its current parameters.
func (sh *Shell) current() (*spec.Model, *nn.Model, error) {
	sm := sh.st.Link().Model
	if sh.st.View() != link.ViewTrain && sh.pv.model().Model() != nil && sh.pv.model().Err() == nil {
		sm.Params = sh.pv.model().Model().StateDict()
	}
	m, err := sm.Build()
	return sm, m, err
}

// export returns the text of one download.
func (sh *Shell) export(kind string) (string, error) {
	switch kind {
	case "tape-svg":
		return sh.tapeSVG()
	case "tape-text":
		s := sh.pv.src().Stepper()
		if s == nil {
			return "", fmt.Errorf("no tape yet")
		}
		return app.TapeText(s), nil
	}
	sm, m, err := sh.current()
	if err != nil {
		return "", err
	}
	switch kind {
	case "pytorch":
		code, err := pytorch.Code(sm, m, "the TapeLab playground", sh.stepBatch())
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
			b.WriteString(m.Params[i].Shape.Nested(m.Params[i].Data, jsonNumber))
		}
		b.WriteString("\n}\n")
		return b.String(), nil
	case "ir":
		g, err := ir.FromModel(m, sh.pv.model().Batch().X.Shape[0], nn.Train, 1, true)
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

// stepBatch is the mini-batch the Step view steps, with its mode and L2
// penalty, for the PyTorch export to carry; nil when there is none.
func (sh *Shell) stepBatch() *pytorch.Batch {
	pg := sh.pv.model()
	b := pg.Batch()
	if b.X == nil || b.Y == nil {
		return nil
	}
	md := pg.Modes()
	return &pytorch.Batch{X: b.X, Y: b.Y, Eval: md.Eval, L2: md.L2}
}

// jsonNumber is v as a JavaScript-shaped JSON number ("" for a NaN or an
// infinity, which JSON cannot hold).
func jsonNumber(v float64) string {
	b, _ := jsontext.AppendFloatJS(nil, v)
	return string(b)
}

// tapeSVG serialises the drawn tape with the page's style rules inlined, so
// that the file looks the same outside the page.
func (sh *Shell) tapeSVG() (string, error) {
	return dom.Standalone(sh.u, sh.pv.tape.Drawing()), nil
}
