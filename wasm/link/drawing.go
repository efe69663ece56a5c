package link

import (
	"strconv"

	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/wasm/app"
)

// MaxDrawing bounds the numbers (two a point) a link's drawing may hold.
const MaxDrawing = 10000

// Drawing is an input a person drew on the drawing pad, which replaces one
// example of the stepping view's mini-batch: the page downsamples its ink
// (app.Ink.Pixels) to the model's image and makes the model's prediction
// its target. In the envelope it reads
//
//	"drawing": {"example": 0, "strokes": [[x0, y0, x1, y1, …], …]}
//
// each stroke its points' coordinates in the pad's CSS pixels, in order.
type Drawing struct {
	Example int     // the mini-batch example it replaces
	Ink     app.Ink // the strokes, each at least one point
}

// writeDrawing writes the drawing's member when d is set.
func writeDrawing(w *jsontext.Writer, d *Drawing) {
	if d == nil {
		return
	}
	w.Key("drawing")
	w.Object()
	w.Key("example")
	w.Int(int64(d.Example))
	writeMatrix(w, "strokes", d.Ink.Strokes)
	w.EndObject()
}

// drawing reads the envelope's drawing member.
func drawing(v *jsontext.Value, path string) (*Drawing, error) {
	d := &Drawing{Example: -1}
	err := members(v, path, path, func(key string, v *jsontext.Value, path string) error {
		var err error
		switch key {
		case "example":
			d.Example, err = integer(v, path)
		case "strokes":
			d.Ink.Strokes, err = matrix(v, path)
		default:
			return errUnknown
		}
		return err
	})
	return d, err
}

// check validates the drawing against the model m: an image classifier
// ([1 H H] input, cross_entropy), an example index, and strokes of
// points (x, y pairs), at most MaxDrawing numbers.
func (d *Drawing) check(m *spec.Model) error {
	in, part, msg := m.Input, "drawing", ""
	n := 0
	for i, s := range d.Ink.Strokes {
		if len(s) == 0 || len(s)%2 != 0 {
			part, msg = "drawing.strokes["+strconv.Itoa(i)+"]", "want x, y pairs, at least one"
		}
		n += len(s)
	}
	switch {
	case len(in) != 3 || in[0] != 1 || in[1] != in[2] || m.Loss != nn.CrossEntropy:
		msg = "belongs to a classifier of one-channel square images ([1 H H] input, cross_entropy), not of " + in.String()
	case d.Example < 0 || d.Example >= MaxPoints:
		part, msg = "drawing.example", "want a mini-batch example, 0 to "+strconv.Itoa(MaxPoints-1)+", got "+strconv.Itoa(d.Example)
	case n == 0 || n > MaxDrawing:
		part, msg = "drawing.strokes", strconv.Itoa(n)+" numbers, want 2 to "+strconv.Itoa(MaxDrawing)
	}
	if msg != "" {
		return &Error{Part: part, Msg: msg}
	}
	return finite(d.Ink.Strokes, "drawing.strokes")
}
