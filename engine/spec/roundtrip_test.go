package spec

import (
	"bytes"
	"math"
	"math/rand/v2"
	"reflect"
	"testing"

	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// randFloat draws numbers that stress a float formatter: ordinary values,
// exact binary fractions, -0, subnormals and extremes.
func randFloat(r *rand.Rand) float64 {
	switch r.IntN(8) {
	case 0:
		return math.Copysign(0, -1)
	case 1:
		return math.SmallestNonzeroFloat64 * float64(1+r.IntN(1000))
	case 2:
		return math.MaxFloat64 / float64(1+r.IntN(1000))
	case 3:
		return float64(r.IntN(2001)-1000) / 64
	case 4:
		return math.Ldexp(r.Float64(), r.IntN(2000)-1000)
	}
	return r.NormFloat64()
}

// unit draws from [0, 1), sometimes exactly 0.
func unitFloat(r *rand.Rand) float64 {
	if r.IntN(4) == 0 {
		return 0
	}
	return r.Float64()
}

// randLayer draws a layer of any registered type with settings that
// stress the encoder (for floats: -0, subnormals, extremes, as the range
// allows); it may not fit the model.
func randLayer(r *rand.Rand) nn.Layer {
	types := nn.LayerTypes()
	t := types[r.IntN(len(types))]
	v := make([]float64, len(t.Fields))
	for i, f := range t.Fields {
		v[i] = t.DefaultValue(i, v)
		switch {
		case r.IntN(3) == 0:
		case f.Kind == nn.BoolField:
			v[i] = float64(r.IntN(2))
		case f.Kind == nn.IntField:
			v[i] = math.Max(f.Range.Lo, 0) + float64(r.IntN(4))
		default:
			for _, x := range []float64{randFloat(r), math.Abs(randFloat(r)) + 1e-300, unitFloat(r)} {
				if f.Valid(x) {
					v[i] = x
					break
				}
			}
		}
	}
	return t.New(v)
}

// randModel draws a valid model: random shapes, layers, loss, parameter
// values for a random subset of the parameters, and training settings.
func randModel(t testing.TB, r *rand.Rand) *Model {
	for {
		var input tensor.Shape
		if r.IntN(3) == 0 {
			input = tensor.Shape{1 + r.IntN(3), 3 + r.IntN(6), 3 + r.IntN(6)}
		} else {
			input = tensor.Shape{1 + r.IntN(4)}
		}
		losses := nn.Losses()
		m := New(input, losses[r.IntN(len(losses))])
		shape := input
		for len(m.Layers) < 1+r.IntN(6) || len(shape) != 1 && r.IntN(2) == 0 {
			l := randLayer(r)
			if s, err := nn.NewSeq(input, append(m.Layers, l)...); err == nil {
				m.Layers = append(m.Layers, l)
				shape = s.Output()
			}
		}
		m.Seed = r.Uint64() >> r.IntN(64)
		m.Init = nn.Init(r.IntN(2))
		seq, err := m.Seq()
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range seq.Params() {
			if r.IntN(2) == 0 {
				continue
			}
			v := tensor.Zeros(p.Shape)
			for i := range v.Data {
				v.Data[i] = randFloat(r)
			}
			if m.Params == nil {
				m.Params = map[string]*tensor.Tensor{}
			}
			m.Params[p.Name] = v
		}
		if r.IntN(2) == 0 {
			names := train.DatasetNames()
			d := train.DefaultData(names[r.IntN(len(names))])
			if r.IntN(2) == 0 {
				d.N, d.Noise, d.TrainSplit, d.Seed = 2+r.IntN(1000), unitFloat(r), 1-unitFloat(r), r.Uint64()
			}
			if d.Fits(seq.Input(), seq.Output(), m.Loss) == nil {
				m.Dataset = d
			}
		}
		if r.IntN(2) == 0 {
			names := train.OptimizerNames()
			o := train.DefaultOptimizer(names[r.IntN(len(names))])
			if r.IntN(2) == 0 {
				o.LR, o.Momentum, o.Betas = math.Abs(randFloat(r))+1e-300, unitFloat(r), [2]float64{unitFloat(r), unitFloat(r)}
				o.Eps, o.WeightDecay = r.Float64()+1e-12, unitFloat(r)
			}
			m.Optimizer = o
		}
		if r.IntN(2) == 0 {
			m.BatchSize, m.Steps = 1+r.IntN(100), 1+r.IntN(10000)
		}
		if err := m.Validate(); err == nil {
			return m
		}
	}
}

// TestRoundTrip is the property Decode(Encode(m)) == m, and encoding is
// idempotent, over many random valid models.
func TestRoundTrip(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 2000; i++ {
		m := randModel(t, r)
		b, err := Encode(m)
		if err != nil {
			t.Fatalf("model %d: Encode: %v", i, err)
		}
		d, err := Decode(b)
		if err != nil {
			t.Fatalf("model %d: Decode(%s): %v", i, b, err)
		}
		if !reflect.DeepEqual(d, m) || !sameBits(d, m) {
			t.Fatalf("model %d: round trip differs\nencoded %s\nwant %+v\ngot  %+v", i, b, m, d)
		}
		b2, err := Encode(d)
		if err != nil || !bytes.Equal(b, b2) {
			t.Fatalf("model %d: encoding is not stable:\n%s\n%s", i, b, b2)
		}
	}
}

// sameBits compares parameter values bit for bit (reflect.DeepEqual
// treats -0 and +0 as equal).
func sameBits(a, b *Model) bool {
	for k, v := range a.Params {
		if !tensor.Identical(v, b.Params[k]) {
			return false
		}
	}
	return true
}

// TestCanonical: documents that mean the same model encode to the same bytes.
func TestCanonical(t *testing.T) {
	same := []string{
		`{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"dropout"},{"type":"linear","out":1}],"loss":"mse","seed":0}`,
		"{ \"loss\" : \"mse\",\n \"layers\": [{\"out\": 4, \"type\": \"linear\", \"bias\": true}, {\"type\":\"dropout\",\"p\":0.5}, {\"type\":\"linear\",\"out\":1e0}],\n \"input\": [2], \"version\": 1}",
		`{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"dropout","p":5e-1},{"type":"linear","out":1}],"loss":"mse","init":"pytorch","optimizer":{"name":"sgd","lr":0.03,"momentum":0},"batch_size":10,"steps":500}`,
	}
	want := `{"version":1,"input":[2],"layers":[{"type":"linear","out":4},{"type":"dropout"},{"type":"linear","out":1}],"loss":"mse","seed":0}`
	for _, s := range same {
		m, err := Decode([]byte(s))
		if err != nil {
			t.Fatalf("Decode(%s): %v", s, err)
		}
		b, err := Encode(m)
		if err != nil {
			t.Fatal(err)
		}
		if string(b) != want {
			t.Errorf("Encode(Decode(%s))\n = %s\nwant %s", s, b, want)
		}
	}
}

func TestEncodeFormatsNumbers(t *testing.T) {
	m := New(tensor.Shape{3}, nn.MSE, nn.LeakyReLU{NegativeSlope: 1e-7}, nn.Linear{Out: 1})
	m.Params = map[string]*tensor.Tensor{"1.weight": tensor.Matrix([][]float64{{0.1, math.Copysign(0, -1), 1e21}})}
	m.Optimizer = train.DefaultOptimizer("adam")
	m.Dataset = train.DataConfig{}
	b, err := Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"version":1,"input":[3],"layers":[{"type":"leaky_relu","negative_slope":1e-7},{"type":"linear","out":1,"bias":false}],"loss":"mse","seed":0,"params":{"1.weight":[[0.1,-0,1e+21]]},"optimizer":{"name":"adam"}}`
	if string(b) != want {
		t.Errorf("got  %s\nwant %s", b, want)
	}
}

func TestEncodeRejectsInvalid(t *testing.T) {
	m := New(tensor.Shape{2}, nn.MSE, nn.NewLinear(2))
	m.Params = map[string]*tensor.Tensor{"0.weight": tensor.Zeros(tensor.Shape{3, 2})}
	if _, err := Encode(m); err == nil || err.Error() != `params["0.weight"]: shape [2 2] expected, got [3 2]` {
		t.Errorf("err = %v", err)
	}
	m.Params = nil
	m.Layers = append(m.Layers, customLayer{nn.ReLU{}})
	if _, err := Encode(m); err == nil || err.Error() != "layers[1]: layer type spec.customLayer cannot be written to a model document" {
		t.Errorf("err = %v", err)
	}
}

type customLayer struct{ nn.ReLU }
