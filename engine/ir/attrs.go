package ir

import (
	"bytes"
	"fmt"
	"math"
	"strconv"

	"tapelab/engine/jsontext"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// The JSON form of Attrs is an object holding the fields that are not zero:
// "input" and one key per op.Attrs field, its name in snake_case ("axis",
// "alpha", "shape", "seed", "stride", "padding", "kernel", "eps", ...).
// attrFields lists the op.Attrs fields; a test checks the list against
// op.Attrs, so a field added to the catalogue's Attrs fails it until it is
// listed here (with type int, uint64, float64 or tensor.Shape).

// attrField is one op.Attrs field of one Attrs value: its JSON key and a
// pointer to it, in the one of int, uint, float and shape that has its
// type.
type attrField struct {
	key   string
	int   *int
	uint  *uint64
	float *float64
	shape *tensor.Shape
}

// attrFields returns a's fields in declaration order.
func attrFields(a *op.Attrs) []attrField {
	return []attrField{
		{key: "axis", int: &a.Axis},
		{key: "alpha", float: &a.Alpha},
		{key: "shape", shape: &a.Shape},
		{key: "seed", uint: &a.Seed},
		{key: "stride", int: &a.Stride},
		{key: "padding", int: &a.Padding},
		{key: "kernel", int: &a.Kernel},
		{key: "eps", float: &a.Eps},
	}
}

// attrParts returns the "key": value pairs of the non-zero attrs, in field
// order ("input" first). Floats keep their exact bits (-0 is written); NaN
// and ±Inf have no JSON form and are an error.
func attrParts(a Attrs) ([]string, error) {
	var parts []string
	if a.Input != 0 {
		parts = append(parts, `"input": `+strconv.Itoa(a.Input))
	}
	for _, f := range attrFields(&a.Attrs) {
		var text string
		switch {
		case f.int != nil:
			if *f.int == 0 {
				continue
			}
			text = strconv.Itoa(*f.int)
		case f.uint != nil:
			if *f.uint == 0 {
				continue
			}
			text = strconv.FormatUint(*f.uint, 10)
		case f.float != nil:
			x := *f.float
			if math.Float64bits(x) == 0 {
				continue
			}
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("attr %s = %v has no JSON form", f.key, x)
			}
			text = formatFloat(x)
		default:
			if *f.shape == nil {
				continue
			}
			var b bytes.Buffer
			writeInts(&b, *f.shape)
			text = b.String()
		}
		parts = append(parts, strconv.Quote(f.key)+": "+text)
	}
	return parts, nil
}

// decodeAttrs reads the attrs object at path into a.
func decodeAttrs(a *Attrs, v *jsontext.Value, path string) error {
	fs := attrFields(&a.Attrs)
	keys := []string{"input"}
	for _, f := range fs {
		keys = append(keys, f.key)
	}
	m, err := fields(v, path, nil, keys)
	if err != nil {
		return err
	}
	if x := m["input"]; x != nil {
		n, err := integer(x, path+".input", 0, maxInt)
		if err != nil {
			return err
		}
		a.Input = int(n)
	}
	for _, f := range fs {
		x := m[f.key]
		if x == nil {
			continue
		}
		p := path + "." + f.key
		var err error
		switch {
		case f.int != nil:
			var n int64
			n, err = integer(x, p, -maxInt, maxInt)
			*f.int = int(n)
		case f.uint != nil:
			*f.uint, err = unsigned(x, p)
		case f.float != nil:
			*f.float, err = number(x, p)
		default:
			*f.shape, err = ints(x, p, 1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
