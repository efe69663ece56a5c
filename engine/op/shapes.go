package op

import (
	"errors"
	"fmt"

	"tapelab/engine/tensor"
)

// sameShape is the shape rule of elementwise ops: all operands alike.
func sameShape(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
	for _, s := range in[1:] {
		if !s.Equal(in[0]) {
			return dst, errors.New("operand shapes differ")
		}
	}
	return append(dst[:0], in[0]...), nil
}

// scalarOut is the shape rule of full reductions: any shape to [].
func scalarOut(dst tensor.Shape, _ []tensor.Shape, _ Attrs) (tensor.Shape, error) {
	return dst[:0], nil
}

// sameShapeScalar is the shape rule of losses over two alike operands.
func sameShapeScalar(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
	if _, err := sameShape(dst, in, a); err != nil {
		return dst, err
	}
	return dst[:0], nil
}

// rank2 reports an error unless s is a matrix.
func rank2(name string, s tensor.Shape) error {
	if len(s) != 2 {
		return fmt.Errorf("%s must be a matrix, has shape %v", name, s)
	}
	return nil
}
