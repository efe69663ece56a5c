package jsontext

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// str reads a string literal starting at the opening quote.
func (p *parser) str(path string) (string, error) {
	p.i++ // '"'
	start := p.i
	plain := true
	for ; p.i < len(p.text); p.i++ {
		c := p.text[p.i]
		switch {
		case c == '"':
			if plain {
				s := string(p.text[start:p.i])
				p.i++
				return s, nil
			}
			s := unquote(p.text[start:p.i])
			p.i++
			return s, nil
		case c < 0x20:
			return "", p.invalid(c, "in string literal", path)
		case c == '\\':
			plain = false
			p.i++
			if p.i >= len(p.text) {
				return "", p.eof(path)
			}
			switch p.text[p.i] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
			case 'u':
				for k := 0; k < 4; k++ {
					p.i++
					if p.i >= len(p.text) {
						return "", p.eof(path)
					}
					if !isHex(p.text[p.i]) {
						return "", p.invalid(p.text[p.i], "in \\u hexadecimal character escape", path)
					}
				}
			default:
				return "", p.invalid(p.text[p.i], "in string escape code", path)
			}
		case c >= utf8.RuneSelf:
			plain = false
		}
	}
	return "", p.eof(path)
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// unquote decodes the body of a string literal whose escapes str checked.
func unquote(s []byte) string {
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '\\':
			i++
			switch s[i] {
			case 'b':
				b = append(b, '\b')
			case 'f':
				b = append(b, '\f')
			case 'n':
				b = append(b, '\n')
			case 'r':
				b = append(b, '\r')
			case 't':
				b = append(b, '\t')
			case 'u':
				r := hex4(s[i+1:])
				i += 4
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if i+6 < len(s) && s[i+1] == '\\' && s[i+2] == 'u' {
						r2 = hex4(s[i+3:])
					}
					if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
						i += 6
						r = dec
					} else {
						r = utf8.RuneError
					}
				}
				b = utf8.AppendRune(b, r)
			default: // '"', '\\', '/'
				b = append(b, s[i])
			}
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, size := utf8.DecodeRune(s[i:])
			b = utf8.AppendRune(b, r) // RuneError for invalid UTF-8
			i += size
		}
	}
	return string(b)
}

func hex4(s []byte) rune {
	var r rune
	for _, c := range s[:4] {
		switch {
		case c >= '0' && c <= '9':
			c -= '0'
		case c >= 'a' && c <= 'f':
			c = c - 'a' + 10
		default:
			c = c - 'A' + 10
		}
		r = r*16 + rune(c)
	}
	return r
}

// quoteChar formats c as encoding/json does in its messages.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}
