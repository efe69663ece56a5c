package ir

import (
	"bytes"
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"unicode"

	"tapelab/engine/jsontext"
	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// The JSON form of Attrs is an object holding the fields that are not zero:
// "input" and one key per op.Attrs field, its name in snake_case ("axis",
// "alpha", "shape", "seed", "stride", "padding", "kernel", "eps", ...).
// The op.Attrs fields are found by reflection, so a field added to the
// catalogue's Attrs is carried by the IR without a change here, as long as
// its type is int, uint64, float64 or tensor.Shape (a test checks that).

var (
	intType   = reflect.TypeFor[int]()
	uintType  = reflect.TypeFor[uint64]()
	floatType = reflect.TypeFor[float64]()
	shapeType = reflect.TypeFor[tensor.Shape]()
)

// attrKey is the JSON key of an op.Attrs field: its name in snake_case.
func attrKey(field string) string {
	var b strings.Builder
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// attrParts returns the "key": value pairs of the non-zero attrs, in field
// order ("input" first). Floats keep their exact bits (-0 is written); NaN
// and ±Inf have no JSON form and are an error.
func attrParts(a Attrs) ([]string, error) {
	var parts []string
	if a.Input != 0 {
		parts = append(parts, `"input": `+strconv.Itoa(a.Input))
	}
	v := reflect.ValueOf(a.Attrs)
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f, key := v.Field(i), attrKey(t.Field(i).Name)
		var text string
		switch f.Type() {
		case intType:
			if f.Int() == 0 {
				continue
			}
			text = strconv.FormatInt(f.Int(), 10)
		case uintType:
			if f.Uint() == 0 {
				continue
			}
			text = strconv.FormatUint(f.Uint(), 10)
		case floatType:
			x := f.Float()
			if math.Float64bits(x) == 0 {
				continue
			}
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return nil, fmt.Errorf("attr %s = %v has no JSON form", key, x)
			}
			text = formatFloat(x)
		case shapeType:
			if f.IsNil() {
				continue
			}
			var b bytes.Buffer
			writeInts(&b, f.Interface().(tensor.Shape))
			text = b.String()
		default:
			return nil, fmt.Errorf("attr %s has type %v, which the IR cannot write", key, f.Type())
		}
		parts = append(parts, strconv.Quote(key)+": "+text)
	}
	return parts, nil
}

// decodeAttrs reads the attrs object at path into a.
func decodeAttrs(a *Attrs, v *jsontext.Value, path string) error {
	t := reflect.TypeFor[op.Attrs]()
	keys := []string{"input"}
	field := map[string]int{}
	for i := 0; i < t.NumField(); i++ {
		k := attrKey(t.Field(i).Name)
		keys = append(keys, k)
		field[k] = i
	}
	f, err := fields(v, path, nil, keys)
	if err != nil {
		return err
	}
	if x := f["input"]; x != nil {
		n, err := integer(x, path+".input", 0, maxInt)
		if err != nil {
			return err
		}
		a.Input = int(n)
	}
	dst := reflect.ValueOf(&a.Attrs).Elem()
	for _, k := range keys[1:] {
		x := f[k]
		if x == nil {
			continue
		}
		p := path + "." + k
		fv := dst.Field(field[k])
		switch fv.Type() {
		case intType:
			n, err := integer(x, p, -maxInt, maxInt)
			if err != nil {
				return err
			}
			fv.SetInt(n)
		case uintType:
			n, err := unsigned(x, p)
			if err != nil {
				return err
			}
			fv.SetUint(n)
		case floatType:
			n, err := number(x, p)
			if err != nil {
				return err
			}
			fv.SetFloat(n)
		case shapeType:
			s, err := ints(x, p, 1)
			if err != nil {
				return err
			}
			fv.Set(reflect.ValueOf(s))
		default:
			return fmt.Errorf("%s: the IR cannot read attrs of type %v", p, fv.Type())
		}
	}
	return nil
}
