package app

import (
	"errors"
	"strconv"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// LayerTypes lists the layer types the editor offers for a model whose
// examples have shape input, in the registry's order: the types for 1-D
// examples, and for an image ([C H W]) also conv2d, the pools and flatten.
func LayerTypes(input tensor.Shape) []string {
	images := len(input) == 3
	var names []string
	for _, t := range nn.LayerTypes() {
		if t.Editor || images && t.Images {
			names = append(names, t.Name)
		}
	}
	return names
}

// NewLayer returns a layer of the given type with its default settings
// (PyTorch's; a required setting takes the registry's starting value, e.g.
// linear gets 4 features).
func NewLayer(typ string) (nn.Layer, error) {
	t, ok := nn.LookupType(typ)
	if !ok {
		return nil, errors.New("unknown layer type " + strconv.Quote(typ))
	}
	return t.New(t.Defaults()), nil
}

// Field is one setting of a layer as the editor shows it.
type Field struct {
	Name  string // as the model spec writes it, e.g. "out"
	Kind  string // "int", "float" or "bool"
	Value string
}

// Fields lists the settings of l, in the registry's order.
func Fields(l nn.Layer) []Field {
	t, v, ok := settings(l)
	if !ok {
		return nil
	}
	fs := make([]Field, len(t.Fields))
	for i, f := range t.Fields {
		fs[i] = Field{Name: f.Name, Kind: f.Kind.String()}
		switch f.Kind {
		case nn.IntField:
			fs[i].Value = strconv.Itoa(int(v[i]))
		case nn.FloatField:
			fs[i].Value = strconv.FormatFloat(v[i], 'g', -1, 64)
		default:
			fs[i].Value = strconv.FormatBool(v[i] != 0)
		}
	}
	return fs
}

// SetField returns l with the named setting parsed from value. A value that
// is not a number (or true/false) is an error naming the field; whether the
// number is in range is the engine's to say when the model is built.
func SetField(l nn.Layer, name, value string) (nn.Layer, error) {
	t, v, ok := settings(l)
	k := -1
	if ok {
		k = t.Field(name)
	}
	if k < 0 {
		return l, errors.New(l.Type() + " has no setting " + strconv.Quote(name))
	}
	bad := func(what string) error { return errors.New(name + ": " + strconv.Quote(value) + " is not " + what) }
	switch t.Fields[k].Kind {
	case nn.IntField:
		i, err := strconv.Atoi(value)
		if err != nil {
			return l, bad("a whole number")
		}
		v[k] = float64(i)
	case nn.FloatField:
		x, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return l, bad("a number")
		}
		v[k] = x
	default:
		b, err := strconv.ParseBool(value)
		if err != nil {
			return l, bad("true or false")
		}
		v[k] = 0
		if b {
			v[k] = 1
		}
	}
	return t.New(v), nil
}

// settings returns l's registry entry and its settings.
func settings(l nn.Layer) (*nn.LayerType, []float64, bool) {
	t, ok := nn.LookupType(l.Type())
	if !ok {
		return nil, nil, false
	}
	v, ok := t.Values(l)
	return t, v, ok
}
