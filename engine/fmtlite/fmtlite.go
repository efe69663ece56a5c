// Package fmtlite formats text as package fmt does, for the subset of
// verbs and operand types the engine and the playground use, without
// reflection: the playground's wasm links neither fmt nor reflect.
//
// Sprintf, Sprint, Errorf, Fprintf and Fprintln take the same arguments as
// fmt's functions of those names and, for what they support, write the
// same bytes. Errorf's %w wraps its operand as fmt.Errorf does, for
// errors.Is and errors.As.
//
// A directive is % followed by an optional precision (".N", honoured for
// floating-point operands) and a verb; %% writes a percent sign. The
// supported operands and verbs are:
//
//	bool                                 %v %t
//	int, int8 … int64, uint, uint8 … uint64 (so rune and byte)
//	                                     %v %d %x %X %q %U
//	float64                              %v %g %e %f, with a precision
//	string                               %v %s %q
//	[]byte                               %s %v
//	[]int, []float64, []string           %v (as fmt's %v writes them)
//	error (Error()), Stringer (String())  %v %s %q, and %w in Errorf
//	any operand                          %T (its dynamic type's name)
//
// Errors are written as fmt writes them: a missing operand as
// %!d(MISSING), operands left over as %!(EXTRA int=3), a nil operand as
// <nil> for %v and %!d(<nil>) for other verbs, and a verb that does not
// suit a basic operand as %!d(string=hi). Where fmt would need reflection
// or writes something else (%x of a string is its bytes in hexadecimal)
// the output says what is unsupported instead:
//
//   - an operand of another type (a named integer or string type without
//     a String method, a struct, a map, …) is written %!v(TYPE);
//   - a directive with flags, a width or an argument index ("%5d",
//     "%-s", "%[1]d"), or a precision on an operand that is not a float,
//     is written %!5d(unsupported) and uses up its operand;
//   - a verb not listed above is written %!x(TYPE=value), with the
//     value as %v writes it (an error's or a Stringer's method's text);
//   - a String or Error method that panics is written
//     %!v(PANIC=String method: value), also when fmt would write <nil>
//     for a nil pointer receiver; if writing that value panics too (where
//     fmt panics), the value is written ?.
//
// None of these panics. This package's tests type-check every call in the
// packages the playground links, so none of these cases is reached there.
package fmtlite

import (
	"errors"
	"io"
)

// Stringer is implemented by any value with a String method, which %v, %s
// and %q write (as fmt.Stringer).
type Stringer interface {
	String() string
}

// Sprintf formats according to a format specifier and returns the
// resulting string.
func Sprintf(format string, a ...any) string {
	var p printer
	p.printf(format, a)
	return string(p.buf)
}

// Sprint formats its operands as %v does and returns the resulting string.
// Spaces are added between operands when neither is a string.
func Sprint(a ...any) string {
	var p printer
	for i, arg := range a {
		_, isString := arg.(string)
		if i > 0 && !isString {
			if _, prevString := a[i-1].(string); !prevString {
				p.buf = append(p.buf, ' ')
			}
		}
		p.arg(arg, 'v', -1)
	}
	return string(p.buf)
}

// Fprintf formats according to a format specifier and writes to w. It
// returns the number of bytes written and any write error encountered.
func Fprintf(w io.Writer, format string, a ...any) (n int, err error) {
	var p printer
	p.printf(format, a)
	return w.Write(p.buf)
}

// Fprintln formats its operands as %v does and writes them to w, spaces
// always added between operands and a newline appended. It returns the
// number of bytes written and any write error encountered.
func Fprintln(w io.Writer, a ...any) (n int, err error) {
	var p printer
	for i, arg := range a {
		if i > 0 {
			p.buf = append(p.buf, ' ')
		}
		p.arg(arg, 'v', -1)
	}
	p.buf = append(p.buf, '\n')
	return w.Write(p.buf)
}

// Errorf formats according to a format specifier and returns the string
// as an error. If the format has a %w verb with an error operand, the
// error has an Unwrap method returning that operand; with more than one
// %w, an Unwrap method returning the []error of the operands in argument
// order. A %w whose operand is not an error is written as fmt writes it.
func Errorf(format string, a ...any) error {
	p := printer{wrap: true}
	p.printf(format, a)
	s := string(p.buf)
	switch len(p.wrapped) {
	case 0:
		return errors.New(s)
	case 1:
		w := &wrapError{msg: s}
		w.err, _ = a[p.wrapped[0]].(error)
		return w
	default:
		var errs []error
		for _, n := range p.wrapped {
			if e, ok := a[n].(error); ok {
				errs = append(errs, e)
			}
		}
		return &wrapErrors{s, errs}
	}
}

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }
