package op

import (
	"fmt"

	"tapelab/engine/tensor"
)

var dropoutOp = &Op{
	Name:     "dropout",
	Operands: []Operand{{Name: "X"}},
	Formula:  "Y = X ⊙ M / (1 − p), M = keep mask drawn from the seed",
	Rule:     "dX = dY ⊙ M / (1 − p)",
	Infer: func(dst tensor.Shape, in []tensor.Shape, a Attrs) (tensor.Shape, error) {
		if !(a.Alpha >= 0 && a.Alpha < 1) {
			return dst, fmt.Errorf("drop probability p = %v must be in [0, 1)", a.Alpha)
		}
		return append(dst[:0], in[0]...), nil
	},
	Forward: func(y *tensor.Tensor, x []*tensor.Tensor, a Attrs) {
		dropMask(y, x[0], a)
	},
	VJP: func(dx []*tensor.Tensor, dy, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		dropMask(dx[0], dy, a)
	},
	JVP: func(dy *tensor.Tensor, dx []*tensor.Tensor, _ *tensor.Tensor, _ []*tensor.Tensor, a Attrs) {
		dropMask(dy, dx[0], a)
	},
	// The VJP selects and scales by 1/(1 − p), which is finite for p in [0, 1).
	ZeroSafe: Always,
}

// dropMask writes src ⊙ M / (1 − p) into dst, where M is the keep mask of
// Attrs.Seed: element i is kept when keep(seed, i, p). Forward, VJP and JVP
// all recompute M from the seed, so no mask is stored. A dropped element is
// set to 0 without multiplying, so a dropped ±Inf gives 0, not NaN.
func dropMask(dst, src *tensor.Tensor, a Attrs) {
	scale := 1 / (1 - a.Alpha)
	for i, v := range src.Data {
		if keep(a.Seed, i, a.Alpha) {
			dst.Data[i] = v * scale
		} else {
			dst.Data[i] = 0
		}
	}
}

// keep reports whether dropout with probability p keeps element i under
// seed. It hashes (seed, i) with SplitMix64's finaliser into a uniform
// u in [0, 1) (53 bits) and keeps the element when u ≥ p, so each element
// is kept with probability 1 − p, independently of the others, identically
// on every platform.
func keep(seed uint64, i int, p float64) bool {
	z := seed + uint64(i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	z ^= z >> 31
	u := float64(z>>11) * (1.0 / (1 << 53))
	return u >= p
}
