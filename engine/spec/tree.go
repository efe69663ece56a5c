package spec

import (
	"errors"
	"fmt"
	"strconv"

	"tapelab/engine/jsontext"
)

// maxDepth bounds the nesting of a model document; the deepest legitimate
// value is a parameter of rank 4 inside params (depth 6).
const maxDepth = 16

// what names a JSON type as error messages do.
func what(k jsontext.Kind) string {
	return [...]string{"null", "true/false", "a number", "a string", "an array", "an object"}[k]
}

// parse reads exactly one JSON value from data. Objects with a repeated
// key are rejected, since they have no single meaning.
func parse(data []byte) (*jsontext.Value, error) {
	n, err := jsontext.Parse(data, jsontext.Options{MaxDepth: maxDepth, Key: paramsJoin})
	var se *jsontext.SyntaxError
	var de *jsontext.DuplicateKeyError
	var te *jsontext.DepthError
	switch {
	case err == nil:
		return n, nil
	case errors.As(err, &de):
		return nil, &Error{Path: de.Path, Msg: "appears more than once"}
	case errors.As(err, &te):
		return nil, &Error{Path: te.Path, Msg: fmt.Sprintf("nested more than %d levels deep", maxDepth)}
	case errors.As(err, &se) && se.EOF:
		return nil, &Error{Msg: "invalid JSON: unexpected end of input"}
	case errors.As(err, &se) && se.Trailing:
		return nil, &Error{Msg: fmt.Sprintf("invalid JSON at %s: more data after the model document", where(data, se.Offset))}
	case errors.As(err, &se):
		return nil, &Error{Msg: fmt.Sprintf("invalid JSON at %s: %s", where(data, se.Offset), se.Msg)}
	}
	return nil, &Error{Msg: "invalid JSON: " + err.Error()}
}

// paramsJoin is join, except that keys directly inside params are always
// quoted: params["0.weight"].
func paramsJoin(path, key string) string {
	if path == "params" {
		return path + "[" + strconv.Quote(key) + "]"
	}
	return join(path, key)
}

// where formats a byte offset as "line L, column C".
func where(data []byte, off int) string {
	line, col := jsontext.Position(data, off)
	return fmt.Sprintf("line %d, column %d", line, col)
}

// join appends an object key to a path: "layers[2]" + "out" = "layers[2].out".
// Keys that are not plain identifiers are quoted: params["0.weight"].
func join(path, key string) string {
	plain := key != ""
	for _, c := range key {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			plain = false
			break
		}
	}
	if !plain {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
