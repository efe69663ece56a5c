package fmtlite

import (
	"strconv"
	"unicode/utf8"
)

// printer accumulates one call's output.
type printer struct {
	buf     []byte
	wrap    bool  // Errorf: %w is allowed
	wrapped []int // Errorf: the argument numbers of the %w operands, ascending

	panicking bool // writing the value a String or Error method panicked with
}

func (p *printer) write(s string) { p.buf = append(p.buf, s...) }

func (p *printer) writeRune(r rune) { p.buf = utf8.AppendRune(p.buf, r) }

// printf writes format with its directives replaced by the operands a.
func (p *printer) printf(format string, a []any) {
	argNum := 0
	for i := 0; i < len(format); {
		lit := i
		for i < len(format) && format[i] != '%' {
			i++
		}
		p.write(format[lit:i])
		if i >= len(format) {
			break
		}
		start := i // the '%'
		i++
		prec := -1
		supported := true
		for i < len(format) && isFlag(format[i]) {
			supported = false
			i++
		}
		if supported && i < len(format) && format[i] == '.' {
			i++
			prec = 0
			for i < len(format) && '0' <= format[i] && format[i] <= '9' {
				prec = prec*10 + int(format[i]-'0')
				i++
			}
		}
		if i >= len(format) {
			p.write("%!(NOVERB)")
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		switch {
		case verb == '%':
			p.write("%")
		case argNum >= len(a):
			p.write("%!")
			p.writeRune(verb)
			p.write("(MISSING)")
		case !supported || prec >= 0 && !isFloat(a[argNum]):
			p.write("%!")
			p.write(format[start+1 : i])
			p.write("(unsupported)")
			argNum++
		default:
			if verb == 'w' && p.wrap {
				p.wrapped = append(p.wrapped, argNum)
			}
			p.arg(a[argNum], verb, prec)
			argNum++
		}
	}
	if argNum < len(a) {
		p.write("%!(EXTRA ")
		for i, arg := range a[argNum:] {
			if i > 0 {
				p.write(", ")
			}
			p.typed(arg, true)
		}
		p.write(")")
	}
}

// isFlag reports whether c is a flag, a width digit or part of an
// argument index: the directives fmtlite does not support.
func isFlag(c byte) bool {
	switch c {
	case '+', '-', '#', ' ', '0', '1', '2', '3', '4', '5', '6', '7', '8', '9', '*', '[', ']':
		return true
	}
	return false
}

func isFloat(a any) bool {
	_, ok := a.(float64)
	return ok
}

// typed writes a's type and, with value, "=" and a as %v writes it; or
// <nil>: the inside of fmt's error notes.
func (p *printer) typed(a any, value bool) {
	if a == nil {
		p.write("<nil>")
		return
	}
	p.write(typeName(a))
	if value {
		p.write("=")
		p.arg(a, 'v', -1)
	}
}

// bad writes %!verb(TYPE=value) for a verb that does not suit the operand
// a, or %!verb(TYPE) when fmtlite cannot write a at all.
func (p *printer) bad(a any, verb rune, value bool) {
	p.write("%!")
	p.writeRune(verb)
	p.write("(")
	p.typed(a, value)
	p.write(")")
}

// arg writes one operand for verb; prec is the precision, or -1.
func (p *printer) arg(a any, verb rune, prec int) {
	if verb == 'T' {
		p.write(typeName(a))
		return
	}
	if a == nil {
		if verb == 'v' {
			p.write("<nil>")
		} else {
			p.bad(nil, verb, false)
		}
		return
	}
	ok := true
	switch x := a.(type) {
	case bool:
		ok = verb == 'v' || verb == 't'
		if ok {
			p.buf = strconv.AppendBool(p.buf, x)
		}
	case int:
		ok = p.integer(int64(x), true, verb)
	case int8:
		ok = p.integer(int64(x), true, verb)
	case int16:
		ok = p.integer(int64(x), true, verb)
	case int32:
		ok = p.integer(int64(x), true, verb)
	case int64:
		ok = p.integer(x, true, verb)
	case uint:
		ok = p.integer(int64(x), false, verb)
	case uint8:
		ok = p.integer(int64(x), false, verb)
	case uint16:
		ok = p.integer(int64(x), false, verb)
	case uint32:
		ok = p.integer(int64(x), false, verb)
	case uint64:
		ok = p.integer(int64(x), false, verb)
	case float64:
		ok = p.float(x, verb, prec)
	case string:
		ok = p.str(x, verb)
	case []byte:
		if verb == 's' {
			p.buf = append(p.buf, x...)
			break
		}
		if ok = verb == 'v'; ok {
			p.write("[")
			for i, b := range x {
				p.sep(i)
				p.integer(int64(b), false, 'd')
			}
			p.write("]")
		}
	case []int:
		if ok = verb == 'v'; ok {
			p.write("[")
			for i, v := range x {
				p.sep(i)
				p.integer(int64(v), true, 'd')
			}
			p.write("]")
		}
	case []float64:
		if ok = verb == 'v'; ok {
			p.write("[")
			for i, v := range x {
				p.sep(i)
				p.float(v, 'v', -1)
			}
			p.write("]")
		}
	case []string:
		if ok = verb == 'v'; ok {
			p.write("[")
			for i, v := range x {
				p.sep(i)
				p.write(v)
			}
			p.write("]")
		}
	case error:
		ok = p.method(verb, "Error method: ", x.Error)
	case Stringer:
		ok = p.method(verb, "String method: ", x.String)
	default:
		p.bad(a, verb, false)
		return
	}
	if !ok {
		p.bad(a, verb, true)
	}
}

// sep writes the space before a slice's element i > 0.
func (p *printer) sep(i int) {
	if i > 0 {
		p.write(" ")
	}
}

// integer writes an integer for verb and reports whether verb suits it;
// an unsigned value is held in v's bits.
func (p *printer) integer(v int64, signed bool, verb rune) bool {
	base := 10
	switch verb {
	case 'v', 'd':
	case 'x', 'X':
		base = 16
	case 'q':
		r := utf8.RuneError
		if uint64(v) <= utf8.MaxRune {
			r = rune(v)
		}
		p.buf = strconv.AppendQuoteRune(p.buf, r)
		return true
	case 'U':
		p.write("U+")
		hex := strconv.FormatUint(uint64(v), 16)
		for i := len(hex); i < 4; i++ {
			p.write("0")
		}
		p.write(hex)
		upper(p.buf[len(p.buf)-len(hex):])
		return true
	default:
		return false
	}
	start := len(p.buf)
	if signed {
		p.buf = strconv.AppendInt(p.buf, v, base)
	} else {
		p.buf = strconv.AppendUint(p.buf, uint64(v), base)
	}
	if verb == 'X' {
		upper(p.buf[start:])
	}
	return true
}

// upper turns the hexadecimal digits a-f in b into A-F.
func upper(b []byte) {
	for i, c := range b {
		if 'a' <= c && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
}

// float writes x for %v, %g, %e or %f with precision prec (-1: none) and
// reports whether verb suits it.
func (p *printer) float(x float64, verb rune, prec int) bool {
	switch verb {
	case 'v':
		verb = 'g'
	case 'g':
	case 'e', 'f':
		if prec < 0 {
			prec = 6
		}
	default:
		return false
	}
	p.buf = strconv.AppendFloat(p.buf, x, byte(verb), prec, 64)
	return true
}

// str writes s for verb and reports whether verb suits it.
func (p *printer) str(s string, verb rune) bool {
	switch verb {
	case 'v', 's':
		p.write(s)
	case 'q':
		p.buf = strconv.AppendQuote(p.buf, s)
	default:
		return false
	}
	return true
}

// method writes the text of an operand's Error or String method for verb
// and reports whether verb suits it. Like fmt, it writes a panic in the
// method as %!v(PANIC=String method: value).
func (p *printer) method(verb rune, name string, text func() string) bool {
	if verb != 'v' && verb != 's' && verb != 'q' && (verb != 'w' || !p.wrap) {
		return false
	}
	s, panicked := call(text)
	switch {
	case panicked != nil && p.panicking:
		p.write("?") // the value a method panicked with panicked too
	case panicked != nil:
		p.write("%!")
		p.writeRune(verb)
		p.write("(PANIC=")
		p.write(name)
		p.panicking = true
		p.arg(panicked, 'v', -1)
		p.panicking = false
		p.write(")")
	case verb == 'q':
		p.buf = strconv.AppendQuote(p.buf, s)
	default:
		p.write(s)
	}
	return true
}
