package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"tapelab/engine/jsontext"
)

// Error reports a fault in a model document: Path is the JSON path of the
// faulty value ("layers[2].out", `params["0.weight"]`, "" for the whole
// document) and Msg says what is wrong.
type Error struct {
	Path string
	Msg  string
}

// Error returns "path: message", or the message alone for the document.
func (e *Error) Error() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

func errorf(path, format string, args ...any) *Error {
	return &Error{Path: path, Msg: fmt.Sprintf(format, args...)}
}

// want checks a node's JSON type.
func want(n *jsontext.Value, path string, k jsontext.Kind) error {
	if n.Kind != k {
		return errorf(path, "want %s, got %s", what(k), what(n.Kind))
	}
	return nil
}

// checkKeys rejects object keys outside allowed.
func checkKeys(n *jsontext.Value, path string, allowed []string, whose string) error {
	for _, mb := range n.Members {
		k := mb.Key
		ok := false
		for _, a := range allowed {
			if k == a {
				ok = true
				break
			}
		}
		if !ok {
			if len(allowed) == 0 {
				return errorf(join(path, k), "unknown field (%s has no fields)", whose)
			}
			return errorf(join(path, k), "unknown field for %s (want %s)", whose, strings.Join(allowed, ", "))
		}
	}
	return nil
}

// intIn reads a whole number in [lo, hi]. JSON has no integer type, so
// 4, 4.0 and 4e0 are all the whole number 4.
func intIn(n *jsontext.Value, path string, lo, hi int) (int, error) {
	if err := want(n, path, jsontext.Number); err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(n.Text, 64)
	if err != nil || v != math.Trunc(v) {
		return 0, errorf(path, "must be a whole number, got %s", n.Text)
	}
	if lo == 1 && v < 1 {
		return 0, errorf(path, "must be ≥ 1")
	}
	if v < float64(lo) || v > float64(hi) {
		return 0, errorf(path, "must be a whole number from %d to %d, got %s", lo, hi, n.Text)
	}
	return int(v), nil
}

// uint64Of reads a whole number in [0, 2⁶⁴−1].
func uint64Of(n *jsontext.Value, path string) (uint64, error) {
	if err := want(n, path, jsontext.Number); err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(n.Text, 10, 64)
	if err != nil {
		return 0, errorf(path, "must be a whole number from 0 to %d, got %s", uint64(math.MaxUint64), n.Text)
	}
	return v, nil
}

// floatOf reads a finite number.
func floatOf(n *jsontext.Value, path string) (float64, error) {
	if err := want(n, path, jsontext.Number); err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(n.Text, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errorf(path, "%s is out of range for a float64", n.Text)
	}
	return v, nil
}

// stringOf reads a string.
func stringOf(n *jsontext.Value, path string) (string, error) {
	if err := want(n, path, jsontext.String); err != nil {
		return "", err
	}
	return n.Text, nil
}

// boolOf reads true or false.
func boolOf(n *jsontext.Value, path string) (bool, error) {
	if err := want(n, path, jsontext.Bool); err != nil {
		return false, err
	}
	return n.Bool, nil
}
