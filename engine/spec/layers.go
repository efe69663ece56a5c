package spec

import (
	"math"
	"strconv"
	"strings"

	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
)

// fieldReader reads the fields of one object (a layer, the dataset, the
// optimizer).
type fieldReader struct {
	n    *jsontext.Value
	path string
	typ  string
}

// kindNames lists the layer types for error messages, in registry order.
var kindNames = func() string {
	var names []string
	for _, t := range nn.LayerTypes() {
		names = append(names, t.Name)
	}
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
	t, ok := nn.LookupType(typ)
	if !ok {
		return nil, errorf(join(path, "type"), "unknown layer type %q (want one of %s)", typ, kindNames)
	}
	allowed := []string{"type"}
	for _, f := range t.Fields {
		allowed = append(allowed, f.Name)
	}
	if err := checkKeys(n, path, allowed, typ); err != nil {
		return nil, err
	}
	f := fieldReader{n: n, path: path, typ: typ}
	v := make([]float64, len(t.Fields))
	for i, fd := range t.Fields {
		given, err := f.value(fd, &v[i])
		if err != nil {
			return nil, err
		}
		if !given {
			v[i] = t.DefaultValue(i, v)
		}
	}
	return t.New(v), nil
}

// value reads the layer setting fd into dst as a number (true = 1); given
// is false when the field is absent, which is an error if it is required.
func (f fieldReader) value(fd nn.Field, dst *float64) (given bool, err error) {
	if f.n.Field(fd.Name) == nil {
		if fd.Required {
			return false, errorf(join(f.path, fd.Name), "missing (%s needs %s)", f.typ, fd.Name)
		}
		return false, nil
	}
	switch fd.Kind {
	case nn.IntField:
		var i int
		err = f.int(fd.Name, true, &i)
		*dst = float64(i)
	case nn.FloatField:
		err = f.float(fd.Name, dst)
	default:
		var b bool
		err = f.bool(fd.Name, &b)
		if b {
			*dst = 1
		}
	}
	return true, err
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

// encodeLayer writes one layer as a JSON object, omitting settings that
// hold their defaults. ok is false for a layer type documents cannot name.
func encodeLayer(b []byte, l nn.Layer) ([]byte, bool) {
	t, ok := nn.LookupType(l.Type())
	if !ok {
		return b, false
	}
	v, ok := t.Values(l)
	if !ok {
		return b, false
	}
	b = append(b, `{"type":`...)
	b = strconv.AppendQuote(b, t.Name)
	for i, f := range t.Fields {
		if !f.Required && math.Float64bits(v[i]) == math.Float64bits(t.DefaultValue(i, v)) {
			continue
		}
		b = append(b, `,"`...)
		b = append(b, f.Name...)
		b = append(b, `":`...)
		switch f.Kind {
		case nn.IntField:
			b = strconv.AppendInt(b, int64(v[i]), 10)
		case nn.FloatField:
			b = appendFloat(b, v[i])
		default:
			b = strconv.AppendBool(b, v[i] != 0)
		}
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
