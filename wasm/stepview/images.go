//go:build js && wasm

package stepview

import (
	"tapelab/wasm/ui"

	"tapelab/wasm/dom"

	"math"
	"strconv"
	"strings"

	"tapelab/engine/autograd"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
	"tapelab/wasm/app"
)

// imageView is what the playground adds for image models: the selected
// example the tape's images show, the saliency map dL/dx beside the input,
// the inspector's images and its card at one output position of a conv2d
// or max_pool2d, and the pad where a person draws an input.
type imageView struct {
	sv      *View
	example *int // the batch example the images show (Deps.Example)
	// sal is dL/dx of the recording salFor (computed on demand).
	sal    *tensor.Tensor
	salFor *app.Recording
	// atNode and at are the output position the window card shows, chosen
	// by clicking the node's value image; -1 means the default.
	atNode, at int
	pad        *drawPad // nil until the model first classifies images (drawing)
}

func newImageView(sv *View) *imageView {
	return &imageView{sv: sv, example: sv.d.Example, atNode: -1, at: -1}
}

// drawing returns the drawing pad, built the first time the model
// classifies images (nil until then: most pages never show it).
func (iv *imageView) drawing() *drawPad {
	if iv.pad == nil && iv.imageSide() > 0 {
		iv.pad = newDrawPad(iv)
	}
	return iv.pad
}

// imageSide returns the model's input image side, or 0 when the model does
// not classify single-channel square images.
func (iv *imageView) imageSide() int {
	if iv.names() == nil {
		return 0
	}
	in := iv.sv.model().Model().Seq.Input()
	if len(in) != 3 || in[0] != 1 || in[1] != in[2] {
		return 0
	}
	return in[1]
}

// rebuilt follows a new recording: the pad shows for image classifiers,
// with the drawing the batch holds, which is the example shown.
func (iv *imageView) rebuilt() {
	iv.atNode, iv.at = -1, -1
	if d := iv.sv.st.Drawing(); d != nil {
		*iv.example = d.Example
	}
	if d := iv.drawing(); d != nil {
		d.update()
		d.said()
	}
}

// inputNode returns the model's input node when it is an image (model
// mode), else -1.
func (iv *imageView) inputNode(s *app.Stepper) int {
	if iv.sv.prog.on() {
		return -1
	}
	for _, n := range s.Nodes() {
		if n.Kind == autograd.Input && n.Label == "x" && app.IsImage(n.Shape) {
			return n.ID
		}
	}
	return -1
}

// reads reports whether node k reads node i, the image input: its step
// may complete the saliency map, so the input is redrawn with it.
func (iv *imageView) reads(s *app.Stepper, k, i int) bool {
	if k < 0 || k >= len(s.Nodes()) || i != iv.inputNode(s) {
		return false
	}
	for _, p := range s.Nodes()[k].Parents {
		if p == i {
			return true
		}
	}
	return false
}

// gradOf is node i's gradient as the views show it: the tape's, or for the
// image input, once every node reading it has run its VJP, the saliency
// map dL/dx (the tape does not compute it: training needs none).
func (iv *imageView) gradOf(s *app.Stepper, i int) *tensor.Tensor {
	if g := s.Grad(i); g != nil || i != iv.inputNode(s) {
		return g
	}
	for _, c := range s.Nodes()[i].Children {
		if s.Contribs(c) == nil {
			return nil
		}
	}
	if rec := iv.sv.model().Recording(); iv.salFor != rec {
		g, err := iv.sv.model().InputGrad()
		if err != nil {
			iv.sv.d.ShowError("the saliency map: " + err.Error())
			return nil
		}
		iv.sal, iv.salFor = g, rec
	}
	return iv.sal
}

// The inspector draws an image tensor's planes up to inspImageH pixels
// tall, wrapped to fit inspImageW, the inspector column's narrowest width
// for its content (18rem less its padding and a scrollbar): larger than
// the tape's, and never wider than the column.
const (
	inspImageH = 96.0
	inspImageW = 248.0
)

// tensorEl shows node n's tensor t in the inspector: for an image tensor
// the tape's images, larger (the selected example's channels, or every
// kernel), else tensorEl's numbers or colour grid. Clicking a pixel of a
// conv2d's or max_pool2d's value picks the position its card explains.
func (iv *imageView) tensorEl(n app.NodeInfo, t *tensor.Tensor, id string) dom.Elem {
	doc := iv.sv.doc
	if !app.IsImage(t.Shape) {
		el := iv.sv.insp.tensorEl(t, id)
		if said := el.QuerySelector("#insp-classes"); said.OK() {
			said.Remove() // the element is reused: the classes are said again below, or not
		}
		if names := iv.names(); n.Kind == autograd.Input && n.Label == "y" && app.Worded(names) && id == "insp-value" {
			said := make([]string, len(t.Data))
			for k, c := range t.Data {
				said[k] = app.ClassName(names, int(c))
			}
			el.AppendChild(doc.Txt("p", "classes: "+strings.Join(said, " · "), "class", "hint", "id", "insp-classes"))
		}
		return el
	}
	g := app.GridWithin(t.Shape, *iv.example, app.IsKernel(n), inspImageH, inspImageW-app.StripX-app.StripLabelW-1, math.Inf(1))
	grad := id == "insp-grad"
	class, h := "val", g.Height+1
	if grad {
		class, h = "grad", h+app.ImageRangeH
	}
	st := ui.NewImageStrip(doc, iv.sv.d.Scale, class, 0, "", g, t.Shape, app.IsKernel(n), func() int { return *iv.example })
	st.Show(t)
	svg := dom.Add(doc.SVG("svg", "class", "grid", "width", ui.F1(app.StripX+app.StripLabelW+g.Width+1), "height", ui.F1(h), "role", "img"), st.Group())
	wrap := dom.Add(doc.El("div", "class", "tensor images", "id", id, "data-shape", t.Shape.String(), "data-values", ui.TensorValues(t)), svg)
	what := "example " + strconv.Itoa(min(*iv.example, t.Shape[0]-1)+1) + ", one image per channel"
	if app.IsKernel(n) {
		what = "one tiny image per kernel"
	}
	if grad {
		_, said := app.ImageRange(t, st.At())
		what += "; colours scaled to this gradient's range, " + said + " (its largest magnitude is drawn as the scale's ±2)"
	}
	if app.IsWindowOp(n) && id == "insp-value" {
		what += "; click a pixel to explain it below"
		node := n.ID
		doc.Listen(svg, "click", "picking a position", func(ev dom.Event) {
			if k, err := strconv.Atoi(ev.Target().GetAttribute("data-k")); err == nil {
				iv.atNode, iv.at = node, st.At().Offsets[k/(g.H*g.W)]+k%(g.H*g.W)
				iv.sv.inspect(node)
			}
		})
	}
	svg.SetAttribute("aria-label", "images of "+t.Shape.String()+": "+what) // the picture's name for a screen reader
	wrap.AppendChild(doc.Txt("p", t.Shape.String()+": "+what, "class", "hint"))
	return wrap
}

