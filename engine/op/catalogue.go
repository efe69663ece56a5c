package op

import (
	"slices"
	"strings"
)

// catalogue lists every op; it is fixed at compile time and never modified.
var catalogue = []*Op{
	addOp, subOp, mulOp, negOp, scaleOp, addBiasOp, divOp, maxOp, minOp,
	matmulOp, linearOp,
	tanhOp, reluOp, leakyReluOp, sigmoidOp, geluOp,
	expOp, logOp, sqrtOp, absOp, squareOp, powOp,
	softmaxOp, logSoftmaxOp,
	sumOp, meanOp, reduceSumOp, reduceMeanOp,
	reshapeOp, flattenOp, transposeOp, concatOp, detachOp, broadcastToOp,
	dropoutOp,
	mseLossOp, crossEntropyOp, bceWithLogitsOp,
	conv2dOp, maxPool2DOp, avgPool2DOp,
	batchNormOp, batchNormEvalOp, layerNormOp,
}

var byName = func() map[string]*Op {
	m := make(map[string]*Op, len(catalogue)+len(vjpOps))
	for _, o := range append(append([]*Op(nil), catalogue...), vjpOps...) {
		if m[o.Name] != nil {
			panic("op: duplicate name " + o.Name)
		}
		m[o.Name] = o
	}
	return m
}()

// Lookup returns the op with the given name: an op of the catalogue or a
// VJP op (VJPOps).
func Lookup(name string) (*Op, bool) {
	o, ok := byName[name]
	return o, ok
}

// All returns every op in the catalogue, sorted by name. The slice is fresh;
// the ops are shared and must not be modified.
func All() []*Op {
	// It sorts indices, with the instantiation of slices.SortStableFunc
	// for []int the playground links anyway, rather than linking a sort
	// of []*Op of its own.
	idx := make([]int, len(catalogue))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return strings.Compare(catalogue[a].Name, catalogue[b].Name) })
	out := make([]*Op, len(idx))
	for i, j := range idx {
		out[i] = catalogue[j]
	}
	return out
}
