package ir

import (
	"math"
	"reflect"
	"testing"

	"tapelab/engine/tensor"
)

// The types of the op.Attrs fields the IR carries.
var (
	intType   = reflect.TypeFor[int]()
	uintType  = reflect.TypeFor[uint64]()
	floatType = reflect.TypeFor[float64]()
	shapeType = reflect.TypeFor[tensor.Shape]()
)

// everyAttr returns attrs with every field set to a distinct non-zero value
// (a float field gets -0.0 first, the hardest to carry, then 0.1, ...).
func everyAttr(t *testing.T) Attrs {
	t.Helper()
	a := Attrs{Input: 3}
	v := reflect.ValueOf(&a.Attrs).Elem()
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		switch f.Type() {
		case intType:
			f.SetInt(int64(-i - 1))
		case uintType:
			f.SetUint(math.MaxUint64 - uint64(i))
		case floatType:
			if i == 1 {
				f.SetFloat(math.Copysign(0, -1))
			} else {
				f.SetFloat(0.1 * float64(i))
			}
		case shapeType:
			f.Set(reflect.ValueOf(tensor.Shape{2, 3}))
		default:
			t.Fatalf("op.Attrs.%s has type %v, which the IR cannot carry", v.Type().Field(i).Name, f.Type())
		}
	}
	return a
}

// sameGraph reports whether a and b are equal, floats compared by their bits.
func sameGraph(a, b *Graph) bool { return sameBits(reflect.ValueOf(a), reflect.ValueOf(b)) }

func sameBits(a, b reflect.Value) bool {
	if a.Type() != b.Type() {
		return false
	}
	switch a.Kind() {
	case reflect.Float64:
		return math.Float64bits(a.Float()) == math.Float64bits(b.Float())
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			return a.IsNil() == b.IsNil()
		}
		return sameBits(a.Elem(), b.Elem())
	case reflect.Slice:
		if a.IsNil() != b.IsNil() || a.Len() != b.Len() {
			return false
		}
		for i := 0; i < a.Len(); i++ {
			if !sameBits(a.Index(i), b.Index(i)) {
				return false
			}
		}
		return true
	case reflect.Map:
		if a.Len() != b.Len() {
			return false
		}
		for _, k := range a.MapKeys() {
			bv := b.MapIndex(k)
			if !bv.IsValid() || !sameBits(a.MapIndex(k), bv) {
				return false
			}
		}
		return true
	case reflect.Struct:
		for i := 0; i < a.NumField(); i++ {
			if !sameBits(a.Field(i), b.Field(i)) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a.Interface(), b.Interface())
}

// TestAttrsCarryEveryOpField checks that Attrs converts to and from op.Attrs
// without loss for every field of op.Attrs, so that an attr added to the
// catalogue reaches the lowered graph.
func TestAttrsCarryEveryOpField(t *testing.T) {
	a := everyAttr(t)
	o := a.Op()
	if !sameBits(reflect.ValueOf(o), reflect.ValueOf(a.Attrs)) {
		t.Fatalf("Op() = %+v, want %+v", o, a.Attrs)
	}
	back := FromOp(o)
	if back.Input != 0 || !sameBits(reflect.ValueOf(back.Attrs), reflect.ValueOf(o)) {
		t.Fatalf("FromOp(%+v) = %+v", o, back)
	}
	o.Shape[0] = 99
	if a.Shape[0] == 99 {
		t.Fatal("Op() shares the shape with the node's attrs")
	}
}
