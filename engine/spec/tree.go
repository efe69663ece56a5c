package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// maxDepth bounds the nesting of a model document; the deepest legitimate
// value is a parameter of rank 4 inside params (depth 6).
const maxDepth = 16

// kind is the JSON type of a node.
type kind uint8

const (
	kNull kind = iota
	kBool
	kNum
	kStr
	kArr
	kObj
)

// what names a kind as error messages do.
func (k kind) what() string {
	return [...]string{"null", "true/false", "a number", "a string", "an array", "an object"}[k]
}

// node is a parsed JSON value that keeps object keys in document order.
type node struct {
	kind  kind
	b     bool
	lit   string // number literal or string value
	elems []*node
	keys  []string
	vals  []*node
}

// field returns the value of key in an object node, or nil.
func (n *node) field(key string) *node {
	for i, k := range n.keys {
		if k == key {
			return n.vals[i]
		}
	}
	return nil
}

// parse reads exactly one JSON value from data. Objects with a repeated
// key are rejected, since they have no single meaning.
func parse(data []byte) (*node, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	n, err := parseValue(dec, "", 0)
	if err != nil {
		return nil, syntaxErr(data, err)
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		for end < int64(len(data)) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
			end++
		}
		return nil, &Error{Msg: fmt.Sprintf("invalid JSON at %s: more data after the model document", where(data, end))}
	}
	return n, nil
}

func parseValue(dec *json.Decoder, path string, depth int) (*node, error) {
	if depth > maxDepth {
		return nil, &Error{Path: path, Msg: fmt.Sprintf("nested more than %d levels deep", maxDepth)}
	}
	tok, err := dec.Token()
	if err != nil {
		if err == io.EOF {
			return nil, &Error{Msg: "invalid JSON: unexpected end of input"}
		}
		return nil, err
	}
	switch t := tok.(type) {
	case nil:
		return &node{kind: kNull}, nil
	case bool:
		return &node{kind: kBool, b: t}, nil
	case json.Number:
		return &node{kind: kNum, lit: string(t)}, nil
	case string:
		return &node{kind: kStr, lit: t}, nil
	case json.Delim:
		if t == '[' {
			n := &node{kind: kArr}
			for dec.More() {
				e, err := parseValue(dec, path+"["+strconv.Itoa(len(n.elems))+"]", depth+1)
				if err != nil {
					return nil, err
				}
				n.elems = append(n.elems, e)
			}
			_, err := dec.Token()
			return n, err
		}
		n := &node{kind: kObj}
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return nil, err
			}
			k, _ := kt.(string)
			kp := join(path, k)
			if path == "params" {
				kp = path + "[" + strconv.Quote(k) + "]"
			}
			if n.field(k) != nil {
				return nil, &Error{Path: kp, Msg: "appears more than once"}
			}
			v, err := parseValue(dec, kp, depth+1)
			if err != nil {
				return nil, err
			}
			n.keys = append(n.keys, k)
			n.vals = append(n.vals, v)
		}
		_, err := dec.Token()
		return n, err
	}
	return nil, fmt.Errorf("unexpected token %v", tok)
}

// syntaxErr turns a decoder error into an *Error with a line and column.
func syntaxErr(data []byte, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return e
	}
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return &Error{Msg: fmt.Sprintf("invalid JSON at %s: %s", where(data, se.Offset), se.Error())}
	}
	if err == io.ErrUnexpectedEOF || err == io.EOF {
		return &Error{Msg: "invalid JSON: unexpected end of input"}
	}
	return &Error{Msg: "invalid JSON: " + err.Error()}
}

// where formats a byte offset as "line L, column C".
func where(data []byte, off int64) string {
	if off > int64(len(data)) {
		off = int64(len(data))
	}
	line, col := 1, 1
	for _, c := range data[:off] {
		if c == '\n' {
			line, col = line+1, 1
		} else {
			col++
		}
	}
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
