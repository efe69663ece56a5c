package nn

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// BatchNorm is PyTorch's nn.BatchNorm1d on [features] examples with affine
// weight and bias and tracked running statistics. In train mode it
// normalises with the batch mean and biased variance and updates the
// buffers running_mean and running_var (the latter with the unbiased batch
// variance) by an exponential moving average with factor Momentum; in eval
// mode it normalises with the running statistics. Use NewBatchNorm for
// PyTorch's defaults (eps 1e-5, momentum 0.1).
type BatchNorm struct {
	Eps      float64
	Momentum float64
}

// NewBatchNorm returns a batch norm with eps 1e-5 and momentum 0.1.
func NewBatchNorm() BatchNorm { return BatchNorm{Eps: 1e-5, Momentum: 0.1} }

var batchNormType = &LayerType{
	Name: "batch_norm",
	Fields: []Field{
		{Name: "eps", Kind: FloatField, Default: 1e-5, Range: Range{Lo: 0, Hi: math.Inf(1), LoOpen: true}},
		{Name: "momentum", Kind: FloatField, Default: 0.1, Range: Range{Lo: 0, Hi: 1}},
	},
	Editor: true,
	New:    func(v []float64) Layer { return BatchNorm{Eps: v[0], Momentum: v[1]} },
	Values: func(l Layer) ([]float64, bool) {
		b, ok := l.(BatchNorm)
		return []float64{b.Eps, b.Momentum}, ok
	},
	PyTorch: PyTorch{
		Module: "nn.BatchNorm1d({in}, eps={eps}, momentum={momentum})",
		Extra:  []PyTorchEntry{{Suffix: "num_batches_tracked", Value: "torch.tensor(0)"}},
	},
}

// Type returns "batch_norm".
func (BatchNorm) Type() string { return "batch_norm" }

// OutShape accepts [features] and gives it back.
func (b BatchNorm) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := batchNormType.check(b); err != nil {
		return nil, err
	}
	if len(in) != 1 {
		return nil, errors.New("expects [features]")
	}
	return in.Clone(), nil
}

// Params declares weight, bias, and the buffers running_mean and
// running_var, each [features].
func (BatchNorm) Params(in tensor.Shape) []ParamSpec {
	f := tensor.Shape{in[0]}
	return []ParamSpec{
		{Name: "weight", Shape: f},
		{Name: "bias", Shape: f},
		{Name: "running_mean", Shape: f, Buffer: true},
		{Name: "running_var", Shape: f, Buffer: true},
	}
}

// Init sets weight 1, bias 0, running_mean 0 and running_var 1, whatever
// the scheme (PyTorch's reset_parameters).
func (BatchNorm) Init(p []*tensor.Tensor, _ Init, _ *rand.Rand) {
	p[0].Fill(1)
	p[1].Fill(0)
	p[2].Fill(0)
	p[3].Fill(1)
}

// Forward records batch normalisation of x [batch features].
func (b BatchNorm) Forward(o op.Ops, x op.Value, p []op.Value, mode Mode, _ uint64) op.Value {
	if mode == Eval {
		return op.BatchNormEval(o, x, p[0], p[1], p[2], p[3], b.Eps)
	}
	return op.BatchNorm(o, x, p[0], p[1], b.Eps)
}

// UpdateBuffers applies PyTorch's running-statistics update for the batch
// x [n features]: running_mean ← (1−m)·running_mean + m·mean and
// running_var ← (1−m)·running_var + m·Σ(x−mean)²/(n−1). Like PyTorch it
// refuses a batch of one example.
func (b BatchNorm) UpdateBuffers(p []*tensor.Tensor, x *tensor.Tensor) error {
	n, f := x.Shape[0], x.Shape[1]
	if n < 2 {
		return fmt.Errorf("training needs more than 1 example per batch, got %d", n)
	}
	rm, rv := p[2].Data, p[3].Data
	for j := 0; j < f; j++ {
		s := 0.0
		for i := 0; i < n; i++ {
			s += x.Data[i*f+j]
		}
		mean := s / float64(n)
		ss := 0.0
		for i := 0; i < n; i++ {
			d := x.Data[i*f+j] - mean
			ss += d * d
		}
		rm[j] = b.Momentum*mean + (1-b.Momentum)*rm[j]
		rv[j] = b.Momentum*(ss/float64(n-1)) + (1-b.Momentum)*rv[j]
	}
	return nil
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
