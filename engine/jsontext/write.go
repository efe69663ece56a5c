package jsontext

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"
)

// ErrNotFinite is the error for a NaN or infinite number, which JSON
// cannot represent.
var ErrNotFinite = errors.New("jsontext: NaN and infinities have no JSON form")

// AppendFloat appends the shortest text that parses back to exactly f
// (strconv 'g', precision -1; -0 stays -0).
func AppendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, ErrNotFinite
	}
	return strconv.AppendFloat(b, f, 'g', -1, 64), nil
}

// AppendFloatJS appends the shortest text that parses back to exactly f in
// the form JavaScript and encoding/json use: no exponent for magnitudes in
// [1e-6, 1e21), and e-7 rather than e-07.
func AppendFloatJS(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, ErrNotFinite
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

const hexDigits = "0123456789abcdef"

// AppendString appends s as a JSON string literal, escaped as
// encoding/json escapes it: control characters, '"', '\\', '<', '>', '&',
// U+2028 and U+2029 are escaped and invalid UTF-8 becomes U+FFFD.
func AppendString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				b = append(b, '\\', c)
			case c == '\n':
				b = append(b, '\\', 'n')
			case c == '\r':
				b = append(b, '\\', 'r')
			case c == '\t':
				b = append(b, '\\', 't')
			case c == '\b':
				b = append(b, '\\', 'b')
			case c == '\f':
				b = append(b, '\\', 'f')
			case c < 0x20 || c == '<' || c == '>' || c == '&':
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			default:
				b = append(b, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
		default:
			b = append(b, s[i:i+size]...)
		}
		i += size
	}
	return append(b, '"')
}

// Writer builds one JSON value: Object and Array open a container, Key
// names the next member, End closes the innermost container, and commas go
// where they belong. The first error (a NaN or infinity) sticks and is
// returned by Bytes.
type Writer struct {
	buf   []byte
	first []bool // per open container: nothing written in it yet
	key   bool   // a key was just written
	err   error
}

func (w *Writer) sep() {
	if w.key {
		w.key = false
		return
	}
	if n := len(w.first); n > 0 {
		if !w.first[n-1] {
			w.buf = append(w.buf, ',')
		}
		w.first[n-1] = false
	}
}

// Object opens an object.
func (w *Writer) Object() { w.sep(); w.buf = append(w.buf, '{'); w.first = append(w.first, true) }

// Array opens an array.
func (w *Writer) Array() { w.sep(); w.buf = append(w.buf, '['); w.first = append(w.first, true) }

func (w *Writer) end(closer byte) {
	w.buf = append(w.buf, closer)
	w.first = w.first[:len(w.first)-1]
}

// EndObject closes the innermost object.
func (w *Writer) EndObject() { w.end('}') }

// EndArray closes the innermost array.
func (w *Writer) EndArray() { w.end(']') }

// Key writes a member's key; the next value written is its value.
func (w *Writer) Key(k string) {
	w.sep()
	w.buf = AppendString(w.buf, k)
	w.buf = append(w.buf, ':')
	w.key = true
}

// String writes a string.
func (w *Writer) String(s string) { w.sep(); w.buf = AppendString(w.buf, s) }

// Int writes an integer.
func (w *Writer) Int(n int64) { w.sep(); w.buf = strconv.AppendInt(w.buf, n, 10) }

// Bool writes true or false.
func (w *Writer) Bool(v bool) { w.sep(); w.buf = strconv.AppendBool(w.buf, v) }

// Float writes a number with AppendFloatJS.
func (w *Writer) Float(f float64) {
	w.sep()
	var err error
	if w.buf, err = AppendFloatJS(w.buf, f); err != nil && w.err == nil {
		w.err = err
	}
}

// Raw writes text that is already one JSON value.
func (w *Writer) Raw(text []byte) { w.sep(); w.buf = append(w.buf, text...) }

// Bytes returns the text written so far and the first error.
func (w *Writer) Bytes() ([]byte, error) { return w.buf, w.err }
