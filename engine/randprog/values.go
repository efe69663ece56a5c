package randprog

import (
	"math"
	"math/rand/v2"

	"tapelab/engine/tensor"
)

// specials are the values that make IEEE arithmetic interesting: infinities,
// NaN, magnitudes whose products overflow or underflow to ±0, and -0.0.
var specials = [...]float64{
	math.Inf(1), math.Inf(-1), math.NaN(),
	1e300, -1e300, 1e-300, -1e-300, math.SmallestNonzeroFloat64, math.Copysign(0, -1),
}

// Tensor returns a random tensor of the given shape. Elements are mostly
// small integers, normal draws and zeros; unless finite is set, about one
// tensor in three also holds -0.0, ±Inf, NaN or extreme magnitudes.
func Tensor(r *rand.Rand, shape tensor.Shape, finite bool) *tensor.Tensor {
	t := tensor.Zeros(shape)
	special := !finite && r.IntN(3) == 0
	for i := range t.Data {
		t.Data[i] = element(r, special)
	}
	return t
}

func element(r *rand.Rand, special bool) float64 {
	if special && r.IntN(4) == 0 {
		return specials[r.IntN(len(specials))]
	}
	switch r.IntN(10) {
	case 0, 1, 2:
		return float64(r.IntN(7) - 3)
	case 3:
		if special {
			return math.Copysign(0, -1)
		}
		return 0
	}
	return r.NormFloat64() * 1.5
}

// tensor returns the value of a new leaf or constant of the given shape.
func (g *gen) tensor(shape tensor.Shape) *tensor.Tensor {
	switch g.tame {
	case 1: // positive, away from 0
		t := tensor.Zeros(shape)
		for i := range t.Data {
			t.Data[i] = 0.25 + 2*g.r.Float64()
		}
		return t
	case 2: // in [0, 1]
		t := tensor.Zeros(shape)
		for i := range t.Data {
			t.Data[i] = g.r.Float64()
		}
		return t
	}
	return Tensor(g.r, shape, g.cfg.Finite)
}
