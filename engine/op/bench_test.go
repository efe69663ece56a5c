package op_test

import (
	"math/rand/v2"
	"testing"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// benchOp measures one forward and one VJP (every differentiable operand)
// of an op at playground sizes.
func benchOp(b *testing.B, name string, attrs op.Attrs, shapes []tensor.Shape, gen func(r *rand.Rand, i int, t *tensor.Tensor)) {
	o, _ := op.Lookup(name)
	r := rand.New(rand.NewPCG(1, 2))
	if gen == nil {
		gen = uniform
	}
	x := make([]*tensor.Tensor, len(shapes))
	dx := make([]*tensor.Tensor, len(shapes))
	for i, s := range shapes {
		x[i] = tensor.Zeros(s)
		gen(r, i, x[i])
		if o.Grads(i) {
			dx[i] = tensor.Zeros(s)
		}
	}
	y, err := o.Eval(x, attrs)
	if err != nil {
		b.Fatal(err)
	}
	dy := tensor.Zeros(y.Shape)
	uniform(r, 0, dy)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		o.Forward(y, x, attrs)
		o.VJP(dx, dy, y, x, attrs)
	}
}

func BenchmarkConv2D(b *testing.B) { // a 28×28 image batch through 8 3×3 filters
	benchOp(b, "conv2d", op.Attrs{Stride: 1, Padding: 1}, shapes{{32, 1, 28, 28}, {8, 1, 3, 3}, {8}}, nil)
}

func BenchmarkMaxPool2D(b *testing.B) {
	benchOp(b, "max_pool2d", op.Attrs{Kernel: 2, Stride: 2}, shapes{{32, 8, 28, 28}}, nil)
}

func BenchmarkAvgPool2D(b *testing.B) {
	benchOp(b, "avg_pool2d", op.Attrs{Kernel: 2, Stride: 2}, shapes{{32, 8, 28, 28}}, nil)
}

func BenchmarkBatchNorm(b *testing.B) {
	benchOp(b, "batch_norm", op.Attrs{Eps: 1e-5}, shapes{{64, 128}, {128}, {128}}, nil)
}

func BenchmarkCrossEntropy(b *testing.B) { // the 784-128-10 model's loss at batch 64
	benchOp(b, "cross_entropy", op.Attrs{}, shapes{{64, 10}, {64}}, per(uniform, classes(10)))
}

func BenchmarkSoftmax(b *testing.B) {
	benchOp(b, "softmax", op.Attrs{}, shapes{{64, 10}}, nil)
}

func BenchmarkGELU(b *testing.B) {
	benchOp(b, "gelu", op.Attrs{}, shapes{{64, 128}}, nil)
}
