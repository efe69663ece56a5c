package spec

import (
	"strconv"

	"tapelab/engine/jsontext"
	"tapelab/engine/nn"
	"tapelab/engine/tensor"
	"tapelab/engine/train"
)

var topFields = []string{"version", "input", "layers", "loss", "seed", "init", "params", "dataset", "optimizer", "batch_size", "steps"}

// Decode parses and validates a version 1 model document. Absent optional
// fields take their defaults. Any fault is returned as an *Error naming
// the JSON path of the faulty value, e.g. "layers[2].out: must be ≥ 1".
func Decode(data []byte) (*Model, error) {
	root, err := parse(data)
	if err != nil {
		return nil, err
	}
	if err := want(root, "", jsontext.Object); err != nil {
		return nil, &Error{Msg: "a model document must be a JSON object, got " + what(root.Kind)}
	}
	if err := checkKeys(root, "", topFields, "a model document"); err != nil {
		return nil, err
	}
	m := New(nil, "")
	if err := decodeHead(root, m); err != nil {
		return nil, err
	}
	if err := decodeTraining(root, m); err != nil {
		return nil, err
	}
	if err := m.Validate(); err != nil {
		return nil, err
	}
	return m, nil
}

// required returns the value of a required top-level field.
func required(root *jsontext.Value, key, hint string) (*jsontext.Value, error) {
	n := root.Field(key)
	if n == nil {
		return nil, errorf(key, "missing (%s)", hint)
	}
	return n, nil
}

// decodeHead reads the model itself: version, input, layers, loss, seed,
// init and params, in that order, stopping at the first fault.
func decodeHead(root *jsontext.Value, m *Model) error {
	if err := decodeVersion(root); err != nil {
		return err
	}
	in, err := required(root, "input", "the shape of one example, e.g. [2]")
	if err != nil {
		return err
	}
	if m.Input, err = decodeShape(in, "input"); err != nil {
		return err
	}
	if m.Layers, err = decodeLayers(root); err != nil {
		return err
	}
	if m.Loss, err = decodeLoss(root); err != nil {
		return err
	}
	if n := root.Field("seed"); n != nil {
		if m.Seed, err = uint64Of(n, "seed"); err != nil {
			return err
		}
	}
	if n := root.Field("init"); n != nil {
		if m.Init, err = decodeInit(n); err != nil {
			return err
		}
	}
	if n := root.Field("params"); n != nil {
		if m.Params, err = decodeParams(n); err != nil {
			return err
		}
	}
	return nil
}

// decodeVersion checks that the document is version 1.
func decodeVersion(root *jsontext.Value) error {
	v, err := required(root, "version", "want 1")
	if err != nil {
		return err
	}
	if err := want(v, "version", jsontext.Number); err != nil {
		return err
	}
	if v.Text != "1" {
		return errorf("version", "unsupported version %s (this build reads version %d)", v.Text, Version)
	}
	return nil
}

// decodeLayers reads the required list of layers.
func decodeLayers(root *jsontext.Value) ([]nn.Layer, error) {
	ls, err := required(root, "layers", "a list of layers")
	if err != nil {
		return nil, err
	}
	if err := want(ls, "layers", jsontext.Array); err != nil {
		return nil, err
	}
	var layers []nn.Layer
	for i, ln := range ls.Elems {
		l, err := decodeLayer(ln, "layers["+strconv.Itoa(i)+"]")
		if err != nil {
			return nil, err
		}
		layers = append(layers, l)
	}
	return layers, nil
}

// decodeLoss reads the required loss name.
func decodeLoss(root *jsontext.Value) (nn.Loss, error) {
	ln, err := required(root, "loss", "want mse, cross_entropy, bce_with_logits")
	if err != nil {
		return "", err
	}
	s, err := stringOf(ln, "loss")
	if err != nil {
		return "", err
	}
	loss, err := nn.ParseLoss(s)
	if err != nil {
		return "", errorf("loss", "%v", err)
	}
	return loss, nil
}

// decodeInit reads the initialisation scheme's name.
func decodeInit(n *jsontext.Value) (nn.Init, error) {
	s, err := stringOf(n, "init")
	if err != nil {
		return 0, err
	}
	switch s {
	case "pytorch":
		return nn.InitPyTorch, nil
	case "xavier":
		return nn.InitXavier, nil
	}
	return 0, errorf("init", "unknown scheme %q (want pytorch, xavier)", s)
}

// decodeParams reads the params object: a tensor per parameter name, or
// nil for an empty object.
func decodeParams(n *jsontext.Value) (map[string]*tensor.Tensor, error) {
	if err := want(n, "params", jsontext.Object); err != nil {
		return nil, err
	}
	var params map[string]*tensor.Tensor
	for _, mb := range n.Members {
		k := mb.Key
		t, err := decodeTensor(mb.Value, "params["+quote(k)+"]")
		if err != nil {
			return nil, err
		}
		if params == nil {
			params = map[string]*tensor.Tensor{}
		}
		params[k] = t
	}
	return params, nil
}

// decodeShape reads a list of dimensions, each at least 1.
func decodeShape(n *jsontext.Value, path string) (tensor.Shape, error) {
	if err := want(n, path, jsontext.Array); err != nil {
		return nil, err
	}
	if len(n.Elems) == 0 {
		return nil, errorf(path, "must have at least one dimension")
	}
	s := make(tensor.Shape, len(n.Elems))
	for i, e := range n.Elems {
		d, err := intIn(e, path+"["+strconv.Itoa(i)+"]", 1, nn.MaxElements)
		if err != nil {
			return nil, err
		}
		s[i] = d
	}
	return s, nil
}

