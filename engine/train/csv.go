package train

import (
	"fmt"
	"unicode"
	"unicode/utf8"
)

// csvReader splits CSV text into records the way encoding/csv does with
// TrimLeadingSpace and any number of fields per record (RFC 4180: fields
// separated by commas; a field in double quotes may hold commas, line
// breaks and doubled quotes), in a fraction of its code. Empty lines are
// skipped; "\r\n" ends a line as "\n" does; white space before a field is
// dropped.
type csvReader struct {
	text      []byte
	pos       int
	line      int // the line pos is on, from 1
	lineStart int // the offset of that line's first byte
	fields    []string
	cols      []int // each field's column: its first byte's 1-based offset in its line
	recLine   int   // the line the record starts on
}

// next reads the next record into r.fields, r.cols and r.recLine; it
// returns false at the end of the text. A quote out of place is an error
// "line L, column C: why", in encoding/csv's words.
func (r *csvReader) next() (bool, error) {
	for r.lineEnd(r.pos) {
		r.skipLineEnd()
	}
	if r.pos == len(r.text) {
		return false, nil
	}
	r.fields, r.cols, r.recLine = r.fields[:0], r.cols[:0], r.line
	for {
		for !r.lineEnd(r.pos) {
			c, n := utf8.DecodeRune(r.text[r.pos:])
			if !unicode.IsSpace(c) {
				break
			}
			r.pos += n
		}
		r.cols = append(r.cols, r.pos-r.lineStart+1)
		field, err := r.field()
		if err != nil {
			return false, err
		}
		r.fields = append(r.fields, field)
		if r.at(r.pos) == ',' {
			r.pos++
			continue
		}
		r.skipLineEnd()
		return true, nil
	}
}

// field reads one field, up to the comma or line end after it.
func (r *csvReader) field() (string, error) {
	if r.at(r.pos) != '"' {
		start := r.pos
		for ; r.pos < len(r.text); r.pos++ {
			switch c := r.text[r.pos]; {
			case c == ',' || r.lineEnd(r.pos):
				return string(r.text[start:r.pos]), nil
			case c == '"':
				return "", r.fault(`bare " in non-quoted-field`)
			}
		}
		return string(r.text[start:]), nil
	}
	var b []byte
	for r.pos++; r.pos < len(r.text); r.pos++ {
		switch c := r.text[r.pos]; {
		case c == '"' && r.at(r.pos+1) == '"':
			b = append(b, '"')
			r.pos++
		case c == '"':
			r.pos++
			if r.pos == len(r.text) || r.at(r.pos) == ',' || r.lineEnd(r.pos) {
				return string(b), nil
			}
			r.pos--
			return "", r.fault(`extraneous or missing " in quoted-field`)
		case r.lineEnd(r.pos): // "\r\n" is kept as "\n"
			b = append(b, '\n')
			r.skipLineEnd()
			r.pos--
		default:
			b = append(b, c)
		}
	}
	// The text ends inside the quotes: the fault is after its last byte,
	// on that byte's line, where "\r\n" counts as one byte and a "\r"
	// at the very end as none.
	if r.pos > 0 && r.text[r.pos-1] == '\n' {
		r.line--
		for r.lineStart--; r.lineStart > 0 && r.text[r.lineStart-1] != '\n'; r.lineStart-- {
		}
	}
	if r.pos > 0 && r.text[r.pos-1] == '\r' || r.pos > 1 && r.text[r.pos-2] == '\r' && r.text[r.pos-1] == '\n' {
		r.pos--
	}
	return "", r.fault(`extraneous or missing " in quoted-field`)
}

// at returns the byte at i, or 0 past the end.
func (r *csvReader) at(i int) byte {
	if i < len(r.text) {
		return r.text[i]
	}
	return 0
}

// lineEnd reports whether a line ends at i: "\n", or "\r" before "\n" or
// the end of the text.
func (r *csvReader) lineEnd(i int) bool {
	c := r.at(i)
	return c == '\n' || c == '\r' && (i+1 == len(r.text) || r.text[i+1] == '\n')
}

// skipLineEnd steps over the line end at pos, if there is one.
func (r *csvReader) skipLineEnd() {
	if r.at(r.pos) == '\r' {
		r.pos++
	}
	if r.pos < len(r.text) {
		r.newline()
	}
}

// newline steps over the '\n' at pos.
func (r *csvReader) newline() {
	r.pos++
	r.line++
	r.lineStart = r.pos
}

// fault is an error at pos.
func (r *csvReader) fault(why string) error {
	return fmt.Errorf("line %d, column %d: %s", r.line, r.pos-r.lineStart+1, why)
}
