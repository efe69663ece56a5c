// Package jsontext reads and writes JSON text without reflection: Parse
// builds a tree that keeps object members in document order and rejects
// duplicate keys and over-deep nesting, naming the JSON path and byte offset
// of every fault; Writer and the Append functions write JSON with object
// keys in the order the caller gives them.
package jsontext

import (
	"strconv"
)

// Kind is the JSON type of a Value.
type Kind uint8

// The JSON types.
const (
	Null Kind = iota
	Bool
	Number
	String
	Array
	Object
)

// Value is one parsed JSON value.
type Value struct {
	Kind    Kind
	Bool    bool     // Kind == Bool: its value
	Text    string   // Kind == Number: the literal as written; Kind == String: the decoded string
	Elems   []*Value // Kind == Array: the elements
	Members []Member // Kind == Object: the members in document order
	// Start and End are the byte offsets of the value in the parsed text:
	// text[Start:End] is the value as written.
	Start, End int
}

// Member is one key and value of an object.
type Member struct {
	Key   string
	Value *Value
}

// Field returns the value of key in an object, or nil if v is not an
// object or has no such key.
func (v *Value) Field(key string) *Value {
	for _, m := range v.Members {
		if m.Key == key {
			return m.Value
		}
	}
	return nil
}

// DefaultMaxDepth is the nesting limit when Options.MaxDepth is 0; it is
// encoding/json's.
const DefaultMaxDepth = 10000

// Options adjust Parse.
type Options struct {
	// MaxDepth is the deepest nesting allowed: the top-level value is at
	// depth 0 and a value at a greater depth is a *DepthError. 0 means
	// DefaultMaxDepth.
	MaxDepth int
	// Key returns the path of a member with the given key inside the value
	// at path. Nil means Join.
	Key func(path, key string) string
}

// SyntaxError is text that is not one JSON value. Msg is worded as
// encoding/json words it ("invalid character '}' looking for beginning of
// value"); Offset is the byte offset of the fault; Path is the path of the
// value being read there ("" for the document).
type SyntaxError struct {
	Msg    string
	Offset int
	Path   string
	// EOF reports that the text ended before the value did.
	EOF bool
	// Trailing reports that a complete value was followed by more than
	// white space; Offset is where that data starts.
	Trailing bool
}

// Error returns Msg.
func (e *SyntaxError) Error() string { return e.Msg }

// DuplicateKeyError is an object with a key that appears more than once;
// Path is the path of the second occurrence.
type DuplicateKeyError struct {
	Path   string
	Offset int
}

// Error returns "PATH: duplicate key".
func (e *DuplicateKeyError) Error() string { return e.Path + ": duplicate key" }

// DepthError is a value nested deeper than the limit; Path is its path.
type DepthError struct {
	Path   string
	Limit  int
	Offset int
}

// Error returns "PATH: nested more than N levels deep".
func (e *DepthError) Error() string {
	return e.Path + ": nested more than " + strconv.Itoa(e.Limit) + " levels deep"
}

// Position returns the 1-based line and column of a byte offset in text;
// columns count bytes.
func Position(text []byte, offset int) (line, column int) {
	offset = min(max(offset, 0), len(text))
	line, column = 1, 1
	for _, c := range text[:offset] {
		if c == '\n' {
			line, column = line+1, 1
		} else {
			column++
		}
	}
	return line, column
}

