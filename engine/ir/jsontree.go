package ir

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	"tapelab/engine/jsontext"
)

// kindName names a JSON type in error messages.
func kindName(k jsontext.Kind) string {
	return [...]string{"null", "a boolean", "a number", "a string", "an array", "an object"}[k]
}

// parseJSON parses exactly one JSON value from data, rejecting duplicate
// keys; errors name the JSON path of the fault.
func parseJSON(data []byte) (*jsontext.Value, error) {
	v, err := jsontext.Parse(data, jsontext.Options{})
	var se *jsontext.SyntaxError
	var dk *jsontext.DuplicateKeyError
	var de *jsontext.DepthError
	switch {
	case err == nil:
		return v, nil
	case errors.As(err, &dk):
		return nil, fmt.Errorf("%s: duplicate key", dk.Path)
	case errors.As(err, &de):
		return nil, fmt.Errorf("%s: invalid JSON: exceeded max depth", where(de.Path))
	case errors.As(err, &se) && se.Trailing:
		return nil, errors.New("unexpected data after the top-level value")
	case errors.As(err, &se) && se.EOF:
		return nil, fmt.Errorf("%s: invalid JSON: unexpected EOF", where(se.Path))
	}
	return nil, fmt.Errorf("%s: invalid JSON: %v", where(se.Path), err)
}

// join appends an object key to a JSON path: a.b, or a["3"] for keys that
// are not identifiers.
func join(path, key string) string { return jsontext.Join(path, key) }

// where names a path in an error; the empty path is the document itself.
func where(path string) string {
	if path == "" {
		return "(document)"
	}
	return path
}

// fields returns the members of an object, failing on a non-object, on a
// key not in required or optional, and on a missing required key.
func fields(v *jsontext.Value, path string, required, optional []string) (map[string]*jsontext.Value, error) {
	if v.Kind != jsontext.Object {
		return nil, fmt.Errorf("%s: want an object, got %s", where(path), kindName(v.Kind))
	}
	m := make(map[string]*jsontext.Value, len(v.Members))
	for _, mb := range v.Members {
		if !contains(required, mb.Key) && !contains(optional, mb.Key) {
			return nil, fmt.Errorf("%s: unknown field", join(path, mb.Key))
		}
		m[mb.Key] = mb.Value
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
func array(v *jsontext.Value, path string) ([]*jsontext.Value, error) {
	if v.Kind != jsontext.Array {
		return nil, fmt.Errorf("%s: want an array, got %s", where(path), kindName(v.Kind))
	}
	return v.Elems, nil
}

// integer returns an integer in [lo, hi].
func integer(v *jsontext.Value, path string, lo, hi int64) (int64, error) {
	if v.Kind != jsontext.Number {
		return 0, fmt.Errorf("%s: want an integer, got %s", where(path), kindName(v.Kind))
	}
	n, err := strconv.ParseInt(v.Text, 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, fmt.Errorf("%s: want an integer in [%d, %d], got %s", where(path), lo, hi, v.Text)
	}
	return n, nil
}

// unsigned returns a uint64.
func unsigned(v *jsontext.Value, path string) (uint64, error) {
	if v.Kind != jsontext.Number {
		return 0, fmt.Errorf("%s: want an unsigned integer, got %s", where(path), kindName(v.Kind))
	}
	n, err := strconv.ParseUint(v.Text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: want an unsigned 64-bit integer, got %s", where(path), v.Text)
	}
	return n, nil
}

// number returns a finite float64.
func number(v *jsontext.Value, path string) (float64, error) {
	if v.Kind != jsontext.Number {
		return 0, fmt.Errorf("%s: want a number, got %s", where(path), kindName(v.Kind))
	}
	f, err := strconv.ParseFloat(v.Text, 64)
	if err != nil || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s: %s is outside the float64 range", where(path), v.Text)
	}
	return f, nil
}

// str returns a string.
func str(v *jsontext.Value, path string) (string, error) {
	if v.Kind != jsontext.String {
		return "", fmt.Errorf("%s: want a string, got %s", where(path), kindName(v.Kind))
	}
	return v.Text, nil
}
