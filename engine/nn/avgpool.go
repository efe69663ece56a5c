package nn

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// AvgPool2D is PyTorch's nn.AvgPool2d on [C H W] examples with a square
// window and no padding (LeNet's pooling). Use NewAvgPool2D for PyTorch's
// default stride (the kernel size).
type AvgPool2D struct {
	KernelSize int
	Stride     int
}

// NewAvgPool2D returns an average pool whose stride is its kernel size.
func NewAvgPool2D(kernelSize int) AvgPool2D {
	return AvgPool2D{KernelSize: kernelSize, Stride: kernelSize}
}

var avgPool2DType = &LayerType{
	Name: "avg_pool2d",
	Fields: []Field{
		{Name: "kernel_size", Kind: IntField, Required: true, Default: 2, Range: atLeast(1)},
		{Name: "stride", Kind: IntField, DefaultFrom: "kernel_size", Range: atLeast(1)},
	},
	Images: true,
	New:    func(v []float64) Layer { return AvgPool2D{KernelSize: int(v[0]), Stride: int(v[1])} },
	Values: func(l Layer) ([]float64, bool) {
		m, ok := l.(AvgPool2D)
		return []float64{float64(m.KernelSize), float64(m.Stride)}, ok
	},
	PyTorch: PyTorch{Module: "nn.AvgPool2d(kernel_size={kernel_size}, stride={stride})"},
}

// Type returns "avg_pool2d".
func (AvgPool2D) Type() string { return "avg_pool2d" }

// OutShape accepts [C H W] with H, W ≥ kernel and gives [C (H−k)/s+1 (W−k)/s+1].
func (m AvgPool2D) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := avgPool2DType.check(m); err != nil {
		return nil, err
	}
	return poolShape(in, m.KernelSize, m.Stride)
}

// Params declares none.
func (AvgPool2D) Params(tensor.Shape) []ParamSpec { return nil }

// Init has nothing to initialise.
func (AvgPool2D) Init([]*tensor.Tensor, Init, *rand.Rand) {}

// Forward records the average pool of x [batch C H W].
func (m AvgPool2D) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return op.AvgPool2D(o, x, m.KernelSize, m.Stride)
}

// poolShape is the output shape of a pool with a k×k window, stride s apart,
// on an [C H W] example, or why the example does not fit.
func poolShape(in tensor.Shape, k, s int) (tensor.Shape, error) {
	if len(in) != 3 {
		return nil, errors.New("expects [C H W]")
	}
	if in[1] < k || in[2] < k {
		return nil, fmt.Errorf("expects [C H W] with H, W ≥ kernel %d", k)
	}
	return tensor.Shape{in[0], (in[1]-k)/s + 1, (in[2]-k)/s + 1}, nil
}
