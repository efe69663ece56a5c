package jsontext_test

import (
	"encoding/json"
	"errors"
	"math"
	"strconv"
	"testing"

	"tapelab/engine/jsontext"
)

var floats = []float64{0, math.Copysign(0, -1), 1, -1.5, 0.1, 1e-7, 1e-6, 123456789, 1e20, 1e21, 1.2345678901234569e+23,
	5e-324, math.MaxFloat64, -math.SmallestNonzeroFloat64, 0.30000000000000004, 100000, 1e6}

func TestAppendFloat(t *testing.T) {
	for _, f := range floats {
		g, err := jsontext.AppendFloat(nil, f)
		if err != nil || string(g) != strconv.FormatFloat(f, 'g', -1, 64) {
			t.Errorf("AppendFloat(%v) = %s, %v", f, g, err)
		}
		js, err := jsontext.AppendFloatJS(nil, f)
		want, _ := json.Marshal(f)
		if err != nil || string(js) != string(want) {
			t.Errorf("AppendFloatJS(%v) = %s, %v; encoding/json writes %s", f, js, err, want)
		}
		for _, text := range [][]byte{g, js} {
			v, err := jsontext.Parse(text, jsontext.Options{})
			if err != nil {
				t.Fatal(err)
			}
			back, err := strconv.ParseFloat(v.Text, 64)
			if err != nil || math.Float64bits(back) != math.Float64bits(f) {
				t.Errorf("%s reads back as %v, want %v", text, back, f)
			}
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, err := jsontext.AppendFloat(nil, f); !errors.Is(err, jsontext.ErrNotFinite) {
			t.Errorf("AppendFloat(%v): %v", f, err)
		}
		if _, err := jsontext.AppendFloatJS(nil, f); !errors.Is(err, jsontext.ErrNotFinite) {
			t.Errorf("AppendFloatJS(%v): %v", f, err)
		}
	}
}

func TestAppendString(t *testing.T) {
	for _, s := range []string{"", "plain", "q\"b\\s/", "\n\r\t\b\f\x00\x1f\x7f", "<a&b>", "é😀", "\u2028\u2029", "\xff\xfeok\xc3"} {
		want, _ := json.Marshal(s)
		got := jsontext.AppendString(nil, s)
		if string(got) != string(want) {
			t.Errorf("AppendString(%q) = %s, encoding/json writes %s", s, got, want)
		}
		v, err := jsontext.Parse(got, jsontext.Options{})
		var back string
		_ = json.Unmarshal(want, &back)
		if err != nil || v.Text != back {
			t.Errorf("AppendString(%q) reads back as %q, %v", s, v.Text, err)
		}
	}
}

func TestWriter(t *testing.T) {
	var w jsontext.Writer
	w.Object()
	w.Key("z")
	w.String("first")
	w.Key("a")
	w.Array()
	w.Int(-3)
	w.Float(0.5)
	w.Bool(true)
	w.Array()
	w.EndArray()
	w.Object()
	w.EndObject()
	w.EndArray()
	w.Key("raw")
	w.Raw([]byte(`{"k":1}`))
	w.EndObject()
	got, err := w.Bytes()
	if want := `{"z":"first","a":[-3,0.5,true,[],{}],"raw":{"k":1}}`; err != nil || string(got) != want {
		t.Errorf("Writer wrote %s, %v; want %s", got, err, want)
	}
	var bad jsontext.Writer
	bad.Array()
	bad.Float(math.NaN())
	bad.Float(1)
	bad.EndArray()
	if _, err := bad.Bytes(); !errors.Is(err, jsontext.ErrNotFinite) {
		t.Errorf("Writer with a NaN: %v", err)
	}
}
