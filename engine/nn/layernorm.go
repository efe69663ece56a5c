package nn

import (
	"errors"
	"math"
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// LayerNorm is PyTorch's nn.LayerNorm(normalized_shape=F) on examples whose
// last dimension is F: each example's every row of F values is normalised
// with its own mean and biased variance, then scaled by weight [F] and
// shifted by bias [F]. It behaves the same in train and eval mode. Use
// NewLayerNorm for PyTorch's default eps 1e-5.
type LayerNorm struct {
	Eps float64
}

// NewLayerNorm returns a layer norm with eps 1e-5.
func NewLayerNorm() LayerNorm { return LayerNorm{Eps: 1e-5} }

var layerNormType = &LayerType{
	Name:   "layer_norm",
	Fields: []Field{{Name: "eps", Kind: FloatField, Default: 1e-5, Range: Range{Lo: 0, Hi: math.Inf(1), LoOpen: true}}},
	Editor: true,
	New:    func(v []float64) Layer { return LayerNorm{Eps: v[0]} },
	Values: func(x Layer) ([]float64, bool) {
		l, ok := x.(LayerNorm)
		return []float64{l.Eps}, ok
	},
	PyTorch: PyTorch{Module: "nn.LayerNorm({last}, eps={eps})"},
}

// Type returns "layer_norm".
func (LayerNorm) Type() string { return "layer_norm" }

// OutShape accepts any example shape and gives it back.
func (l LayerNorm) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := layerNormType.check(l); err != nil {
		return nil, err
	}
	if len(in) == 0 {
		return nil, errors.New("expects at least one dimension")
	}
	return in.Clone(), nil
}

// Params declares weight and bias, each [F] for the input's last dimension F.
func (LayerNorm) Params(in tensor.Shape) []ParamSpec {
	f := tensor.Shape{in[len(in)-1]}
	return []ParamSpec{{Name: "weight", Shape: f}, {Name: "bias", Shape: f.Clone()}}
}

// Init sets weight 1 and bias 0, whatever the scheme (PyTorch's
// reset_parameters).
func (LayerNorm) Init(p []*tensor.Tensor, _ Init, _ *rand.Rand) {
	p[0].Fill(1)
	p[1].Fill(0)
}

// Forward records layer normalisation of x [batch … F].
func (l LayerNorm) Forward(o op.Ops, x op.Value, p []op.Value, _ Mode, _ uint64) op.Value {
	return op.LayerNorm(o, x, p[0], p[1], l.Eps)
}
