package ir

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"strconv"
)

// jvalue is one parsed JSON value that keeps object members in order, so
// that the strict decoder can reject duplicate and unknown keys and name the
// JSON path of every fault.
type jvalue struct {
	kind jkind
	obj  []jmember // kind == jObject
	arr  []*jvalue // kind == jArray
	text string    // jNumber: the literal; jString: the string
}

type jmember struct {
	key string
	val *jvalue
}

type jkind uint8

const (
	jNull jkind = iota
	jBool
	jNumber
	jString
	jArray
	jObject
)

func (k jkind) String() string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// parseJSON parses exactly one JSON value from data.
func parseJSON(data []byte) (*jvalue, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := parseValue(dec, "")
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("unexpected data after the top-level value")
	}
	return v, nil
}

func parseValue(dec *json.Decoder, path string) (*jvalue, error) {
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("%s: invalid JSON: %v", where(path), err)
	}
	switch t := tok.(type) {
	case nil:
		return &jvalue{kind: jNull}, nil
	case bool:
		return &jvalue{kind: jBool}, nil
	case json.Number:
		return &jvalue{kind: jNumber, text: string(t)}, nil
	case string:
		return &jvalue{kind: jString, text: t}, nil
	case json.Delim:
		switch t {
		case '[':
			v := &jvalue{kind: jArray}
			for dec.More() {
				e, err := parseValue(dec, fmt.Sprintf("%s[%d]", path, len(v.arr)))
				if err != nil {
					return nil, err
				}
				v.arr = append(v.arr, e)
			}
			_, err := dec.Token() // ']'
			return v, err
		case '{':
			v := &jvalue{kind: jObject}
			seen := map[string]bool{}
			for dec.More() {
				kt, err := dec.Token()
				if err != nil {
					return nil, fmt.Errorf("%s: invalid JSON: %v", where(path), err)
				}
				k, _ := kt.(string)
				sub := join(path, k)
				if seen[k] {
					return nil, fmt.Errorf("%s: duplicate key", sub)
				}
				seen[k] = true
				e, err := parseValue(dec, sub)
				if err != nil {
					return nil, err
				}
				v.obj = append(v.obj, jmember{k, e})
			}
			_, err := dec.Token() // '}'
			return v, err
		}
	}
	return nil, fmt.Errorf("%s: invalid JSON", where(path))
}

// join appends an object key to a JSON path: a.b, or a["3"] for keys that
// are not identifiers.
func join(path, key string) string {
	ident := key != ""
	for i, r := range key {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			ident = false
		}
	}
	if !ident {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

// where names a path in an error; the empty path is the document itself.
func where(path string) string {
	if path == "" {
		return "(document)"
	}
	return path
}

// fields returns the members of an object, failing on a non-object, on a
// key not in required or optional, and on a missing required key.
func fields(v *jvalue, path string, required, optional []string) (map[string]*jvalue, error) {
	if v.kind != jObject {
		return nil, fmt.Errorf("%s: want an object, got %v", where(path), v.kind)
	}
	m := make(map[string]*jvalue, len(v.obj))
	for _, mb := range v.obj {
		if !contains(required, mb.key) && !contains(optional, mb.key) {
			return nil, fmt.Errorf("%s: unknown field", join(path, mb.key))
		}
		m[mb.key] = mb.val
	}
	for _, k := range required {
		if m[k] == nil {
			return nil, fmt.Errorf("%s: missing", join(path, k))
		}
	}
	return m, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// array returns the elements of an array.
func array(v *jvalue, path string) ([]*jvalue, error) {
	if v.kind != jArray {
		return nil, fmt.Errorf("%s: want an array, got %v", where(path), v.kind)
	}
	return v.arr, nil
}

// integer returns an integer in [lo, hi].
func integer(v *jvalue, path string, lo, hi int64) (int64, error) {
	if v.kind != jNumber {
		return 0, fmt.Errorf("%s: want an integer, got %v", where(path), v.kind)
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: want an integer in [%d, %d], got %s", where(path), lo, hi, v.text)
	}
	return n, nil
}

// unsigned returns a uint64.
func unsigned(v *jvalue, path string) (uint64, error) {
	if v.kind != jNumber {
		return 0, fmt.Errorf("%s: want an unsigned integer, got %v", where(path), v.kind)
	}
	n, err := strconv.ParseUint(v.text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: want an unsigned 64-bit integer, got %s", where(path), v.text)
	}
	return n, nil
}

// number returns a finite float64.
func number(v *jvalue, path string) (float64, error) {
	if v.kind != jNumber {
		return 0, fmt.Errorf("%s: want a number, got %v", where(path), v.kind)
	}
	f, err := strconv.ParseFloat(v.text, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s: %s is outside the float64 range", where(path), v.text)
	}
	return f, nil
}

// str returns a string.
func str(v *jvalue, path string) (string, error) {
	if v.kind != jString {
		return "", fmt.Errorf("%s: want a string, got %v", where(path), v.kind)
	}
	return v.text, nil
}
