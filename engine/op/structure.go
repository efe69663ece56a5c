package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

// The structural ops move values without arithmetic: their VJPs move the
// cotangent back, so a zero cotangent always gives zeros.

var reshapeOp = &Op{
	Name:     "reshape",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = reshape(X, shape)",
	Rule:     "dX = reshape(dY, shape of X)",
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if !a.Shape.Valid() {
			return dst, fmt.Errorf("target shape %v has a dimension below 1", a.Shape)
		}
		if a.Shape.Size() != in[0].Size() {
			return dst, fmt.Errorf("cannot reshape %d values into shape %v (%d values)", in[0].Size(), a.Shape, a.Shape.Size())
		}
		return append(dst[:0], a.Shape...), nil
	},
	Forward:  copyForward,
	VJP:      copyVJP,
	JVP:      copyJVP,
	ZeroSafe: Always,
}

var flattenOp = &Op{
	Name:     "flatten",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = X viewed as [B, d1·d2·…]",
	Rule:     "dX = dY viewed as X's shape",
	Infer: func(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
		x := in[0]
		if len(x) < 2 {
			return dst, fmt.Errorf("X must have a batch axis and at least one more, has shape %v", x)
		}
		return append(dst[:0], x[0], x[1:].Size()), nil
	},
	Forward:  copyForward,
	VJP:      copyVJP,
	JVP:      copyJVP,
	ZeroSafe: Always,
}

var transposeOp = &Op{
	Name:     "transpose",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = Xᵀ",
	Rule:     "dX = dYᵀ",
	Infer: func(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
		if err := rank2("X", in[0]); err != nil {
			return dst, err
		}
		return append(dst[:0], in[0][1], in[0][0]), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) { transpose(y, x[0]) },
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		transpose(dx[0], dy)
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
		transpose(dy, dx[0])
	},
	ZeroSafe: Always,
}

var concatOp = &Op{
	Name:     "concat",
	Operands: []Operand{{Name: "X"}},
	Variadic: true,
	Formula:  "Y = [X₁ X₂ …] joined along axis",
	Rule:     "dXᵢ = the slice of dY where Xᵢ sits",
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		first := in[0]
		k, err := normAxis(a.Axis, len(first))
		if err != nil {
			return dst, err
		}
		total := 0
		for i, s := range in {
			if len(s) != len(first) {
				return dst, fmt.Errorf("operand %d has rank %d, operand 0 has rank %d", i, len(s), len(first))
			}
			for d := range s {
				if d != k && s[d] != first[d] {
					return dst, fmt.Errorf("operand %d differs from operand 0 in axis %d (%d vs %d), which is not the concat axis %d", i, d, s[d], first[d], k)
				}
			}
			total += s[k]
		}
		dst = append(dst[:0], first...)
		dst[k] = total
		return dst, nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		outer, n, inner := splitAxis(y.Shape, a.Axis)
		off := 0
		for _, t := range x {
			_, m, _ := splitAxis(t.Shape, a.Axis)
			for o := 0; o < outer; o++ {
				copy(y.Data[(o*n+off)*inner:], t.Data[o*m*inner:(o+1)*m*inner])
			}
			off += m
		}
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		outer, n, inner := splitAxis(dy.Shape, a.Axis)
		off := 0
		for i, t := range x {
			_, m, _ := splitAxis(t.Shape, a.Axis)
			if d := dx[i]; d != nil {
				for o := 0; o < outer; o++ {
					copy(d.Data[o*m*inner:(o+1)*m*inner], dy.Data[(o*n+off)*inner:])
				}
			}
			off += m
		}
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		outer, n, inner := splitAxis(dy.Shape, a.Axis)
		off := 0
		for i, t := range x {
			_, m, _ := splitAxis(t.Shape, a.Axis)
			for o := 0; o < outer; o++ {
				dst := dy.Data[(o*n+off)*inner : (o*n+off+m)*inner]
				if dx[i] != nil {
					copy(dst, dx[i].Data[o*m*inner:])
				} else {
					clear(dst)
				}
			}
			off += m
		}
	},
	ZeroSafe: Always,
}

var detachOp = &Op{
	Name:     "detach",
	Operands: []Operand{{Name: "X", NoGrad: true}},
	Formula:  "Y = X (no gradient flows back)",
	Rule:     "dX = 0 (X is cut off from the gradient)",
	Infer: func(dst tensor.Shape, in []tensor.Shape, _ Attrs) (tensor.Shape, error) {
		return append(dst[:0], in[0]...), nil
	},
	Forward: copyForward,
	// X takes no gradient, so dx[0] is always nil and there is nothing to write.
	VJP:      func([]*tensor.Tensor, *tensor.Tensor, *tensor.Tensor, []*tensor.Tensor, Attrs) {},
	ZeroSafe: Always,
}

// copyForward copies the single operand's values into y (reshape, flatten, detach).
func copyForward(y *tensor.Tensor, x []*tensor.Tensor, _ Attrs) { copy(y.Data, x[0].Data) }

// copyVJP copies the cotangent's values back into the operand's shape.
func copyVJP(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
	copy(dx[0].Data, dy.Data)
}

// copyJVP is the JVP of a pure copy: the tangent's values move as the values do.
func copyJVP(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, _ Attrs) {
	if dx[0] == nil {
		dy.Fill(0)
		return
	}
	copy(dy.Data, dx[0].Data)
}

// transpose writes xᵀ into y (both rank 2, shapes already swapped).
func transpose(y, x *tensor.Tensor) {
	r, c := x.Shape[0], x.Shape[1]
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			y.Data[j*r+i] = x.Data[i*c+j]
		}
	}
}
