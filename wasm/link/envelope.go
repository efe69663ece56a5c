package link

import (
	"errors"
	"fmt"
	"strconv"

	"tapelab/engine/jsontext"
	"tapelab/engine/spec"
	"tapelab/engine/train"
)

// envelope is the JSON inside a link; writeJSON writes its fields in this
// order, leaving out the empty ones.
type envelope struct {
	Model      []byte // the model document as written
	Program    *string
	View       string
	Pos        *posJSON
	Modes      *modesJSON
	Flags      *flagsJSON
	Points     *pointsJSON
	Batch      *pointsJSON
	Drawing    *Drawing
	Accumulate bool
	Forward    [][]float64
	Compare    []train.OptimizerConfig
	Update     *Update
	Optimizer  *train.OptimizerConfig
	Params     []paramJSON // in the program's order
}

// paramJSON is one program param's weights.
type paramJSON struct {
	Name string
	Data []float64
}

type posJSON struct {
	Phase string
	Node  int
}

type modesJSON struct {
	Compiled, Single, Eval bool
	L2                     float64
}

type flagsJSON struct {
	Hide, Lock                []string
	Embed, Presenter, Explain bool
}

type pointsJSON struct {
	X [][]float64
	Y []float64
}

// writeJSON returns the envelope's canonical text.
func (e *envelope) writeJSON() ([]byte, error) {
	var w jsontext.Writer
	w.Object()
	if e.Program != nil {
		w.Key("program")
		w.String(*e.Program)
	} else {
		w.Key("model")
		w.Raw(e.Model)
	}
	if e.View != "" {
		w.Key("view")
		w.String(e.View)
	}
	if p := e.Pos; p != nil {
		w.Key("pos")
		w.Object()
		w.Key("phase")
		w.String(p.Phase)
		w.Key("node")
		w.Int(int64(p.Node))
		w.EndObject()
	}
	if m := e.Modes; m != nil {
		w.Key("modes")
		w.Object()
		writeFlag(&w, "compiled", m.Compiled)
		writeFlag(&w, "single", m.Single)
		writeFlag(&w, "eval", m.Eval)
		if m.L2 != 0 {
			w.Key("l2")
			w.Float(m.L2)
		}
		w.EndObject()
	}
	if f := e.Flags; f != nil {
		w.Key("flags")
		w.Object()
		for _, l := range []struct {
			key  string
			list []string
		}{{"hide", f.Hide}, {"lock", f.Lock}} {
			if len(l.list) > 0 {
				w.Key(l.key)
				w.Array()
				for _, s := range l.list {
					w.String(s)
				}
				w.EndArray()
			}
		}
		writeFlag(&w, "embed", f.Embed)
		writeFlag(&w, "presenter", f.Presenter)
		writeFlag(&w, "explain", f.Explain)
		w.EndObject()
	}
	writePoints(&w, "points", e.Points)
	writePoints(&w, "batch", e.Batch)
	writeDrawing(&w, e.Drawing)
	writeFlag(&w, "accumulate", e.Accumulate)
	if e.Forward != nil {
		writeMatrix(&w, "forward", e.Forward)
	}
	if len(e.Compare) > 0 {
		w.Key("compare")
		w.Array()
		for _, o := range e.Compare {
			w.Raw(spec.AppendOptimizer(nil, o))
		}
		w.EndArray()
	}
	if u := e.Update; u != nil {
		w.Key("update")
		w.Object()
		w.Key("n")
		w.Int(int64(u.N))
		w.Key("steps")
		w.Array()
		for _, n := range u.Steps {
			w.Int(int64(n))
		}
		w.EndArray()
		w.Key("buffers")
		w.Array()
		for _, b := range u.Buffers {
			w.Array()
			for _, t := range b {
				writeNumbers(&w, t)
			}
			w.EndArray()
		}
		w.EndArray()
		w.EndObject()
	}
	if e.Optimizer != nil {
		w.Key("optimizer")
		w.Raw(spec.AppendOptimizer(nil, *e.Optimizer))
	}
	if e.Params != nil {
		w.Key("params")
		w.Object()
		for _, p := range e.Params {
			w.Key(p.Name)
			writeNumbers(&w, p.Data)
		}
		w.EndObject()
	}
	w.EndObject()
	return w.Bytes()
}

// writeFlag writes key: true when v is set.
func writeFlag(w *jsontext.Writer, key string, v bool) {
	if v {
		w.Key(key)
		w.Bool(true)
	}
}

func writePoints(w *jsontext.Writer, key string, p *pointsJSON) {
	if p == nil {
		return
	}
	w.Key(key)
	w.Object()
	writeMatrix(w, "x", p.X)
	w.Key("y")
	writeNumbers(w, p.Y)
	w.EndObject()
}

