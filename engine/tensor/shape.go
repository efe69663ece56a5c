// Package tensor provides shapes, dense float64 row-major tensors, the
// precision a run stores its numbers in (float64, or float32 storage) and
// the kernels the op catalogue is built from.
//
// Shape.Equal, Shape.Clone, Tensor.Clone, Reshape, CopyFrom and Fill are
// marked //go:noinline. Each allocates, copies or loops, so a call costs
// nothing next to its work; inlined at their 240 call sites across the
// engine they made the playground's wasm about 11 KB (brotli) longer
// (bench/README.md).
package tensor

import (
	"strconv"
	"strings"
)

// Shape is a list of dimensions, outermost first. A scalar has the empty
// shape []; a row vector of n numbers is [n].
type Shape []int

// Size reports the number of elements a tensor of shape s holds (1 for a scalar).
func (s Shape) Size() int {
	n := 1
	for _, d := range s {
		n *= d
	}
	return n
}

// Rank reports the number of dimensions.
func (s Shape) Rank() int { return len(s) }

// Equal reports whether s and t have the same dimensions.
//
//go:noinline
func (s Shape) Equal(t Shape) bool {
	if len(s) != len(t) {
		return false
	}
	for i := range s {
		if s[i] != t[i] {
			return false
		}
	}
	return true
}

// Clone returns a copy of s that shares no memory with it.
//
//go:noinline
func (s Shape) Clone() Shape {
	if s == nil {
		return Shape{}
	}
	return append(Shape{}, s...)
}

// Valid reports whether every dimension is at least 1.
func (s Shape) Valid() bool {
	for _, d := range s {
		if d < 1 {
			return false
		}
	}
	return true
}

// String formats s as [d0 d1 ...]; a scalar prints as [].
func (s Shape) String() string {
	var b strings.Builder
	b.WriteByte('[')
	for i, d := range s {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(strconv.Itoa(d))
	}
	b.WriteByte(']')
	return b.String()
}
