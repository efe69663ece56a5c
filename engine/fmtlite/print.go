package fmtlite

import (
	"strconv"
	"unicode/utf8"
)

// printer accumulates one call's output.
type printer struct {
	buf     []byte
	wrap    bool  // Errorf: %w is allowed
	wrapped []int // Errorf: the argument numbers of the %w operands

	panicking bool // writing the value a String or Error method panicked with
}

// printf writes format with its directives replaced by the operands a.
func (p *printer) printf(format string, a []any) {
	argNum := 0
	for i := 0; i < len(format); {
		lit := i
		for i < len(format) && format[i] != '%' {
			i++
		}
		p.buf = append(p.buf, format[lit:i]...)
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
			p.buf = append(p.buf, "%!(NOVERB)"...)
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		switch {
		case verb == '%':
			p.buf = append(p.buf, '%')
		case argNum >= len(a):
			p.buf = append(p.buf, "%!"...)
			p.buf = utf8.AppendRune(p.buf, verb)
			p.buf = append(p.buf, "(MISSING)"...)
		case !supported || prec >= 0 && !isFloat(a[argNum]):
			p.buf = append(p.buf, "%!"...)
			p.buf = append(p.buf, format[start+1:i]...)
			p.buf = append(p.buf, "(unsupported)"...)
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
		p.buf = append(p.buf, "%!(EXTRA "...)
		for i, arg := range a[argNum:] {
			if i > 0 {
				p.buf = append(p.buf, ", "...)
			}
			p.typed(arg)
		}
		p.buf = append(p.buf, ')')
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

// typed writes TYPE=value, or <nil>, as fmt's error notes do.
func (p *printer) typed(a any) {
	if a == nil {
		p.buf = append(p.buf, "<nil>"...)
		return
	}
	p.buf = append(p.buf, typeName(a)...)
	p.buf = append(p.buf, '=')
	p.arg(a, 'v', -1)
}

// bad writes the note for a verb that does not suit the operand a, which
// has a supported type: every supported type has %v.
func (p *printer) bad(a any, verb rune) {
	p.buf = append(p.buf, "%!"...)
	p.buf = utf8.AppendRune(p.buf, verb)
	p.buf = append(p.buf, '(')
	p.typed(a)
	p.buf = append(p.buf, ')')
}

// arg writes one operand for verb; prec is the precision, or -1.
func (p *printer) arg(a any, verb rune, prec int) {
	if verb == 'T' {
		p.buf = append(p.buf, typeName(a)...)
		return
	}
	if a == nil {
		if verb == 'v' {
			p.buf = append(p.buf, "<nil>"...)
		} else {
			p.bad(nil, verb)
		}
		return
	}
	switch x := a.(type) {
	case bool:
		if verb != 'v' && verb != 't' {
			p.bad(a, verb)
			return
		}
		p.buf = strconv.AppendBool(p.buf, x)
	case int:
		p.integer(a, int64(x), true, verb)
	case int8:
		p.integer(a, int64(x), true, verb)
	case int16:
		p.integer(a, int64(x), true, verb)
	case int32:
		p.integer(a, int64(x), true, verb)
	case int64:
		p.integer(a, x, true, verb)
	case uint:
		p.integer(a, int64(x), false, verb)
	case uint8:
		p.integer(a, int64(x), false, verb)
	case uint16:
		p.integer(a, int64(x), false, verb)
	case uint32:
		p.integer(a, int64(x), false, verb)
	case uint64:
		p.integer(a, int64(x), false, verb)
	case float64:
		p.float(x, verb, prec)
	case string:
		p.str(a, x, verb)
	case []byte:
		if verb == 's' {
			p.buf = append(p.buf, x...)
			return
		}
		p.list(a, verb, len(x), func(i int) { p.buf = strconv.AppendUint(p.buf, uint64(x[i]), 10) })
	case []int:
		p.list(a, verb, len(x), func(i int) { p.buf = strconv.AppendInt(p.buf, int64(x[i]), 10) })
	case []float64:
		p.list(a, verb, len(x), func(i int) { p.float(x[i], 'v', -1) })
	case []string:
		p.list(a, verb, len(x), func(i int) { p.buf = append(p.buf, x[i]...) })
	case error:
		p.method(a, verb, "Error method: ", x.Error)
	case Stringer:
		p.method(a, verb, "String method: ", x.String)
	default:
		p.buf = append(p.buf, "%!"...)
		p.buf = utf8.AppendRune(p.buf, verb)
		p.buf = append(p.buf, '(')
		p.buf = append(p.buf, typeName(a)...)
		p.buf = append(p.buf, ')')
	}
}

// integer writes an integer operand a with value v; an unsigned value
// is held in v's bits.
func (p *printer) integer(a any, v int64, signed bool, verb rune) {
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
		return
	case 'U':
		p.buf = append(p.buf, "U+"...)
		start := len(p.buf)
		p.buf = strconv.AppendUint(p.buf, uint64(v), 16)
		for len(p.buf)-start < 4 {
			p.buf = append(p.buf[:start+1], p.buf[start:]...)
			p.buf[start] = '0'
		}
		upper(p.buf[start:])
		return
	default:
		p.bad(a, verb)
		return
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
}

// upper turns the hexadecimal digits a-f in b into A-F.
func upper(b []byte) {
	for i, c := range b {
		if 'a' <= c && c <= 'f' {
			b[i] = c - 'a' + 'A'
		}
	}
}

// float writes x for %v, %g, %e or %f with precision prec (-1: none).
func (p *printer) float(x float64, verb rune, prec int) {
	switch verb {
	case 'v':
		verb = 'g'
	case 'g':
	case 'e', 'f':
		if prec < 0 {
			prec = 6
		}
	default:
		p.bad(x, verb)
		return
	}
	p.buf = strconv.AppendFloat(p.buf, x, byte(verb), prec, 64)
}

// str writes the string operand a with value s.
func (p *printer) str(a any, s string, verb rune) {
	switch verb {
	case 'v', 's':
		p.buf = append(p.buf, s...)
	case 'q':
		p.buf = strconv.AppendQuote(p.buf, s)
	default:
		p.bad(a, verb)
	}
}

// list writes a slice operand a of n elements as [e0 e1 …].
func (p *printer) list(a any, verb rune, n int, elem func(i int)) {
	if verb != 'v' {
		p.bad(a, verb)
		return
	}
	p.buf = append(p.buf, '[')
	for i := range n {
		if i > 0 {
			p.buf = append(p.buf, ' ')
		}
		elem(i)
	}
	p.buf = append(p.buf, ']')
}

// method writes the text of an operand's Error or String method. Like
// fmt, it writes a panic in the method as %!v(PANIC=String method: …).
func (p *printer) method(a any, verb rune, name string, text func() string) {
	if p.panicking {
		p.buf = append(p.buf, typeName(a)...)
		return
	}
	s, panicked := call(text)
	switch {
	case panicked != nil:
		p.buf = append(p.buf, "%!"...)
		p.buf = utf8.AppendRune(p.buf, verb)
		p.buf = append(p.buf, "(PANIC="...)
		p.buf = append(p.buf, name...)
		p.panicking = true
		p.arg(panicked, 'v', -1)
		p.panicking = false
		p.buf = append(p.buf, ')')
	case verb == 'v' || verb == 's' || verb == 'w' && p.wrap:
		p.buf = append(p.buf, s...)
	case verb == 'q':
		p.buf = strconv.AppendQuote(p.buf, s)
	default:
		p.buf = append(p.buf, "%!"...)
		p.buf = utf8.AppendRune(p.buf, verb)
		p.buf = append(p.buf, '(')
		p.buf = append(p.buf, typeName(a)...)
		p.buf = append(p.buf, '=')
		p.buf = append(p.buf, s...)
		p.buf = append(p.buf, ')')
	}
}