// window returns the card of node i at one output position (conv2d and
// the pools only; for another node, no element): the window of X it reads, the sum, maximum or mean with
// its numbers, and where the position's dY goes backward.
func (iv *imageView) window(s *app.Stepper, i int) dom.Elem {
	n := s.Nodes()[i]
	if !app.IsWindowOp(n) {
		return dom.Elem{}
	}
	at := iv.at
	if iv.atNode != i {
		at = s.DefaultWindow(i, *iv.example)
	}
	c, ok := s.WindowAt(i, at)
	if !ok {
		return dom.Elem{}
	}
	doc := iv.sv.doc
	y := "Y" + app.Index(c.At[:])
	box := doc.El("div", "class", "rule-card window-card", "id", "insp-window", "data-op", c.Op, "data-flat", strconv.Itoa(c.Flat),
		"data-value", app.Full(c.Value))
	dom.Add(box, doc.Txt("h3", "at one position: "+y), doc.Txt("p", c.Text, "class", "rule"), doc.Txt("p", c.Equation(), "class", "mono", "id", "insp-window-eq"))
	// The tables: what the window holds and, once dY is known, what goes back.
	cols := []string{"X (patch)", "W (kernel)", "W·X", "dY·W → dX", "dY·X → dW"}
	show := []int{0, 1, 2, 3, 4}
	dy := "Backward has not reached this node yet: step on to see where d" + y + " goes."
	switch c.Op {
	case "max_pool2d":
		cols[0], cols[3] = "X (window, the maximum ringed)", "dX: only the maximum receives dY"
		show = []int{0, 3}
	case "avg_pool2d":
		cols[0], cols[3] = "X (window)", "dX: each element receives dY / "+strconv.Itoa(c.K*c.L)
		show = []int{0, 3}
	}
	if c.HasDY {
		box.SetAttribute("data-dy", app.Full(c.DY))
		dy = "d" + y + " = " + app.Num(c.DY)
	} else {
		show = show[:len(show)/2+len(show)%2]
	}
	tables := doc.El("div", "class", "window-tables")
	for _, k := range show {
		tables.AppendChild(iv.patch(c, cols[k], k))
	}
	return dom.Add(box, doc.Txt("p", dy, "class", "mono"), tables)
}

// patch is one table of the window card: a K×L grid per channel (the
// first three) of the terms' field (WindowTerm.Field), padding shown as "pad", max_pool2d's
// winner ringed.
func (iv *imageView) patch(c app.WindowCard, title string, field int) dom.Elem {
	doc := iv.sv.doc
	fig := doc.El("figure", "class", "patch", "data-field", strconv.Itoa(field))
	fig.AppendChild(doc.Txt("figcaption", title))
	per := c.K * c.L
	var table, tr dom.Elem
	for k, t := range c.Terms {
		if k == 3*per {
			fig.AppendChild(doc.Txt("p", "… more channels", "class", "hint"))
			break
		}
		if k%per == 0 {
			table = doc.El("table", "class", "nums mono")
			fig.AppendChild(table)
		}
		if k%c.L == 0 {
			tr = doc.El("tr")
			table.AppendChild(tr)
		}
		td := doc.Txt("td", "pad", "class", "pad")
		if !t.Pad {
			v := t.Field(field)
			td = ui.OnScale(doc, iv.sv.d.Scale, "td", app.Num(v), v, "data-v", app.Full(v), "data-term", strconv.Itoa(k))
		}
		if k == c.Argmax {
			td.AddClass("argmax")
		}
		tr.AppendChild(td)
	}
	return fig
}

// names are the class names of the step's dataset (train.ClassNames) when
// the model is a classifier, else nil.
func (iv *imageView) names() []string {
	if m := iv.sv.model().Model(); iv.sv.prog.on() || m == nil || m.Loss != nn.CrossEntropy {
		return nil
	}
	return train.ClassNames(iv.sv.st.Dataset())
}

// selectExample makes example k the one the images show.
func (iv *imageView) selectExample(k int) {
	*iv.example = k
	if d := iv.drawing(); d != nil {
		d.update()
	}
	if iv.sv.src().Stepper() != nil {
		iv.sv.d.Redraw()
	}
}
