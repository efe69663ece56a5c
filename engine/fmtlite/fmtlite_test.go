package fmtlite_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"

	"tapelab/engine/fmtlite"
)

// kind is one operand type fmtlite supports, with the verbs it supports
// for it and values to try; precision says whether ".N" applies.
type kind struct {
	name      string
	verbs     string
	precision bool
	values    []any
}

type stringer struct{ s string }

func (s stringer) String() string { return s.s }

type named int

func (n named) String() string { return "named " + fmt.Sprint(int(n)) }

type panicky struct{}

func (panicky) String() string { panic("boom") }

// generic is a generic type, whose name %T writes with its type argument.
type generic[T any] []T

// panicsWith is a Stringer whose String panics with its value.
type panicsWith struct{ v any }

func (p panicsWith) String() string { panic(p.v) }

var floats = []any{0.0, math.Copysign(0, -1), 1.0, -2.5, 0.1, 1.0 / 3, 123456789.0, 1e6, 1e21, 1e-5, 1e-7,
	math.MaxFloat64, math.SmallestNonzeroFloat64, math.Inf(1), math.Inf(-1), math.NaN(), 0.5, 2.5, 1.005}

// kinds lists every operand type and verb fmtlite supports.
var kinds = []kind{
	{"bool", "vt", false, []any{true, false}},
	{"int", "vdxXqU", false, []any{0, 1, -1, 42, -255, math.MaxInt64, math.MinInt64}},
	{"int8", "vdxXqU", false, []any{int8(-128), int8(127)}},
	{"int16", "vdxXqU", false, []any{int16(-300)}},
	{"int32", "vdxXqU", false, []any{'é', rune(0x1F600), int32(-1), '\'', '\n', rune(0xD800), rune(0x110000)}},
	{"int64", "vdxXqU", false, []any{int64(-7), int64(math.MinInt64)}},
	{"uint", "vdxXqU", false, []any{uint(0), uint(math.MaxUint)}},
	{"uint8", "vdxXqU", false, []any{byte(0), byte(255)}},
	{"uint16", "vdxXqU", false, []any{uint16(65535)}},
	{"uint32", "vdxXqU", false, []any{uint32(1 << 31)}},
	{"uint64", "vdxXqU", false, []any{uint64(math.MaxUint64), uint64(10)}},
	{"float64", "vgef", true, floats},
	{"string", "vsq", false, []any{"", "a", "hello, world", "tab\there", `quote"back\`, "é ✓", "\x00\xff", "%d"}},
	{"[]uint8", "sv", false, []any{[]byte(nil), []byte("bytes"), []byte{0xff}}},
	{"[]int", "v", false, []any{[]int(nil), []int{}, []int{1}, []int{2, -3, 4}}},
	{"[]float64", "v", false, []any{[]float64(nil), []float64{1.5, math.Copysign(0, -1), math.Inf(1), math.NaN(), 1e-7, 1e21}}},
	{"[]string", "v", false, []any{[]string(nil), []string{"a", "b c", ""}}},
	{"error", "vsq", false, []any{errors.New("boom"), fmt.Errorf("wrapped: %w", fs.ErrNotExist), error(&fs.PathError{Op: "open", Path: "x", Err: fs.ErrExist})}},
	{"Stringer", "vsq", false, []any{stringer{"str\"ing"}, named(3), &strings.Builder{}}},
}

// TestSprintfMatchesFmt compares every supported verb × operand type, with
// and without a precision where one applies, with text around it.
func TestSprintfMatchesFmt(t *testing.T) {
	for _, k := range kinds {
		for _, verb := range k.verbs {
			formats := []string{"%" + string(verb), "<%" + string(verb) + ">"}
			if k.precision {
				for _, p := range []string{".0", ".1", ".2", ".6", ".17", "."} {
					formats = append(formats, "%"+p+string(verb))
				}
			}
			for _, f := range formats {
				for _, v := range k.values {
					want := fmt.Sprintf(f, v)
					if got := fmtlite.Sprintf(f, v); got != want {
						t.Errorf("%s: Sprintf(%q, %#v) = %q, fmt writes %q", k.name, f, v, got, want)
					}
				}
			}
		}
	}
}

// TestTypeMatchesFmt compares %T with fmt's for operands of many kinds of
// type, including the ones fmtlite cannot otherwise write.
func TestTypeMatchesFmt(t *testing.T) {
	var nilBuf *bytes.Buffer
	values := []any{nil, 1, "s", 2.5, []int{1}, map[string][]int{}, &bytes.Buffer{}, nilBuf, struct{ X int }{},
		func(int) error { return nil }, make(chan<- int), [3]int{}, named(1), stringer{}, generic[int]{},
		generic[map[string]stringer]{}, errors.New("x"), fs.ErrNotExist, &fs.PathError{}, panicky{}, t}
	for _, v := range values {
		for _, f := range []string{"%T", "[%T]"} {
			if got, want := fmtlite.Sprintf(f, v), fmt.Sprintf(f, v); got != want {
				t.Errorf("Sprintf(%q, %#v) = %q, fmt writes %q", f, v, got, want)
			}
		}
	}
}

// TestMatchesFmtErrors covers what fmt writes for wrong calls that
// fmtlite writes the same way.
func TestMatchesFmtErrors(t *testing.T) {
	tests := []struct {
		format string
		args   []any
	}{
		{"%d %s", []any{1}},
		{"%d", nil},
		{"x", []any{1, "a", nil, 2.5}},
		{"%d", []any{1, []int{2}}},
		{"trailing %", []any{}},
		{"trailing %", []any{1}},
		{"%.2", []any{1.5}},
		{"100%% %d%%", []any{7}},
		{"%5%", nil},
		{"%s", []any{3}},
		{"%d", []any{"x"}},
		{"%q %t", []any{1.5, 3}},
		{"%s", []any{true}},
		{"%v %d", []any{nil, nil}},
		{"%w", []any{"not an error"}},
		{"%é", []any{1}},
		{"%!", []any{1}},
		{"%g", []any{3}},
		{"%v|%s", []any{panicsWith{errors.New("inner")}, panicsWith{3}}},
		{"%q", []any{panicsWith{stringer{"s"}}}},
	}
	for _, tt := range tests {
		want := fmt.Sprintf(tt.format, tt.args...)
		if got := fmtlite.Sprintf(tt.format, tt.args...); got != want {
			t.Errorf("Sprintf(%q, %#v) = %q, fmt writes %q", tt.format, tt.args, got, want)
		}
	}
}

// TestUnsupported pins what fmtlite writes where fmt would use reflection
// or directives fmtlite does not parse: never a panic, and never silently
// the wrong value.
func TestUnsupported(t *testing.T) {
	type point struct{ X, Y int }
	type size int
	tests := []struct {
		format string
		args   []any
		want   string
	}{
		{"%v", []any{point{1, 2}}, "%!v(fmtlite_test.point)"},
		{"%d", []any{size(3)}, "%!d(fmtlite_test.size)"},
		{"%v", []any{map[string]int{"a": 1}}, "%!v(map[string]int)"},
		{"%v", []any{&point{}}, "%!v(*fmtlite_test.point)"},
		{"%v", []any{[2]int{}}, "%!v([2]int)"},
		{"a %5d b", []any{3}, "a %!5d(unsupported) b"},
		{"%-s|%s", []any{"x", "y"}, "%!-s(unsupported)|y"},
		{"%[1]d", []any{3}, "%![1]d(unsupported)"},
		{"%.2s", []any{"abc"}, "%!.2s(unsupported)"},
		{"%.1v", []any{[]float64{1.25}}, "%!.1v(unsupported)"},
		{"%d", []any{named(4)}, "%!d(fmtlite_test.named=named 4)"},
		{"%v", []any{panicky{}}, "%!v(PANIC=String method: boom)"},
		{"%v", []any{panicsWith{panicky{}}}, "%!v(PANIC=String method: ?)"},
		{"%w", []any{errors.New("e")}, "%!w(*errors.errorString=e)"},
		{"%x", []any{[]string{"a"}}, "%!x([]string=[a])"},
		{"%x", []any{"hi"}, "%!x(string=hi)"},
	}
	for _, tt := range tests {
		if got := fmtlite.Sprintf(tt.format, tt.args...); got != tt.want {
			t.Errorf("Sprintf(%q, %#v) = %q, want %q", tt.format, tt.args, got, tt.want)
		}
	}
}

// TestSprintFprintMatchFmt checks Sprint's spacing and Fprintf/Fprintln
// against fmt's.
func TestSprintFprintMatchFmt(t *testing.T) {
	argLists := [][]any{nil, {1}, {1, 2}, {"a", "b"}, {"a", 1, 2, "b", 2.5}, {[]float64{1, 2.5}}, {errors.New("e"), "x"}, {nil, 3}}
	for _, args := range argLists {
		if got, want := fmtlite.Sprint(args...), fmt.Sprint(args...); got != want {
			t.Errorf("Sprint(%#v) = %q, fmt writes %q", args, got, want)
		}
		var got, want bytes.Buffer
		n, err := fmtlite.Fprintln(&got, args...)
		wn, _ := fmt.Fprintln(&want, args...)
		if got.String() != want.String() || n != wn || err != nil {
			t.Errorf("Fprintln(%#v) wrote %q, %d, %v; fmt writes %q, %d", args, got.String(), n, err, want.String(), wn)
		}
	}
	var got, want bytes.Buffer
	fmtlite.Fprintf(&got, "%s=%d; ", "a", 1)
	fmtlite.Fprintf(&got, "%v", []string{"x"})
	fmt.Fprintf(&want, "%s=%d; ", "a", 1)
	fmt.Fprintf(&want, "%v", []string{"x"})
	if got.String() != want.String() {
		t.Errorf("Fprintf wrote %q, fmt writes %q", got.String(), want.String())
	}
}

type codeError struct{ code int }

func (e *codeError) Error() string { return "code " + fmt.Sprint(e.code) }

// TestErrorf checks Errorf's text and its wrapping against fmt.Errorf's.
func TestErrorf(t *testing.T) {
	base := &codeError{7}
	other := errors.New("other")
	tests := []struct {
		format string
		args   []any
		is     []error // errors.Is holds for each
	}{
		{"plain %d", []any{1}, nil},
		{"wrap: %w", []any{base}, []error{base}},
		{"node %d: %w", []any{3, fmt.Errorf("inner: %w", fs.ErrNotExist)}, []error{fs.ErrNotExist}},
		{"%w and %w", []any{base, other}, []error{base, other}},
		{"%w %w %w", []any{other, base, other}, []error{base, other}},
		{"%w", []any{nil}, nil},
		{"%v not wrapped", []any{base}, nil},
	}
	for _, tt := range tests {
		got, want := fmtlite.Errorf(tt.format, tt.args...), fmt.Errorf(tt.format, tt.args...)
		if got.Error() != want.Error() {
			t.Errorf("Errorf(%q).Error() = %q, fmt writes %q", tt.format, got.Error(), want.Error())
		}
		for _, target := range tt.is {
			if !errors.Is(got, target) {
				t.Errorf("Errorf(%q): errors.Is(_, %v) = false", tt.format, target)
			}
		}
		var ce *codeError
		if gotAs, wantAs := errors.As(got, &ce), errors.As(want, &ce); gotAs != wantAs {
			t.Errorf("Errorf(%q): errors.As(*codeError) = %v, fmt's %v", tt.format, gotAs, wantAs)
		}
		if gotU, wantU := errors.Unwrap(got) != nil, errors.Unwrap(want) != nil; gotU != wantU {
			t.Errorf("Errorf(%q): errors.Unwrap non-nil = %v, fmt's %v", tt.format, gotU, wantU)
		}
		if _, many := got.(interface{ Unwrap() []error }); many != (strings.Count(tt.format, "%w") > 1) {
			t.Errorf("Errorf(%q): Unwrap() []error = %v", tt.format, many)
		}
	}
	if errors.Is(fmtlite.Errorf("%v", base), base) {
		t.Error("Errorf wrapped an operand of a plain verb")
	}
}

// FuzzSprintf builds formats from fuzzed text, directives and operands of
// every supported kind and compares the output with fmt's.
func FuzzSprintf(f *testing.F) {
	f.Add("a%b", int64(-3), uint64(7), 1.5, "s\x00", true, []byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13})
	f.Add("", int64(math.MinInt64), uint64(math.MaxUint64), math.Inf(-1), "é", false, []byte{200, 37, 3, 99})
	f.Fuzz(func(t *testing.T, lit string, i int64, u uint64, x float64, s string, b bool, sel []byte) {
		operands := []any{int(i), i, int32(i), int8(i), uint(u), u, uint8(u), x, s, b, []byte(s),
			[]int{int(i), int(u)}, []float64{x, float64(i)}, []string{s, lit}, errors.New(s), stringer{s}}
		var format strings.Builder
		var args []any
		for n, c := range sel {
			format.WriteString(strings.ReplaceAll(lit[:min(len(lit), n%4)], "%", "%%"))
			a := operands[int(c)%len(operands)]
			k := kindOf(a)
			verb := k.verbs[int(c)/len(operands)%len(k.verbs)]
			format.WriteByte('%')
			if k.precision && c&0x80 != 0 {
				format.WriteString("." + fmt.Sprint(int(c)%20))
			}
			format.WriteByte(verb)
			args = append(args, a)
		}
		want := fmt.Sprintf(format.String(), args...)
		if got := fmtlite.Sprintf(format.String(), args...); got != want {
			t.Errorf("Sprintf(%q, %#v) = %q, fmt writes %q", format.String(), args, got, want)
		}
	})
}

// kindOf returns the kind a belongs to.
func kindOf(a any) kind {
	name := fmt.Sprintf("%T", a)
	switch a.(type) {
	case error:
		name = "error"
	case fmtlite.Stringer:
		name = "Stringer"
	}
	for _, k := range kinds {
		if k.name == name {
			return k
		}
	}
	panic("no kind " + name)
}
