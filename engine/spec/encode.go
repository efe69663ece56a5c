package spec

import (
	"math"
	"strconv"

	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

// Encode validates m and writes its canonical document: fields in a fixed
// order (version, input, layers, loss, seed, init, params, dataset,
// optimizer, batch_size, steps), parameters in the model's state_dict
// order, no insignificant white space, numbers as the shortest decimal
// that reads back to the same float64, and every optional field that holds
// its default left out (version, input, layers, loss and seed are always
// written). Equal models therefore encode to equal bytes, which the share
// service relies on to derive ids, and Decode(Encode(m)) equals m.
func Encode(m *Model) ([]byte, error) {
	seq, err := m.validate()
	if err != nil {
		return nil, err
	}
	b := make([]byte, 0, 256)
	b = append(b, `{"version":1,"input":`...)
	b = appendInts(b, m.Input)
	b = append(b, `,"layers":[`...)
	for i, l := range m.Layers {
		if i > 0 {
			b = append(b, ',')
		}
		var ok bool
		if b, ok = encodeLayer(b, l); !ok {
			return nil, errorf("layers["+strconv.Itoa(i)+"]", "layer type %T cannot be written to a model document", l)
		}
	}
	b = append(b, `],"loss":`...)
	b = strconv.AppendQuote(b, string(m.Loss))
	b = append(b, `,"seed":`...)
	b = strconv.AppendUint(b, m.Seed, 10)
	if m.Init != 0 {
		b = append(b, `,"init":`...)
		b = strconv.AppendQuote(b, m.Init.String())
	}
	if len(m.Params) > 0 {
		b = append(b, `,"params":{`...)
		first := true
		for _, p := range seq.Params() {
			t, ok := m.Params[p.Name]
			if !ok {
				continue
			}
			if !first {
				b = append(b, ',')
			}
			first = false
			b = strconv.AppendQuote(b, p.Name)
			b = append(b, ':')
			b = appendTensor(b, t.Shape, t.Data)
		}
		b = append(b, '}')
	}
	b = appendDataset(b, m.Dataset)
	b = appendOptimizer(b, m.Optimizer)
	if m.BatchSize != DefaultBatchSize {
		b = appendInt(b, "batch_size", m.BatchSize)
	}
	if m.Steps != DefaultSteps {
		b = appendInt(b, "steps", m.Steps)
	}
	return append(b, '}'), nil
}

func appendInts(b []byte, s tensor.Shape) []byte {
	b = append(b, '[')
	for i, d := range s {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(d), 10)
	}
	return append(b, ']')
}

// appendTensor writes data of the given shape as nested arrays.
func appendTensor(b []byte, shape tensor.Shape, data []float64) []byte {
	b = append(b, '[')
	if len(shape) == 1 {
		for i, v := range data {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendFloat(b, v)
		}
		return append(b, ']')
	}
	step := len(data) / shape[0]
	for i := 0; i < shape[0]; i++ {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendTensor(b, shape[1:], data[i*step:(i+1)*step])
	}
	return append(b, ']')
}

// appendObject writes `,"key":{...}` from the fields body (which starts
// with a comma) when body is not empty.
func appendObject(b []byte, key string, body []byte) []byte {
	if len(body) == 0 {
		return b
	}
	b = append(b, `,"`...)
	b = append(b, key...)
	b = append(b, `":{`...)
	b = append(b, body[1:]...)
	return append(b, '}')
}

func appendDataset(b []byte, d train.DataConfig) []byte {
	if d.Name == "" {
		return b
	}
	def := train.DefaultData(d.Name)
	body := append([]byte(`,"name":`), strconv.Quote(d.Name)...)
	if d.N != def.N {
		body = appendInt(body, "n", d.N)
	}
	body = appendFloatIf(body, "noise", d.Noise, def.Noise)
	body = appendFloatIf(body, "train_split", d.TrainSplit, def.TrainSplit)
	if d.Seed != def.Seed {
		body = append(body, `,"seed":`...)
		body = strconv.AppendUint(body, d.Seed, 10)
	}
	return appendObject(b, "dataset", body)
}

func appendOptimizer(b []byte, o train.OptimizerConfig) []byte {
	return appendObject(b, "optimizer", optimizerBody(o))
}

// AppendOptimizer appends o as the JSON object the model document's
// "optimizer" field holds, its settings at their defaults left out, as
// DecodeOptimizer reads it.
func AppendOptimizer(b []byte, o train.OptimizerConfig) []byte {
	body := optimizerBody(o)
	if len(body) == 0 {
		return append(b, "{}"...)
	}
	b = append(b, '{')
	b = append(b, body[1:]...)
	return append(b, '}')
}

// optimizerBody is o's members, each after a comma, its settings at
// their defaults left out.
func optimizerBody(o train.OptimizerConfig) []byte {
	def := train.DefaultOptimizer(o.Name)
	var body []byte
	if o.Name != "sgd" {
		body = append([]byte(`,"name":`), strconv.Quote(o.Name)...)
	}
	body = appendFloatIf(body, "lr", o.LR, def.LR)
	body = appendFloatIf(body, "momentum", o.Momentum, def.Momentum)
	if o.Betas != def.Betas || math.Signbit(o.Betas[0]) || math.Signbit(o.Betas[1]) {
		body = append(body, `,"betas":[`...)
		body = appendFloat(body, o.Betas[0])
		body = append(body, ',')
		body = appendFloat(body, o.Betas[1])
		body = append(body, ']')
	}
	body = appendFloatIf(body, "eps", o.Eps, def.Eps)
	body = appendFloatIf(body, "weight_decay", o.WeightDecay, def.WeightDecay)
	return body
}

func finite(v float64) bool { return !math.IsNaN(v) && !math.IsInf(v, 0) }
