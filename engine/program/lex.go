package program

import (
	"strconv"
	"unicode"
)

// tokKind is the kind of a token.
type tokKind uint8

const (
	tokEOF     tokKind = iota
	tokNewline         // the end of a statement
	tokName            // an identifier
	tokNumber          // a number literal (unsigned)
	tokPunct           // an operator or bracket: + - * / @ ** = ( ) [ ] ,
)

type token struct {
	kind tokKind
	text string
	num  float64 // tokNumber's value
	pos  Pos
}

// describe names a token in error messages.
func (t token) describe() string {
	switch t.kind {
	case tokEOF:
		return "the end of the program"
	case tokNewline:
		return "the end of the line"
	case tokName:
		return "name " + t.text
	case tokNumber:
		return "number " + t.text
	}
	return "'" + t.text + "'"
}

// lex splits src into tokens. Comments (# to the end of the line) and
// blank lines disappear; a line break inside parentheses or brackets
// continues the statement, as in Python.
func lex(src string) ([]token, error) {
	rs := []rune(src)
	var toks []token
	line, col := 1, 1
	depth := 0
	i := 0
	advance := func(n int) {
		i += n
		col += n
	}
	for i < len(rs) {
		r := rs[i]
		p := Pos{line, col}
		switch {
		case r == '\n':
			if depth == 0 && len(toks) > 0 && toks[len(toks)-1].kind != tokNewline {
				toks = append(toks, token{kind: tokNewline, text: "\n", pos: p})
			}
			i++
			line, col = line+1, 1
		case r == ' ' || r == '\t' || r == '\r':
			advance(1)
		case r == '#':
			for i < len(rs) && rs[i] != '\n' {
				advance(1)
			}
		case r == '_' || unicode.IsLetter(r):
			j := i
			for j < len(rs) && (rs[j] == '_' || unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j])) {
				j++
			}
			toks = append(toks, token{kind: tokName, text: string(rs[i:j]), pos: p})
			advance(j - i)
		case isDigit(r) || r == '.' && i+1 < len(rs) && isDigit(rs[i+1]):
			j := scanNumber(rs, i)
			text := string(rs[i:j])
			v, err := strconv.ParseFloat(text, 64)
			if err != nil {
				return nil, errorf(p, "number %s is out of range", text)
			}
			toks = append(toks, token{kind: tokNumber, text: text, num: v, pos: p})
			advance(j - i)
		case r == '*' && i+1 < len(rs) && rs[i+1] == '*':
			toks = append(toks, token{kind: tokPunct, text: "**", pos: p})
			advance(2)
		case r == '(' || r == '[':
			depth++
			toks = append(toks, token{kind: tokPunct, text: string(r), pos: p})
			advance(1)
		case r == ')' || r == ']':
			if depth > 0 {
				depth--
			}
			toks = append(toks, token{kind: tokPunct, text: string(r), pos: p})
			advance(1)
		case r == '+' || r == '-' || r == '*' || r == '/' || r == '@' || r == '=' || r == ',':
			toks = append(toks, token{kind: tokPunct, text: string(r), pos: p})
			advance(1)
		default:
			return nil, errorf(p, "unexpected character %q", r)
		}
	}
	if depth == 0 && len(toks) > 0 && toks[len(toks)-1].kind != tokNewline {
		toks = append(toks, token{kind: tokNewline, text: "\n", pos: Pos{line, col}})
	}
	toks = append(toks, token{kind: tokEOF, pos: Pos{line, col}})
	return toks, nil
}

func isDigit(r rune) bool { return r >= '0' && r <= '9' }

// scanNumber returns the end of the number literal starting at i:
// digits, an optional fraction and an optional exponent.
func scanNumber(rs []rune, i int) int {
	digits := func() {
		for i < len(rs) && isDigit(rs[i]) {
			i++
		}
	}
	digits()
	if i < len(rs) && rs[i] == '.' {
		i++
		digits()
	}
	if i < len(rs) && (rs[i] == 'e' || rs[i] == 'E') {
		j := i + 1
		if j < len(rs) && (rs[j] == '+' || rs[j] == '-') {
			j++
		}
		if j < len(rs) && isDigit(rs[j]) {
			i = j
			digits()
		}
	}
	return i
}