// writeMatrix writes key: rows, an array of arrays of numbers.
func writeMatrix(w *jsontext.Writer, key string, rows [][]float64) {
	w.Key(key)
	w.Array()
	for _, row := range rows {
		writeNumbers(w, row)
	}
	w.EndArray()
}

func writeNumbers(w *jsontext.Writer, row []float64) {
	w.Array()
	for _, v := range row {
		w.Float(v)
	}
	w.EndArray()
}

// errUnknown marks a member decodeEnvelope does not know.
var errUnknown = errors.New("unknown field")

// decodeEnvelope parses an envelope strictly: syntax errors, duplicate and
// unknown keys and wrong types are *Errors. A null member counts as absent.
func decodeEnvelope(raw []byte) (*envelope, error) {
	root, err := jsontext.Parse(raw, jsontext.Options{})
	if err != nil {
		return nil, parseError(err)
	}
	e := &envelope{}
	err = members(root, "envelope", "", func(key string, v *jsontext.Value, path string) error {
		var err error
		switch key {
		case "model":
			e.Model = raw[v.Start:v.End]
		case "program":
			var p string
			p, err = str(v, path)
			e.Program = &p
		case "view":
			e.View, err = str(v, path)
		case "pos":
			e.Pos = &posJSON{}
			err = members(v, path, path, func(key string, v *jsontext.Value, path string) error {
				var err error
				switch key {
				case "phase":
					e.Pos.Phase, err = str(v, path)
				case "node":
					e.Pos.Node, err = integer(v, path)
				default:
					return errUnknown
				}
				return err
			})
		case "modes":
			m := &modesJSON{}
			e.Modes = m
			err = members(v, path, path, func(key string, v *jsontext.Value, path string) error {
				switch key {
				case "compiled":
					return boolean(v, path, &m.Compiled)
				case "single":
					return boolean(v, path, &m.Single)
				case "eval":
					return boolean(v, path, &m.Eval)
				case "l2":
					var err error
					m.L2, err = number(v, path)
					return err
				}
				return errUnknown
			})
		case "flags":
			f := &flagsJSON{}
			e.Flags = f
			err = members(v, path, path, func(key string, v *jsontext.Value, path string) error {
				var err error
				switch key {
				case "hide":
					f.Hide, err = strs(v, path)
				case "lock":
					f.Lock, err = strs(v, path)
				case "embed":
					err = boolean(v, path, &f.Embed)
				case "presenter":
					err = boolean(v, path, &f.Presenter)
				case "explain":
					err = boolean(v, path, &f.Explain)
				default:
					return errUnknown
				}
				return err
			})
		case "points":
			e.Points, err = points(v, path)
		case "batch":
			e.Batch, err = points(v, path)
		case "drawing":
			e.Drawing, err = drawing(v, path)
		case "accumulate":
			err = boolean(v, path, &e.Accumulate)
		case "forward":
			e.Forward, err = matrix(v, path)
		case "compare":
			e.Compare, err = optimizers(v, path)
		case "update":
			u := &Update{}
			e.Update = u
			err = members(v, path, path, func(key string, v *jsontext.Value, path string) error {
				var err error
				switch key {
				case "n":
					u.N, err = integer(v, path)
				case "steps":
					if v.Kind != jsontext.Array {
						return typeError(path, "[]int", v)
					}
					u.Steps = make([]int, len(v.Elems))
					for i, e := range v.Elems {
						if u.Steps[i], err = integer(e, path+"["+strconv.Itoa(i)+"]"); err != nil {
							return err
						}
					}
				case "buffers":
					if v.Kind != jsontext.Array {
						return typeError(path, "[][][]float64", v)
					}
					for i, b := range v.Elems {
						var m [][]float64
						if m, err = matrix(b, path+"["+strconv.Itoa(i)+"]"); err != nil {
							return err
						}
						u.Buffers = append(u.Buffers, m)
					}
				default:
					return errUnknown
				}
				return err
			})
		case "optimizer":
			e.Optimizer = &train.OptimizerConfig{}
			if err = spec.DecodeOptimizer(v, path, e.Optimizer); err != nil {
				err = &Error{Part: path, Err: err}
			}
		case "params":
			e.Params = []paramJSON{}
			err = members(v, path, path, func(key string, v *jsontext.Value, path string) error {
				data, err := numbers(v, path)
				e.Params = append(e.Params, paramJSON{Name: key, Data: data})
				return err
			})
		default:
			return errUnknown
		}
		return err
	})
	return e, err
}

