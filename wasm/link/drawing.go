package link

import (
	"math"
	"strconv"

	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
	"tapelab/engine/spec"
	"tapelab/wasm/app"
)

// MaxDrawing bounds the points a link's drawing may hold.
const MaxDrawing = 5000

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
	w.Key("strokes")
	w.Array()
	for _, s := range d.Ink.Strokes {
		w.Array()
		for _, p := range s {
			w.Float(p.X)
			w.Float(p.Y)
		}
		w.EndArray()
	}
	w.EndArray()
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
			if v.Kind != jsontext.Array {
				return typeError(path, "[][]float64", v)
			}
			for i, s := range v.Elems {
				xy, err := numbers(s, path+"["+strconv.Itoa(i)+"]")
				if err != nil {
					return err
				}
				if len(xy)%2 != 0 {
					return &Error{Part: path + "[" + strconv.Itoa(i) + "]", Msg: "an odd count of numbers: want x, y pairs"}
				}
				var st []app.Point
				for k := 0; k < len(xy); k += 2 {
					st = append(st, app.Point{X: xy[k], Y: xy[k+1]})
				}
				d.Ink.Strokes = append(d.Ink.Strokes, st)
			}
		default:
			return errUnknown
		}
		return err
	})
	return d, err
}

// check validates the drawing against the model m: an image classifier
// ([1 H H] input, cross_entropy), an example index, and strokes of finite
// points, at most MaxDrawing of them.
func (d *Drawing) check(m *spec.Model) error {
	in := m.Input
	if len(in) != 3 || in[0] != 1 || in[1] != in[2] || m.Loss != nn.CrossEntropy {
		return &Error{Part: "drawing", Msg: "belongs to a classifier of one-channel square images ([1 H H] input, cross_entropy); the model's input is " + in.String()}
	}
	if d.Example < 0 || d.Example >= MaxPoints {
		return &Error{Part: "drawing.example", Msg: "must be a mini-batch example, 0 to " + strconv.Itoa(MaxPoints-1) + ", got " + strconv.Itoa(d.Example)}
	}
	n := 0
	for i, s := range d.Ink.Strokes {
		if len(s) == 0 {
			return &Error{Part: "drawing.strokes[" + strconv.Itoa(i) + "]", Msg: "empty: a stroke has at least one point"}
		}
		for _, p := range s {
			if math.IsNaN(p.X+p.Y) || math.IsInf(p.X+p.Y, 0) {
				return &Error{Part: "drawing.strokes[" + strconv.Itoa(i) + "]", Msg: "not a finite number"}
			}
		}
		n += len(s)
	}
	switch {
	case n == 0:
		return &Error{Part: "drawing.strokes", Msg: "no strokes"}
	case n > MaxDrawing:
		return &Error{Part: "drawing.strokes", Msg: strconv.Itoa(n) + " points, at most " + strconv.Itoa(MaxDrawing) + " fit in a link"}
	}
	return nil
}