// Join returns the path of a member: "a.b", or a["0.weight"] for a key that
// is not an identifier (letters, digits and '_', not starting with a digit).
func Join(path, key string) string {
	ident := key != ""
	for i, r := range key {
		if !(r == '_' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || i > 0 && r >= '0' && r <= '9') {
			ident = false
			break
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

// Parse reads exactly one JSON value from text, with white space around it.
// Errors are a *SyntaxError, *DuplicateKeyError or *DepthError. Numbers are
// checked against the JSON grammar and kept as written; strings are decoded
// as encoding/json decodes them (invalid UTF-8 and lone surrogates become
// U+FFFD).
func Parse(text []byte, opt Options) (*Value, error) {
	p := parser{text: text, max: opt.MaxDepth, key: opt.Key}
	if p.max <= 0 {
		p.max = DefaultMaxDepth
	}
	if p.key == nil {
		p.key = Join
	}
	v, err := p.value("", 0)
	if err != nil {
		return nil, err
	}
	p.space()
	if p.i < len(text) {
		e := p.invalid(text[p.i], "after top-level value", "")
		e.Trailing = true
		return nil, e
	}
	return v, nil
}

type parser struct {
	text []byte
	i    int
	max  int
	key  func(path, key string) string
}

func (p *parser) space() {
	for p.i < len(p.text) {
		switch p.text[p.i] {
		case ' ', '\t', '\r', '\n':
			p.i++
		default:
			return
		}
	}
}

// invalid reports an unexpected byte c at p.i, or the end of the input.
func (p *parser) invalid(c byte, context, path string) *SyntaxError {
	return &SyntaxError{Msg: "invalid character " + quoteChar(c) + " " + context, Offset: p.i, Path: path}
}

func (p *parser) eof(path string) *SyntaxError {
	return &SyntaxError{Msg: "unexpected end of JSON input", Offset: len(p.text), Path: path, EOF: true}
}

// next skips white space and returns the next byte, or ok == false at the end.
func (p *parser) next() (byte, bool) {
	p.space()
	if p.i >= len(p.text) {
		return 0, false
	}
	return p.text[p.i], true
}

func (p *parser) value(path string, depth int) (*Value, error) {
	if depth > p.max {
		return nil, &DepthError{Path: path, Limit: p.max, Offset: p.i}
	}
	c, ok := p.next()
	if !ok {
		return nil, p.eof(path)
	}
	start := p.i
	var v *Value
	var err error
	switch {
	case c == '{':
		v, err = p.object(path, depth)
	case c == '[':
		v, err = p.array(path, depth)
	case c == '"':
		var s string
		s, err = p.str(path)
		v = &Value{Kind: String, Text: s}
	case c == '-' || c >= '0' && c <= '9':
		v, err = p.number(path)
	case c == 't':
		v, err = p.literal("true", path, &Value{Kind: Bool, Bool: true})
	case c == 'f':
		v, err = p.literal("false", path, &Value{Kind: Bool})
	case c == 'n':
		v, err = p.literal("null", path, &Value{Kind: Null})
	default:
		return nil, p.invalid(c, "looking for beginning of value", path)
	}
	if err != nil {
		return nil, err
	}
	v.Start, v.End = start, p.i
	return v, nil
}

func (p *parser) literal(word, path string, v *Value) (*Value, error) {
	for k := 0; k < len(word); k++ {
		if p.i >= len(p.text) {
			return nil, p.eof(path)
		}
		if p.text[p.i] != word[k] {
			return nil, p.invalid(p.text[p.i], "in literal "+word+" (expecting "+quoteChar(word[k])+")", path)
		}
		p.i++
	}
	return v, nil
}

func (p *parser) object(path string, depth int) (*Value, error) {
	v := &Value{Kind: Object}
	p.i++ // '{'
	for {
		c, ok := p.next()
		if !ok {
			return nil, p.eof(path)
		}
		if c == '}' && len(v.Members) == 0 {
			p.i++
			return v, nil
		}
		if c != '"' {
			return nil, p.invalid(c, "looking for beginning of object key string", path)
		}
		at := p.i
		k, err := p.str(path)
		if err != nil {
			return nil, err
		}
		sub := p.key(path, k)
		if v.Field(k) != nil {
			return nil, &DuplicateKeyError{Path: sub, Offset: at}
		}
		if c, ok = p.next(); !ok {
			return nil, p.eof(path)
		} else if c != ':' {
			return nil, p.invalid(c, "after object key", path)
		}
		p.i++
		e, err := p.value(sub, depth+1)
		if err != nil {
			return nil, err
		}
		v.Members = append(v.Members, Member{Key: k, Value: e})
		if c, ok = p.next(); !ok {
			return nil, p.eof(path)
		}
		p.i++
		switch c {
		case ',':
		case '}':
			return v, nil
		default:
			p.i--
			return nil, p.invalid(c, "after object key:value pair", path)
		}
	}
}

func (p *parser) array(path string, depth int) (*Value, error) {
	v := &Value{Kind: Array}
	p.i++ // '['
	if c, ok := p.next(); ok && c == ']' {
		p.i++
		return v, nil
	}
	for {
		e, err := p.value(path+"["+strconv.Itoa(len(v.Elems))+"]", depth+1)
		if err != nil {
			return nil, err
		}
		v.Elems = append(v.Elems, e)
		c, ok := p.next()
		if !ok {
			return nil, p.eof(path)
		}
		p.i++
		switch c {
		case ',':
		case ']':
			return v, nil
		default:
			p.i--
			return nil, p.invalid(c, "after array element", path)
		}
	}
}

// number checks a number literal against the JSON grammar.
func (p *parser) number(path string) (*Value, error) {
	start := p.i
	digits := func() int {
		n := 0
		for p.i < len(p.text) && p.text[p.i] >= '0' && p.text[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	// need reports the byte where a digit was required.
	need := func() error {
		if p.i >= len(p.text) {
			return p.eof(path)
		}
		return p.invalid(p.text[p.i], "in numeric literal", path)
	}
	if p.text[p.i] == '-' {
		p.i++
	}
	if p.i < len(p.text) && p.text[p.i] == '0' {
		p.i++
	} else if digits() == 0 {
		return nil, need()
	}
	if p.i < len(p.text) && p.text[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, need()
		}
	}
	if p.i < len(p.text) && (p.text[p.i] == 'e' || p.text[p.i] == 'E') {
		p.i++
		if p.i < len(p.text) && (p.text[p.i] == '+' || p.text[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, need()
		}
	}
	return &Value{Kind: Number, Text: string(p.text[start:p.i])}, nil
}
