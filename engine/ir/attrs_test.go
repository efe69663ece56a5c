package ir

import (
	"reflect"
	"strings"
	"testing"
	"unicode"

	"tapelab/engine/op"
)

// snakeCase returns a Go field name in snake_case ("PadMode" → "pad_mode").
func snakeCase(field string) string {
	var b strings.Builder
	for i, r := range field {
		if unicode.IsUpper(r) {
			if i > 0 {
				b.WriteByte('_')
			}
			r = unicode.ToLower(r)
		}
		b.WriteRune(r)
	}
	return b.String()
}

// TestAttrFieldsListOpAttrs checks attrFields against op.Attrs by
// reflection: every field, in order, keyed by its name in snake_case, with
// exactly one pointer set, of the field's type and at the field.
func TestAttrFieldsListOpAttrs(t *testing.T) {
	var a op.Attrs
	fs := attrFields(&a)
	v := reflect.ValueOf(&a).Elem()
	if len(fs) != v.NumField() {
		t.Fatalf("attrFields lists %d fields, op.Attrs has %d", len(fs), v.NumField())
	}
	for i, f := range fs {
		name := v.Type().Field(i).Name
		if want := snakeCase(name); f.key != want {
			t.Errorf("field %d (%s): key %q, want %q", i, name, f.key, want)
		}
		var ptrs []any
		for _, p := range []any{f.int, f.uint, f.float, f.shape} {
			if !reflect.ValueOf(p).IsNil() {
				ptrs = append(ptrs, p)
			}
		}
		if len(ptrs) != 1 {
			t.Errorf("field %s: %d pointers set, want 1", name, len(ptrs))
			continue
		}
		if got, want := reflect.ValueOf(ptrs[0]), v.Field(i).Addr(); got.Type() != want.Type() || got.Pointer() != want.Pointer() {
			t.Errorf("field %s: pointer is a %v to %#x, want the field (%v at %#x)", name, got.Type(), got.Pointer(), want.Type(), want.Pointer())
		}
	}
}
