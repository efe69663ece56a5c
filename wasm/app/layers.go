package app

import (
	"errors"
	"strconv"

	"tapelab/engine/nn"
)

// LayerTypes lists the layer types the editor offers for the playground's
// 2-D datasets, in menu order.
func LayerTypes() []string {
	return []string{"linear", "tanh", "relu", "sigmoid", "gelu", "leaky_relu", "dropout", "batch_norm", "softmax"}
}

// NewLayer returns a layer of the given type with PyTorch's defaults
// (linear gets 4 features).
func NewLayer(typ string) (nn.Layer, error) {
	switch typ {
	case "linear":
		return nn.NewLinear(4), nil
	case "tanh":
		return nn.Tanh{}, nil
	case "relu":
		return nn.ReLU{}, nil
	case "sigmoid":
		return nn.Sigmoid{}, nil
	case "gelu":
		return nn.GELU{}, nil
	case "softmax":
		return nn.Softmax{}, nil
	case "leaky_relu":
		return nn.NewLeakyReLU(), nil
	case "dropout":
		return nn.NewDropout(), nil
	case "batch_norm":
		return nn.NewBatchNorm(), nil
	}
	return nil, errors.New("unknown layer type " + strconv.Quote(typ))
}

// Field is one setting of a layer as the editor shows it.
type Field struct {
	Name  string // as the model spec writes it, e.g. "out"
	Kind  string // "int", "float" or "bool"
	Value string
}

// Fields lists the settings of l.
func Fields(l nn.Layer) []Field {
	f := func(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
	switch l := l.(type) {
	case nn.Linear:
		return []Field{{"out", "int", strconv.Itoa(l.Out)}, {"bias", "bool", strconv.FormatBool(l.Bias)}}
	case nn.LeakyReLU:
		return []Field{{"negative_slope", "float", f(l.NegativeSlope)}}
	case nn.Dropout:
		return []Field{{"p", "float", f(l.P)}}
	case nn.BatchNorm:
		return []Field{{"eps", "float", f(l.Eps)}, {"momentum", "float", f(l.Momentum)}}
	}
	return nil
}

// SetField returns l with the named setting parsed from value. A value that
// is not a number (or true/false) is an error naming the field; whether the
// number is in range is the engine's to say when the model is built.
func SetField(l nn.Layer, name, value string) (nn.Layer, error) {
	bad := func(what string) error { return errors.New(name + ": " + strconv.Quote(value) + " is not " + what) }
	num := func() (float64, error) {
		v, err := strconv.ParseFloat(value, 64)
		if err != nil {
			return 0, bad("a number")
		}
		return v, nil
	}
	switch l := l.(type) {
	case nn.Linear:
		switch name {
		case "out":
			v, err := strconv.Atoi(value)
			if err != nil {
				return l, bad("a whole number")
			}
			l.Out = v
			return l, nil
		case "bias":
			v, err := strconv.ParseBool(value)
			if err != nil {
				return l, bad("true or false")
			}
			l.Bias = v
			return l, nil
		}
	case nn.LeakyReLU:
		if name == "negative_slope" {
			v, err := num()
			l.NegativeSlope = v
			return l, err
		}
	case nn.Dropout:
		if name == "p" {
			v, err := num()
			l.P = v
			return l, err
		}
	case nn.BatchNorm:
		switch name {
		case "eps":
			v, err := num()
			l.Eps = v
			return l, err
		case "momentum":
			v, err := num()
			l.Momentum = v
			return l, err
		}
	}
	return l, errors.New(l.Type() + " has no setting " + strconv.Quote(name))
}

// Summary is a layer's one-line name in the editor, e.g. "linear 4" or
// "dropout p=0.5".
func Summary(l nn.Layer) string {
	s := l.Type()
	for _, f := range Fields(l) {
		switch {
		case f.Name == "out":
			s += " " + f.Value
		case f.Name == "bias" && f.Value == "false":
			s += " (no bias)"
		case f.Kind == "float" && f.Name != "eps" && f.Name != "momentum":
			s += " " + f.Name + "=" + f.Value
		}
	}
	return s
}
