package link

import "tapelab/engine/tensor"

func newMatrix(rows [][]float64) *tensor.Tensor {
	t := tensor.Zeros(tensor.Shape{len(rows), len(rows[0])})
	for i, r := range rows {
		copy(t.Data[i*len(r):], r)
	}
	return t
}