// optimizers reads a list of optimizer objects in the model document's
// format; a fault names its entry, e.g. "compare[1].lr".
func optimizers(v *jsontext.Value, path string) ([]train.OptimizerConfig, error) {
	if v.Kind != jsontext.Array {
		return nil, typeError(path, "a list of optimizers", v)
	}
	out := make([]train.OptimizerConfig, len(v.Elems))
	for i, e := range v.Elems {
		if err := spec.DecodeOptimizer(e, path+"["+strconv.Itoa(i)+"]", &out[i]); err != nil {
			return nil, &Error{Part: path, Err: err}
		}
	}
	return out, nil
}

// members calls fn for each non-null member of the object v, which path
// names in a type error; a member's path is prefix joined with its key.
// fn returns errUnknown for a key it does not know.
func members(v *jsontext.Value, path, prefix string, fn func(key string, v *jsontext.Value, path string) error) error {
	if v.Kind != jsontext.Object {
		return typeError(path, "an object", v)
	}
	for _, m := range v.Members {
		if m.Value.Kind == jsontext.Null {
			continue
		}
		if err := fn(m.Key, m.Value, jsontext.Join(prefix, m.Key)); err == errUnknown {
			return &Error{Part: "envelope", Msg: "unknown field " + strconv.Quote(m.Key) +
				" (want model or program, view, pos, modes, flags, points, batch, drawing, accumulate, forward, compare, update, optimizer, params and their fields)"}
		} else if err != nil {
			return err
		}
	}
	return nil
}

func points(v *jsontext.Value, path string) (*pointsJSON, error) {
	p := &pointsJSON{}
	err := members(v, path, path, func(key string, v *jsontext.Value, path string) error {
		var err error
		switch key {
		case "x":
			p.X, err = matrix(v, path)
		case "y":
			p.Y, err = numbers(v, path)
		default:
			return errUnknown
		}
		return err
	})
	return p, err
}

// matrix reads an array of arrays of numbers.
func matrix(v *jsontext.Value, path string) ([][]float64, error) {
	if v.Kind != jsontext.Array {
		return nil, typeError(path, "[][]float64", v)
	}
	out := make([][]float64, len(v.Elems))
	for i, row := range v.Elems {
		var err error
		if out[i], err = numbers(row, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func numbers(v *jsontext.Value, path string) ([]float64, error) {
	if v.Kind != jsontext.Array {
		return nil, typeError(path, "[]float64", v)
	}
	out := make([]float64, len(v.Elems))
	for i, e := range v.Elems {
		var err error
		if out[i], err = number(e, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func number(v *jsontext.Value, path string) (float64, error) {
	if v.Kind == jsontext.Number {
		if f, err := strconv.ParseFloat(v.Text, 64); err == nil {
			return f, nil
		}
	}
	return 0, typeError(path, "float64", v)
}

func integer(v *jsontext.Value, path string) (int, error) {
	if v.Kind == jsontext.Number {
		if n, err := strconv.Atoi(v.Text); err == nil {
			return n, nil
		}
	}
	return 0, typeError(path, "int", v)
}

func str(v *jsontext.Value, path string) (string, error) {
	if v.Kind != jsontext.String {
		return "", typeError(path, "string", v)
	}
	return v.Text, nil
}

func strs(v *jsontext.Value, path string) ([]string, error) {
	if v.Kind != jsontext.Array {
		return nil, typeError(path, "[]string", v)
	}
	out := make([]string, len(v.Elems))
	for i, e := range v.Elems {
		var err error
		if out[i], err = str(e, path+"["+strconv.Itoa(i)+"]"); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func boolean(v *jsontext.Value, path string, dst *bool) error {
	if v.Kind != jsontext.Bool {
		return typeError(path, "bool", v)
	}
	*dst = v.Bool
	return nil
}

// typeError words a wrong JSON type as "want int, got a JSON number 1.5".
func typeError(path, want string, v *jsontext.Value) error {
	got := [...]string{"null", "bool", "number", "string", "array", "object"}[v.Kind]
	if v.Kind == jsontext.Number {
		got += " " + v.Text
	}
	return &Error{Part: path, Msg: "want " + want + ", got a JSON " + got}
}

// parseError words a jsontext error as a link error.
func parseError(err error) error {
	var se *jsontext.SyntaxError
	var dk *jsontext.DuplicateKeyError
	switch {
	case errors.As(err, &dk):
		return &Error{Part: dk.Path, Msg: "appears more than once"}
	case errors.As(err, &se) && se.EOF:
		return &Error{Part: "envelope", Msg: "the JSON ends early"}
	case errors.As(err, &se) && se.Trailing:
		return &Error{Part: "envelope", Msg: "trailing data after the JSON object"}
	case errors.As(err, &se):
		return &Error{Part: "envelope", Msg: fmt.Sprintf("not valid JSON at byte %d: %v", se.Offset, se.Msg)}
	}
	return &Error{Part: "envelope", Msg: err.Error()}
}
