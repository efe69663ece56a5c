package app

import (
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// The default CNN's training: Adam at this learning rate, mini-batches of
// CNNBatch images.
const (
	CNNLearningRate = 0.01
	CNNBatch        = 32
)

// DefaultCNN is the model the page offers for an image dataset whose
// examples have shape input ([C H W]) and which has classes classes:
// conv2d (4 channels, 3×3 kernel) → relu → max_pool2d 2 → flatten →
// linear classes, cross_entropy, seed 1.
func DefaultCNN(input tensor.Shape, classes int) Doc {
	return Doc{Input: input.Clone(), Layers: []nn.Layer{nn.NewConv2D(4, 3), nn.ReLU{}, nn.NewMaxPool2D(2), nn.Flatten{}, nn.NewLinear(classes)},
		Loss: nn.CrossEntropy, Seed: 1}
}

// CNNOptimizer is the default CNN's optimizer: Adam at CNNLearningRate.
func CNNOptimizer() train.OptimizerConfig {
	o := train.DefaultOptimizer("adam")
	o.LR = CNNLearningRate
	return o
}

// EditOn is Edit on the mini-batch b: for an edit of the input shape or
// the loss, which changes the shape the batch must have.
func (p *Playground) EditOn(doc Doc, b Batch) error {
	p.batch = b
	return p.Edit(doc)
}
