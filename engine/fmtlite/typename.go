package fmtlite

import (
	"runtime"
	"strings"
)

// probe is a type no operand has: asserting an operand to it fails, and
// the runtime's error for that names the operand's dynamic type.
type probe struct{}

// The runtime's message for a failed assertion of an any to probe is
// conversionPrefix + the operand's type + conversionSuffix.
const (
	conversionPrefix = "interface conversion: interface {} is "
	conversionSuffix = ", not fmtlite.probe"
)

// typeName returns the name of a's dynamic type as %T writes it, or <nil>.
// Without package reflect the name is read from the error of a failed
// type assertion: the runtime writes the same name reflect.Type.String
// returns (both read the type descriptor's name).
func typeName(a any) (name string) {
	if a == nil {
		return "<nil>"
	}
	defer func() {
		if e, ok := recover().(*runtime.TypeAssertionError); ok {
			msg := e.Error()
			if strings.HasPrefix(msg, conversionPrefix) && strings.HasSuffix(msg, conversionSuffix) {
				name = msg[len(conversionPrefix) : len(msg)-len(conversionSuffix)]
				return
			}
		}
		name = "?"
	}()
	_ = a.(probe)
	return "?"
}

// call returns text's result, or the value it panicked with.
func call(text func() string) (s string, panicked any) {
	defer func() {
		if r := recover(); r != nil {
			panicked = r
		}
	}()
	return text(), nil
}
