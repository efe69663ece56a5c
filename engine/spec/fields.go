package spec

import (
	"fmt"
	"math"
	"strconv"
	"strings"
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
func want(n *node, path string, k kind) error {
	if n.kind != k {
		return errorf(path, "want %s, got %s", k.what(), n.kind.what())
	}
	return nil
}

// checkKeys rejects object keys outside allowed.
func checkKeys(n *node, path string, allowed []string, whose string) error {
	for _, k := range n.keys {
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
func intIn(n *node, path string, lo, hi int) (int, error) {
	if err := want(n, path, kNum); err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(n.lit, 64)
	if err != nil || v != math.Trunc(v) {
		return 0, errorf(path, "must be a whole number, got %s", n.lit)
	}
	if lo == 1 && v < 1 {
		return 0, errorf(path, "must be ≥ 1")
	}
	if v < float64(lo) || v > float64(hi) {
		return 0, errorf(path, "must be a whole number from %d to %d, got %s", lo, hi, n.lit)
	}
	return int(v), nil
}

// uint64Of reads a whole number in [0, 2⁶⁴−1].
func uint64Of(n *node, path string) (uint64, error) {
	if err := want(n, path, kNum); err != nil {
		return 0, err
	}
	v, err := strconv.ParseUint(n.lit, 10, 64)
	if err != nil {
		return 0, errorf(path, "must be a whole number from 0 to %d, got %s", uint64(math.MaxUint64), n.lit)
	}
	return v, nil
}

// floatOf reads a finite number.
func floatOf(n *node, path string) (float64, error) {
	if err := want(n, path, kNum); err != nil {
		return 0, err
	}
	v, err := strconv.ParseFloat(n.lit, 64)
	if err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
		return 0, errorf(path, "%s is out of range for a float64", n.lit)
	}
	return v, nil
}

// stringOf reads a string.
func stringOf(n *node, path string) (string, error) {
	if err := want(n, path, kStr); err != nil {
		return "", err
	}
	return n.lit, nil
}

// boolOf reads true or false.
func boolOf(n *node, path string) (bool, error) {
	if err := want(n, path, kBool); err != nil {
		return false, err
	}
	return n.b, nil
}
