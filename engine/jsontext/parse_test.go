package jsontext_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"tapelab/engine/jsontext"
)

// corpus holds valid and invalid texts; the tests compare Parse with
// encoding/json on them.
var corpus = []string{
	`null`, `true`, `false`, `0`, `-0`, `1.5e-7`, `-12.25E+3`, `""`, `"a\"b\\c\/\b\f\n\r\t"`,
	`"\u00e9\ud83d\ude00"`, `"\ud800"`, `"\ud800\u0041"`, `"\udc00\ud800"`, "\"\xff\xfe\"", `"é😀"`,
	`[]`, `{}`, ` [1, [2, [3]], {"a": {"b": []}}] `, `{"a":1,"b":[true,false,null],"c":"d"}`,
	`{"0.weight": [[1,2]], "x y": 1, "_a1": 2}`,
	``, ` `, `{`, `[`, `[1,`, `[1 2]`, `[1,]`, `{"a" 1}`, `{"a":1,}`, `{"a":1 "b":2}`, `{a:1}`,
	`01`, `-`, `1.`, `1e`, `1e+`, `.5`, `+1`, `NaN`, `Infinity`, `tru`, `trux`, `nul`, `"abc`, "\"a\nb\"",
	`"\x"`, `"\u12g4"`, `"\u12`, `{} {}`, `1 2`, `[1]]`, `{"a":1}}`, `"a" x`,
}

func TestParseAgreesWithEncodingJSON(t *testing.T) {
	for _, text := range corpus {
		v, err := jsontext.Parse([]byte(text), jsontext.Options{})
		if (err == nil) != json.Valid([]byte(text)) {
			t.Errorf("Parse(%q) error %v, json.Valid = %v", text, err, json.Valid([]byte(text)))
			continue
		}
		if err != nil {
			var se *jsontext.SyntaxError
			if !errors.As(err, &se) || se.Offset < 0 || se.Offset > len(text) {
				t.Errorf("Parse(%q) error %#v is not a *SyntaxError with an offset in the text", text, err)
			}
			continue
		}
		var want any
		if err := json.Unmarshal([]byte(text), &want); err != nil {
			t.Fatal(err)
		}
		if got := plain(v); !equal(got, want) {
			t.Errorf("Parse(%q) = %#v, encoding/json reads %#v", text, got, want)
		}
		if strings.TrimSpace(text) != text[v.Start:v.End] {
			t.Errorf("Parse(%q): Start, End = %d, %d", text, v.Start, v.End)
		}
	}
}

// plain converts a Value into what json.Unmarshal into an any gives.
func plain(v *jsontext.Value) any {
	switch v.Kind {
	case jsontext.Bool:
		return v.Bool
	case jsontext.Number:
		var f float64
		if err := json.Unmarshal([]byte(v.Text), &f); err != nil {
			return err
		}
		return f
	case jsontext.String:
		return v.Text
	case jsontext.Array:
		out := []any{}
		for _, e := range v.Elems {
			out = append(out, plain(e))
		}
		return out
	case jsontext.Object:
		out := map[string]any{}
		for _, m := range v.Members {
			out[m.Key] = plain(m.Value)
		}
		return out
	}
	return nil
}

func equal(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return string(x) == string(y)
}

