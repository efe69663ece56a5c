package tensor

import (
	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
)

// Gemm computes c = alpha·op(a)·op(b) + beta·c for rank-2 tensors, where
// op(x) is x or its transpose as transA and transB say. Shapes must already
// agree (the op catalogue's shape rules check them); c is not resized.
// With beta == 0, c's previous contents are ignored, NaNs included.
// It allocates nothing.
func Gemm(transA, transB bool, alpha float64, a, b *Tensor, beta float64, c *Tensor) {
	ta, tb := blas.NoTrans, blas.NoTrans
	if transA {
		ta = blas.Trans
	}
	if transB {
		tb = blas.Trans
	}
	blas64.Gemm(ta, tb, alpha, general(a), general(b), beta, general(c))
}

func general(t *Tensor) blas64.General {
	r, c := t.Shape[0], t.Shape[1]
	return blas64.General{Rows: r, Cols: c, Stride: c, Data: t.Data}
}
