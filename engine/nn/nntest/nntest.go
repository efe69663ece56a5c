// Package nntest generates random layers and layer sequences for property
// tests of nn and the packages built on it, and flattens the nested number
// arrays of the golden files those tests compare with PyTorch.
package nntest

import (
	"math/rand/v2"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
)

// Layer draws a layer of any type with moderate settings. It may not accept
// every input shape: image layers (conv2d, max_pool2d) want [C H W], linear
// and batch_norm want [features].
func Layer(r *rand.Rand) nn.Layer {
	switch r.IntN(13) {
	case 0, 1:
		return nn.Linear{Out: 1 + r.IntN(5), Bias: r.IntN(4) > 0}
	case 2:
		return nn.ReLU{}
	case 3:
		return nn.LeakyReLU{NegativeSlope: float64(r.IntN(5)) / 10}
	case 4:
		return nn.Tanh{}
	case 5:
		return nn.Sigmoid{}
	case 6:
		return nn.Softmax{}
	case 7:
		return nn.GELU{}
	case 8:
		return nn.Dropout{P: float64(r.IntN(4)) / 5}
	case 9:
		return nn.BatchNorm{Eps: 1e-5 * float64(1+r.IntN(100)), Momentum: float64(r.IntN(11)) / 10}
	case 10:
		return nn.Flatten{}
	case 11:
		return nn.Conv2D{OutChannels: 1 + r.IntN(3), KernelSize: 1 + r.IntN(3), Stride: 1 + r.IntN(2), Padding: r.IntN(2)}
	}
	k := 1 + r.IntN(3)
	return nn.MaxPool2D{KernelSize: k, Stride: 1 + r.IntN(k)}
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
