package spec

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
)

// layerKind describes how one layer type reads and writes its fields. The
// ranges of the values are nn's to check (nn.NewSeq reports them as
// *nn.LayerError with the field's name).
type layerKind struct {
	fields []string // optional and required fields, in the order Encode writes them
	decode func(f fieldReader) (nn.Layer, error)
}

// fieldReader reads the fields of one layer object.
type fieldReader struct {
	n    *jsontext.Value
	path string
	typ  string
}

// kinds lists every layer type a document may name.
var kinds = map[string]layerKind{
	"linear": {[]string{"out", "bias"}, func(f fieldReader) (nn.Layer, error) {
		l := nn.NewLinear(0)
		return l, f.all(f.int("out", true, &l.Out), f.bool("bias", &l.Bias))
	}},
	"relu":    {nil, func(fieldReader) (nn.Layer, error) { return nn.ReLU{}, nil }},
	"tanh":    {nil, func(fieldReader) (nn.Layer, error) { return nn.Tanh{}, nil }},
	"sigmoid": {nil, func(fieldReader) (nn.Layer, error) { return nn.Sigmoid{}, nil }},
	"softmax": {nil, func(fieldReader) (nn.Layer, error) { return nn.Softmax{}, nil }},
	"gelu":    {nil, func(fieldReader) (nn.Layer, error) { return nn.GELU{}, nil }},
	"flatten": {nil, func(fieldReader) (nn.Layer, error) { return nn.Flatten{}, nil }},
	"leaky_relu": {[]string{"negative_slope"}, func(f fieldReader) (nn.Layer, error) {
		l := nn.NewLeakyReLU()
		return l, f.float("negative_slope", &l.NegativeSlope)
	}},
	"dropout": {[]string{"p"}, func(f fieldReader) (nn.Layer, error) {
		l := nn.NewDropout()
		return l, f.float("p", &l.P)
	}},
	"batch_norm": {[]string{"eps", "momentum"}, func(f fieldReader) (nn.Layer, error) {
		l := nn.NewBatchNorm()
		return l, f.all(f.float("eps", &l.Eps), f.float("momentum", &l.Momentum))
	}},
	"conv2d": {[]string{"out_channels", "kernel_size", "stride", "padding"}, func(f fieldReader) (nn.Layer, error) {
		l := nn.NewConv2D(0, 0)
		return l, f.all(f.int("out_channels", true, &l.OutChannels), f.int("kernel_size", true, &l.KernelSize),
			f.int("stride", false, &l.Stride), f.int("padding", false, &l.Padding))
	}},
	"max_pool2d": {[]string{"kernel_size", "stride"}, func(f fieldReader) (nn.Layer, error) {
		var l nn.MaxPool2D
		err := f.all(f.int("kernel_size", true, &l.KernelSize))
		l.Stride = l.KernelSize
		return l, f.all(err, f.int("stride", false, &l.Stride))
	}},
}

// kindNames lists the layer types for error messages, sorted.
var kindNames = func() string {
	names := []string{"linear", "relu", "leaky_relu", "tanh", "sigmoid", "softmax", "gelu", "dropout", "batch_norm", "flatten", "conv2d", "max_pool2d"}
	return strings.Join(names, ", ")
}()

// decodeLayer reads one element of "layers".
func decodeLayer(n *jsontext.Value, path string) (nn.Layer, error) {
	if err := want(n, path, jsontext.Object); err != nil {
		return nil, err
	}
	tn := n.Field("type")
	if tn == nil {
		return nil, errorf(join(path, "type"), "missing (want one of %s)", kindNames)
	}
	typ, err := stringOf(tn, join(path, "type"))
	if err != nil {
		return nil, err
	}
	k, ok := kinds[typ]
	if !ok {
		return nil, errorf(join(path, "type"), "unknown layer type %q (want one of %s)", typ, kindNames)
	}
	if err := checkKeys(n, path, append([]string{"type"}, k.fields...), typ); err != nil {
		return nil, err
	}
	return k.decode(fieldReader{n: n, path: path, typ: typ})
}

// all returns the first non-nil error.
func (fieldReader) all(errs ...error) error {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

func (f fieldReader) int(key string, required bool, dst *int) error {
	v := f.n.Field(key)
	if v == nil {
		if required {
			return errorf(join(f.path, key), "missing (%s needs %s)", f.typ, key)
		}
		return nil
	}
	i, err := intIn(v, join(f.path, key), math.MinInt32, math.MaxInt32)
	*dst = i
	return err
}

func (f fieldReader) float(key string, dst *float64) error {
	v := f.n.Field(key)
	if v == nil {
		return nil
	}
	x, err := floatOf(v, join(f.path, key))
	*dst = x
	return err
}

func (f fieldReader) bool(key string, dst *bool) error {
	v := f.n.Field(key)
	if v == nil {
		return nil
	}
	b, err := boolOf(v, join(f.path, key))
	*dst = b
	return err
}

// encodeLayer writes one layer as a JSON object, omitting fields that hold
// PyTorch's defaults. ok is false for a layer type documents cannot name.
func encodeLayer(b []byte, l nn.Layer) ([]byte, bool) {
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, l.Type())
	switch l := l.(type) {
	case nn.Linear:
		b = appendInt(b, "out", l.Out)
		if !l.Bias {
			b = append(b, `,"bias":false`...)
		}
	case nn.ReLU, nn.Tanh, nn.Sigmoid, nn.Softmax, nn.GELU, nn.Flatten:
	case nn.LeakyReLU:
		b = appendFloatIf(b, "negative_slope", l.NegativeSlope, nn.NewLeakyReLU().NegativeSlope)
	case nn.Dropout:
		b = appendFloatIf(b, "p", l.P, nn.NewDropout().P)
	case nn.BatchNorm:
		d := nn.NewBatchNorm()
		b = appendFloatIf(b, "eps", l.Eps, d.Eps)
		b = appendFloatIf(b, "momentum", l.Momentum, d.Momentum)
	case nn.Conv2D:
		b = appendInt(b, "out_channels", l.OutChannels)
		b = appendInt(b, "kernel_size", l.KernelSize)
		if l.Stride != 1 {
			b = appendInt(b, "stride", l.Stride)
		}
		if l.Padding != 0 {
			b = appendInt(b, "padding", l.Padding)
		}
	case nn.MaxPool2D:
		b = appendInt(b, "kernel_size", l.KernelSize)
		if l.Stride != l.KernelSize {
			b = appendInt(b, "stride", l.Stride)
		}
	default:
		return b, false
	}
	return append(b, '}'), true
}

func appendInt(b []byte, key string, v int) []byte {
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return strconv.AppendInt(b, int64(v), 10)
}

// appendFloatIf writes the field unless v is bit-for-bit the default.
func appendFloatIf(b []byte, key string, v, def float64) []byte {
	if math.Float64bits(v) == math.Float64bits(def) {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":`...)
	return appendFloat(b, v)
}

// appendFloat writes v as the shortest decimal that parses back to v,
// in encoding/json's style (jsontext.AppendFloatJS: exponent only below
// 1e-6 or from 1e21). Encode validates the model first, so v is finite.
func appendFloat(b []byte, v float64) []byte {
	out, _ := jsontext.AppendFloatJS(b, v)
	return out
}
