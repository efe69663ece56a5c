// Package nntest generates random layers and layer sequences for property
// tests of nn and the packages built on it, and flattens the nested number
// arrays of the golden files those tests compare with PyTorch.
package nntest

import (
	"math"
	"math/rand/v2"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// Layer draws a layer of any registered type (nn.LayerTypes) with moderate
// settings: each setting keeps its default one time in four, otherwise
// an integer is drawn from the smallest allowed up to that plus its default
// (at least plus 1), a bounded number from a grid of fifths of its range
// and an unbounded one as 1 to 40 times its default. It may not accept every input shape (conv2d wants [C H W],
// linear [features], …).
func Layer(r *rand.Rand) nn.Layer {
	types := nn.LayerTypes()
	t := types[r.IntN(len(types))]
	v := make([]float64, len(t.Fields))
	for i, f := range t.Fields {
		v[i] = t.DefaultValue(i, v)
		if r.IntN(4) == 0 {
			continue
		}
		lo, hi := f.Range.Lo, f.Range.Hi
		switch {
		case f.Kind == nn.BoolField:
			v[i] = float64(r.IntN(2))
		case f.Kind == nn.IntField:
			first := math.Max(lo, 0)
			if f.Range.LoOpen && first == lo {
				first++
			}
			v[i] = first + float64(r.IntN(1+max(1, int(v[i]))))
		case !math.IsInf(lo, 0) && !math.IsInf(hi, 0):
			first, last := 0, 5
			if f.Range.LoOpen {
				first = 1
			}
			if f.Range.HiOpen {
				last = 4
			}
			v[i] = lo + (hi-lo)*float64(first+r.IntN(last-first+1))/5
		default:
			v[i] *= float64(1 + r.IntN(40))
		}
	}
	return t.New(v)
}

// Input draws an example shape: [features] or [C H W].
func Input(r *rand.Rand) tensor.Shape {
	if r.IntN(2) == 0 {
		return tensor.Shape{1 + r.IntN(5)}
	}
	return tensor.Shape{1 + r.IntN(2), 2 + r.IntN(5), 2 + r.IntN(5)}
}

// Seq draws a valid sequence of 1 to maxLayers layers (at least 1) on a
// random input, ending with 1-D outputs: it draws layers and keeps those
// that fit, then flattens image outputs.
func Seq(r *rand.Rand, maxLayers int) (*nn.Seq, []nn.Layer) {
	input := Input(r)
	n := 1 + r.IntN(max(1, maxLayers))
	var layers []nn.Layer
	for tries := 0; len(layers) < n && tries < 100*n; tries++ {
		l := Layer(r)
		if _, err := nn.NewSeq(input, append(layers, l)...); err == nil {
			layers = append(layers, l)
		}
	}
	if len(input) == 3 && (len(layers) == 0 || !is1D(input, layers)) {
		layers = append(layers, nn.Flatten{})
	}
	seq, err := nn.NewSeq(input, layers...)
	if err != nil {
		panic("nntest: generated an invalid sequence: " + err.Error())
	}
	return seq, layers
}

func is1D(input tensor.Shape, layers []nn.Layer) bool {
	s, err := nn.NewSeq(input, layers...)
	return err == nil && len(s.Output()) == 1
}
