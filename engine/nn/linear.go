package nn

import (
	"errors"
	"math"
	"math/rand/v2"

	"tapelab/engine/op"
	"tapelab/engine/tensor"
)

// Linear is PyTorch's nn.Linear on 1-D examples: y = x·Wᵀ + b with weight
// [out in] and, when Bias is set, bias [out]. Use NewLinear for PyTorch's
// default (with bias).
type Linear struct {
	Out  int
	Bias bool
}

// NewLinear returns a linear layer with out features and a bias.
func NewLinear(out int) Linear { return Linear{Out: out, Bias: true} }

var linearType = &LayerType{
	Name: "linear",
	Fields: []Field{
		{Name: "out", Kind: IntField, Required: true, Default: 4, Range: atLeast(1)},
		{Name: "bias", Kind: BoolField, Default: 1},
	},
	Editor: true,
	New:    func(v []float64) Layer { return Linear{Out: int(v[0]), Bias: v[1] != 0} },
	Values: func(x Layer) ([]float64, bool) {
		l, ok := x.(Linear)
		return []float64{float64(l.Out), b2f(l.Bias)}, ok
	},
	PyTorch: PyTorch{Module: "nn.Linear({in}, {out}, bias={bias})"},
}

// Type returns "linear".
func (Linear) Type() string { return "linear" }

// OutShape accepts [features] and gives [Out].
func (l Linear) OutShape(in tensor.Shape) (tensor.Shape, error) {
	if err := linearType.check(l); err != nil {
		return nil, err
	}
	if len(in) != 1 {
		return nil, errors.New("expects [features]")
	}
	return tensor.Shape{l.Out}, nil
}

// Params declares weight [out in] and, with Bias, bias [out].
func (l Linear) Params(in tensor.Shape) []ParamSpec {
	ps := []ParamSpec{{Name: "weight", Shape: tensor.Shape{l.Out, in[0]}}}
	if l.Bias {
		ps = append(ps, ParamSpec{Name: "bias", Shape: tensor.Shape{l.Out}})
	}
	return ps
}

// Init draws the weight (and bias) as the scheme says, fan_in = in.
func (l Linear) Init(p []*tensor.Tensor, scheme Init, rng *rand.Rand) {
	w := p[0].Shape
	initWeights(p, scheme, rng, w[1], w[0])
}

// Forward records x·Wᵀ + b (or x·Wᵀ without bias).
func (l Linear) Forward(o op.Ops, x op.Value, p []op.Value, _ Mode, _ uint64) op.Value {
	if l.Bias {
		return op.Linear(o, x, p[0], p[1])
	}
	return op.MatMul(o, x, op.Transpose(o, p[0]))
}

// initWeights initialises p[0] (the weight) and, when present, p[1] (the
// bias) of a layer with the given fans: PyTorch's default draws both
// uniform in ±1/sqrt(fanIn); Xavier draws the weight uniform in
// ±sqrt(6/(fanIn+fanOut)) and zeroes the bias.
func initWeights(p []*tensor.Tensor, scheme Init, rng *rand.Rand, fanIn, fanOut int) {
	if scheme == InitXavier {
		uniform(p[0], math.Sqrt(6/float64(fanIn+fanOut)), rng)
		if len(p) > 1 {
			p[1].Fill(0)
		}
		return
	}
	bound := 1 / math.Sqrt(float64(fanIn))
	for _, t := range p {
		uniform(t, bound, rng)
	}
}

// uniform fills t with values drawn uniformly from [-bound, bound).
func uniform(t *tensor.Tensor, bound float64, rng *rand.Rand) {
	for i := range t.Data {
		t.Data[i] = (2*rng.Float64() - 1) * bound
	}
}
