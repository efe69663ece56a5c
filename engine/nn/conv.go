package nn

import (
	"errors"
	"fmt"
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Conv2D is PyTorch's nn.Conv2d on [C H W] examples with square kernels,
// equal strides and zero padding on every side: weight [out C k k] and
// bias [out]. Use NewConv2D for PyTorch's defaults (stride 1, padding 0).
type Conv2D struct {
	OutChannels int
	KernelSize  int
	Stride      int
	Padding     int
}

// NewConv2D returns a convolution with stride 1 and no padding.
func NewConv2D(outChannels, kernelSize int) Conv2D {
	return Conv2D{OutChannels: outChannels, KernelSize: kernelSize, Stride: 1}
}

var conv2dType = &LayerType{
	Name: "conv2d",
	Fields: []Field{
		{Name: "out_channels", Kind: IntField, Required: true, Default: 4, Range: atLeast(1)},
		{Name: "kernel_size", Kind: IntField, Required: true, Default: 3, Range: atLeast(1)},
		{Name: "stride", Kind: IntField, Default: 1, Range: atLeast(1)},
		{Name: "padding", Kind: IntField, Default: 0, Range: atLeast(0)},
	},
	Images: true,
	New: func(v []float64) Layer {
		return Conv2D{OutChannels: int(v[0]), KernelSize: int(v[1]), Stride: int(v[2]), Padding: int(v[3])}
	},
	Values: func(l Layer) ([]float64, bool) {
		c, ok := l.(Conv2D)
		return []float64{float64(c.OutChannels), float64(c.KernelSize), float64(c.Stride), float64(c.Padding)}, ok
	},
	PyTorch: PyTorch{Module: "nn.Conv2d({in}, {out_channels}, kernel_size={kernel_size}, stride={stride}, padding={padding})"},
}

// Type returns "conv2d".
func (Conv2D) Type() string { return "conv2d" }

// OutShape accepts [C H W] with H and W + 2·padding ≥ kernel and gives
// [out (H+2p−k)/s+1 (W+2p−k)/s+1], rounding down as PyTorch does.
func (c Conv2D) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := conv2dType.check(c); err != nil {
		return nil, err
	}
	if len(in) != 3 {
		return nil, errors.New("expects [C H W]")
	}
	m := c.KernelSize - 2*c.Padding
	if in[1] < m || in[2] < m {
		return nil, fmt.Errorf("expects [C H W] with H, W ≥ %d for kernel %d and padding %d", m, c.KernelSize, c.Padding)
	}
	h := (in[1]+2*c.Padding-c.KernelSize)/c.Stride + 1
	w := (in[2]+2*c.Padding-c.KernelSize)/c.Stride + 1
	return tensor.Shape{c.OutChannels, h, w}, nil
}

// Params declares weight [out C k k] and bias [out].
func (c Conv2D) Params(in tensor.Shape) []ParamSpec {
	return []ParamSpec{
		{Name: "weight", Shape: tensor.Shape{c.OutChannels, in[0], c.KernelSize, c.KernelSize}},
		{Name: "bias", Shape: tensor.Shape{c.OutChannels}},
	}
}

// Init draws weight and bias as the scheme says, with fan_in = C·k·k and
// fan_out = out·k·k as PyTorch computes them.
func (c Conv2D) Init(p []*tensor.Tensor, scheme Init, rng *rand.Rand) {
	w := p[0].Shape
	k := w[2] * w[3]
	initWeights(p, scheme, rng, w[1]*k, w[0]*k)
}

// Forward records the convolution of x [batch C H W].
func (c Conv2D) Forward(o op.Ops, x op.Value, p []op.Value, _ Mode, _ uint64) op.Value {
	return op.Conv2D(o, x, p[0], p[1], c.Stride, c.Padding)
}

// MaxPool2D is PyTorch's nn.MaxPool2d on [C H W] examples with a square
// window and no padding. Use NewMaxPool2D for PyTorch's default stride
// (the kernel size).
type MaxPool2D struct {
	KernelSize int
	Stride     int
}

// NewMaxPool2D returns a max pool whose stride is its kernel size.
func NewMaxPool2D(kernelSize int) MaxPool2D {
	return MaxPool2D{KernelSize: kernelSize, Stride: kernelSize}
}

var maxPool2DType = &LayerType{
	Name: "max_pool2d",
	Fields: []Field{
		{Name: "kernel_size", Kind: IntField, Required: true, Default: 2, Range: atLeast(1)},
		{Name: "stride", Kind: IntField, DefaultFrom: "kernel_size", Range: atLeast(1)},
	},
	Images: true,
	New:    func(v []float64) Layer { return MaxPool2D{KernelSize: int(v[0]), Stride: int(v[1])} },
	Values: func(l Layer) ([]float64, bool) {
		m, ok := l.(MaxPool2D)
		return []float64{float64(m.KernelSize), float64(m.Stride)}, ok
	},
	PyTorch: PyTorch{Module: "nn.MaxPool2d(kernel_size={kernel_size}, stride={stride})"},
}

// Type returns "max_pool2d".
func (MaxPool2D) Type() string { return "max_pool2d" }

// OutShape accepts [C H W] with H, W ≥ kernel and gives [C (H−k)/s+1 (W−k)/s+1].
func (m MaxPool2D) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := maxPool2DType.check(m); err != nil {
		return nil, err
	}
	return poolShape(in, m.KernelSize, m.Stride)
}

// Params declares none.
func (MaxPool2D) Params(tensor.Shape) []ParamSpec { return nil }

// Init has nothing to initialise.
func (MaxPool2D) Init([]*tensor.Tensor, Init, *rand.Rand) {}

// Forward records the max pool of x [batch C H W].
func (m MaxPool2D) Forward(o op.Ops, x op.Value, _ []op.Value, _ Mode, _ uint64) op.Value {
	return op.MaxPool2D(o, x, m.KernelSize, m.Stride)
}