func TestParseErrors(t *testing.T) {
	cases := []struct {
		text string
		opt  jsontext.Options
		want string // %T: Error()
		path string
		off  int
	}{
		{"{\"a\": [2,}", jsontext.Options{}, "*jsontext.SyntaxError: invalid character '}' looking for beginning of value", "a[1]", 9},
		{`{"a": 1 "b": 2}`, jsontext.Options{}, "*jsontext.SyntaxError: invalid character '\"' after object key:value pair", "", 8},
		{`[1, 2`, jsontext.Options{}, "*jsontext.SyntaxError: unexpected end of JSON input", "", 5},
		{`{"x": {"0.w": tru}}`, jsontext.Options{}, "*jsontext.SyntaxError: invalid character '}' in literal true (expecting 'e')", `x["0.w"]`, 17},
		{`{} x`, jsontext.Options{}, "*jsontext.SyntaxError: invalid character 'x' after top-level value", "", 3},
		{`{"a": {"b": 1, "b": 2}}`, jsontext.Options{}, "*jsontext.DuplicateKeyError: a.b: duplicate key", "a.b", 15},
		{`{"p": {"q": 1, "q": 2}}`, jsontext.Options{Key: func(p, k string) string { return p + "/" + k }}, "*jsontext.DuplicateKeyError: /p/q: duplicate key", "/p/q", 15},
		{`[[[1]]]`, jsontext.Options{MaxDepth: 2}, "*jsontext.DepthError: [0][0][0]: nested more than 2 levels deep", "[0][0][0]", 3},
	}
	for _, tc := range cases {
		_, err := jsontext.Parse([]byte(tc.text), tc.opt)
		got := "no error"
		path, off := "", -1
		switch e := err.(type) {
		case *jsontext.SyntaxError:
			path, off = e.Path, e.Offset
		case *jsontext.DuplicateKeyError:
			path, off = e.Path, e.Offset
		case *jsontext.DepthError:
			path, off = e.Path, e.Offset
		}
		if err != nil {
			got = typeName(err) + ": " + err.Error()
		}
		if got != tc.want || path != tc.path || off != tc.off {
			t.Errorf("Parse(%s) = %s at %q offset %d, want %s at %q offset %d", tc.text, got, path, off, tc.want, tc.path, tc.off)
		}
	}
	// encoding/json words the same faults the same way.
	for _, text := range []string{"[2,}", `{"a": 1 "b": 2}`, `[1 2]`, `{"a" 1}`, `"\x"`, `01`} {
		_, err := jsontext.Parse([]byte(text), jsontext.Options{})
		var v any
		jerr := json.Unmarshal([]byte(text), &v)
		if err == nil || jerr == nil || err.Error() != jerr.Error() {
			t.Errorf("Parse(%s): %v, encoding/json: %v", text, err, jerr)
		}
	}
}

func typeName(err error) string {
	switch err.(type) {
	case *jsontext.SyntaxError:
		return "*jsontext.SyntaxError"
	case *jsontext.DuplicateKeyError:
		return "*jsontext.DuplicateKeyError"
	case *jsontext.DepthError:
		return "*jsontext.DepthError"
	}
	return "?"
}

func TestPosition(t *testing.T) {
	text := []byte("ab\ncd\n")
	for _, tc := range []struct{ off, line, col int }{{0, 1, 1}, {2, 1, 3}, {3, 2, 1}, {5, 2, 3}, {99, 3, 1}} {
		if l, c := jsontext.Position(text, tc.off); l != tc.line || c != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

func TestDeepDefaultLimit(t *testing.T) {
	deep := strings.Repeat("[", 20000) + strings.Repeat("]", 20000)
	var de *jsontext.DepthError
	if _, err := jsontext.Parse([]byte(deep), jsontext.Options{}); !errors.As(err, &de) || de.Limit != jsontext.DefaultMaxDepth {
		t.Errorf("20000 nested arrays: %v", err)
	}
}

// FuzzParse: Parse never panics, accepts exactly what encoding/json
// accepts, and reads the same values.
func FuzzParse(f *testing.F) {
	for _, s := range corpus {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, text []byte) {
		v, err := jsontext.Parse(text, jsontext.Options{})
		var want any
		jerr := json.Unmarshal(text, &want)
		var de *jsontext.DepthError
		var dk *jsontext.DuplicateKeyError
		var te *json.UnmarshalTypeError // a number beyond float64
		if errors.As(err, &de) || errors.As(err, &dk) || errors.As(jerr, &te) {
			return
		}
		if (err == nil) != (jerr == nil) {
			t.Fatalf("Parse(%q): %v; encoding/json: %v", text, err, jerr)
		}
		if err == nil && !equal(plain(v), want) {
			t.Fatalf("Parse(%q) = %#v, encoding/json reads %#v", text, plain(v), want)
		}
	})
}