// decodeTensor reads nested arrays of numbers with a rectangular shape.
func decodeTensor(n *jsontext.Value, path string) (*tensor.Tensor, error) {
	var shape tensor.Shape
	for e := n; e.Kind == jsontext.Array; e = e.Elems[0] {
		if len(e.Elems) == 0 {
			return nil, errorf(path, "empty array")
		}
		shape = append(shape, len(e.Elems))
	}
	if len(shape) == 0 {
		return nil, errorf(path, "want an array of numbers, got %s", what(n.Kind))
	}
	if !tensorWithin(shape) {
		return nil, errorf(path, "more than %d values", nn.MaxElements)
	}
	t := tensor.Zeros(shape)
	k := 0
	var walk func(e *jsontext.Value, p string, d int) error
	walk = func(e *jsontext.Value, p string, d int) error {
		if d == len(shape) {
			v, err := floatOf(e, p)
			t.Data[k] = v
			k++
			return err
		}
		if e.Kind != jsontext.Array {
			return errorf(p, "want an array of %d values, got %s", shape[d], what(e.Kind))
		}
		if len(e.Elems) != shape[d] {
			return errorf(p, "has %d values, want %d like the first at this depth (shape %v)", len(e.Elems), shape[d], shape)
		}
		for i, c := range e.Elems {
			if err := walk(c, p+"["+strconv.Itoa(i)+"]", d+1); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(n, path, 0); err != nil {
		return nil, err
	}
	return t, nil
}

func tensorWithin(s tensor.Shape) bool {
	n := 1
	for _, d := range s {
		n *= d
		if n > nn.MaxElements {
			return false
		}
	}
	return true
}

func decodeTraining(root *jsontext.Value, m *Model) error {
	if n := root.Field("dataset"); n != nil {
		if err := decodeDataset(n, &m.Dataset); err != nil {
			return err
		}
	}
	if n := root.Field("optimizer"); n != nil {
		if err := DecodeOptimizer(n, "optimizer", &m.Optimizer); err != nil {
			return err
		}
	}
	var err error
	if n := root.Field("batch_size"); n != nil {
		if m.BatchSize, err = intIn(n, "batch_size", 1, train.MaxBatch); err != nil {
			return err
		}
	}
	if n := root.Field("steps"); n != nil {
		if m.Steps, err = intIn(n, "steps", 1, MaxSteps); err != nil {
			return err
		}
	}
	return nil
}

var datasetFields = []string{"name", "n", "noise", "train_split", "seed"}

func decodeDataset(n *jsontext.Value, d *train.DataConfig) error {
	if err := want(n, "dataset", jsontext.Object); err != nil {
		return err
	}
	if err := checkKeys(n, "dataset", datasetFields, "dataset"); err != nil {
		return err
	}
	nn := n.Field("name")
	if nn == nil {
		return errorf("dataset.name", "missing (want one of %s)", datasetNames())
	}
	name, err := stringOf(nn, "dataset.name")
	if err != nil {
		return err
	}
	*d = train.DefaultData(name)
	f := fieldReader{n: n, path: "dataset", typ: "dataset"}
	return f.all(f.int("n", false, &d.N), f.float("noise", &d.Noise), f.float("train_split", &d.TrainSplit), f.uint64("seed", &d.Seed))
}

var optimizerFields = []string{"name", "lr", "momentum", "betas", "eps", "weight_decay"}

// DecodeOptimizer reads n, an optimizer object as the model document's
// "optimizer" field holds it, into o: settings left out keep the named
// optimizer's defaults. Errors name the field under path, e.g.
// "optimizer.lr" or "compare[1].betas[0]". The settings' ranges are
// o.Check's.
func DecodeOptimizer(n *jsontext.Value, path string, o *train.OptimizerConfig) error {
	if err := want(n, path, jsontext.Object); err != nil {
		return err
	}
	if err := checkKeys(n, path, optimizerFields, "optimizer"); err != nil {
		return err
	}
	name := "sgd"
	if nn := n.Field("name"); nn != nil {
		var err error
		if name, err = stringOf(nn, join(path, "name")); err != nil {
			return err
		}
	}
	*o = train.DefaultOptimizer(name)
	f := fieldReader{n: n, path: path, typ: "optimizer"}
	if err := f.all(f.float("lr", &o.LR), f.float("momentum", &o.Momentum), f.float("eps", &o.Eps), f.float("weight_decay", &o.WeightDecay)); err != nil {
		return err
	}
	if b := n.Field("betas"); b != nil {
		if err := want(b, join(path, "betas"), jsontext.Array); err != nil {
			return err
		}
		if len(b.Elems) != 2 {
			return errorf(join(path, "betas"), "want 2 numbers, got %d", len(b.Elems))
		}
		for i, e := range b.Elems {
			v, err := floatOf(e, join(path, "betas")+"["+strconv.Itoa(i)+"]")
			if err != nil {
				return err
			}
			o.Betas[i] = v
		}
	}
	return nil
}

func (f fieldReader) uint64(key string, dst *uint64) error {
	v := f.n.Field(key)
	if v == nil {
		return nil
	}
	u, err := uint64Of(v, join(f.path, key))
	*dst = u
	return err
}

func datasetNames() string {
	s := ""
	for i, n := range append(train.DatasetNames(), train.ImageDatasetNames()...) {
		if i > 0 {
			s += ", "
		}
		s += n
	}
	return s
}

func quote(s string) string { return strconv.Quote(s) }
