package tensor

import (
	"fmt"
	"math"
)

// Tensor is a dense float64 tensor stored row-major. Data has exactly
// Shape.Size() elements. The zero value is not usable; use New, Zeros or Scalar.
type Tensor struct {
	Shape Shape
	Data  []float64
}

// New returns a tensor of the given shape holding data (not copied). It fails
// when the shape has a dimension below 1 or len(data) does not match.
func New(shape Shape, data []float64) (*Tensor, error) {
	if !shape.Valid() {
		return nil, fmt.Errorf("tensor: invalid shape %v: every dimension must be at least 1", shape)
	}
	if len(data) != shape.Size() {
		return nil, fmt.Errorf("tensor: shape %v needs %d values, got %d", shape, shape.Size(), len(data))
	}
	return &Tensor{Shape: shape.Clone(), Data: data}, nil
}

// Zeros returns a tensor of the given shape filled with +0.0.
// It panics if a dimension is below 1; callers validate shapes first.
func Zeros(shape Shape) *Tensor {
	if !shape.Valid() {
		panic(fmt.Sprintf("tensor.Zeros: invalid shape %v", shape))
	}
	return &Tensor{Shape: shape.Clone(), Data: make([]float64, shape.Size())}
}

// Scalar returns a tensor of shape [] holding v.
func Scalar(v float64) *Tensor { return &Tensor{Shape: Shape{}, Data: []float64{v}} }

// Vector returns a tensor of shape [len(v)] holding v (not copied).
func Vector(v ...float64) *Tensor { return &Tensor{Shape: Shape{len(v)}, Data: v} }

// Matrix returns a tensor of shape [rows cols] holding the rows (copied).
// It panics on ragged rows; decoders check rows before calling it.
func Matrix(rows [][]float64) *Tensor {
	if len(rows) == 0 {
		panic("tensor.Matrix: no rows")
	}
	c := len(rows[0])
	t := Zeros(Shape{len(rows), c})
	for i, r := range rows {
		if len(r) != c {
			panic(fmt.Sprintf("tensor.Matrix: row %d has %d values, row 0 has %d", i, len(r), c))
		}
		copy(t.Data[i*c:], r)
	}
	return t
}

// Clone returns a deep copy of t.
//
//go:noinline
func (t *Tensor) Clone() *Tensor {
	return &Tensor{Shape: t.Shape.Clone(), Data: append([]float64(nil), t.Data...)}
}

// Reshape makes t hold a tensor of the given shape, reusing its storage when
// the capacity suffices. Values are left as they were (not cleared).
//
//go:noinline
func (t *Tensor) Reshape(shape Shape) {
	if !t.Shape.Equal(shape) { // re-recording a step reshapes to the same shape: no copy then
		t.Shape = append(t.Shape[:0], shape...)
	}
	n := shape.Size()
	if cap(t.Data) >= n {
		t.Data = t.Data[:n]
	} else {
		t.Data = make([]float64, n)
	}
}

// CopyFrom makes t an exact copy of u, reusing t's storage when possible.
//
//go:noinline
func (t *Tensor) CopyFrom(u *Tensor) {
	t.Reshape(u.Shape)
	copy(t.Data, u.Data)
}

// Fill sets every element to v.
//
//go:noinline
func (t *Tensor) Fill(v float64) {
	for i := range t.Data {
		t.Data[i] = v
	}
}

// At returns the element at the given multi-index (row-major).
func (t *Tensor) At(idx ...int) float64 {
	off := 0
	for i, j := range idx {
		off = off*t.Shape[i] + j
	}
	return t.Data[off]
}

// Finite reports whether every element is neither NaN nor ±Inf.
func (t *Tensor) Finite() bool {
	for _, v := range t.Data {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return false
		}
	}
	return true
}

// Identical reports whether t and u have equal shapes and bit-identical
// elements, except that any two NaNs count as equal (NaN payloads are not
// preserved by every platform's arithmetic, wasm in particular).
// Unlike ==, it tells -0.0 from +0.0.
func Identical(t, u *Tensor) bool {
	if t == nil || u == nil {
		return t == u
	}
	if !t.Shape.Equal(u.Shape) || len(t.Data) != len(u.Data) {
		return false
	}
	for i, a := range t.Data {
		b := u.Data[i]
		if math.IsNaN(a) && math.IsNaN(b) {
			continue
		}
		if math.Float64bits(a) != math.Float64bits(b) {
			return false
		}
	}
	return true
}

// String formats small tensors in full and larger ones by shape.
func (t *Tensor) String() string {
	if len(t.Data) <= 16 {
		return fmt.Sprintf("%v%v", t.Shape, t.Data)
	}
	return fmt.Sprintf("%v(%d values)", t.Shape, len(t.Data))
}
