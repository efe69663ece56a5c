package op_test

import (
	"testing"

	"tapelab/engine/op"
)

// The cnn workload's convolutions and pool (bench/workload.go), at batch 32.

func BenchmarkConv2DCNN1(b *testing.B) { // 1×8×8 through 8 3×3 filters, padding 1
	benchOp(b, "conv2d", op.Attrs{Stride: 1, Padding: 1}, shapes{{32, 1, 8, 8}, {8, 1, 3, 3}, {8}}, nil)
}

func BenchmarkConv2DCNN2(b *testing.B) { // 8×4×4 through 16 3×3 filters
	benchOp(b, "conv2d", op.Attrs{Stride: 1}, shapes{{32, 8, 4, 4}, {16, 8, 3, 3}, {16}}, nil)
}

func BenchmarkMaxPool2DCNN(b *testing.B) {
	benchOp(b, "max_pool2d", op.Attrs{Kernel: 2, Stride: 2}, shapes{{32, 8, 8, 8}}, nil)
}
