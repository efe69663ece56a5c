package spec

import (
	"errors"
	"strings"
	"testing"
)

const example = `{"version": 1, "input": [2],
 "layers": [{"type": "linear", "out": 16}, {"type": "tanh"}, {"type": "linear", "out": 1}],
 "loss": "mse", "seed": 7,
 "params": {"0.weight": [[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],
   [0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2],[0.1, -0.2]], "2.bias": [0.0]}}`

// doc builds a document from the example's head with extra top-level fields.
func doc(layers, extra string) string {
	return `{"version":1,"input":[2],"layers":[` + layers + `],"loss":"mse"` + extra + `}`
}

func TestDecodeExample(t *testing.T) {
	m, err := Decode([]byte(example))
	if err != nil {
		t.Fatal(err)
	}
	if m.Seed != 7 || len(m.Layers) != 3 || m.Loss != "mse" || len(m.Params) != 2 {
		t.Fatalf("decoded %+v", m)
	}
	nm, err := m.Build()
	if err != nil {
		t.Fatal(err)
	}
	w := nm.Params[nm.Index("0.weight")]
	if w.At(15, 1) != -0.2 || nm.Params[nm.Index("2.bias")].Data[0] != 0 {
		t.Errorf("params not applied: %v", w)
	}
	if b := nm.Params[nm.Index("0.bias")]; b.Data[0] == 0 {
		t.Errorf("0.bias was not initialised from the seed: %v", b)
	}
}

func TestDecodeErrors(t *testing.T) {
	tests := []struct {
		name, doc, want string
	}{
		{"not json", `{"version":1,`, "invalid JSON: unexpected end of input"},
		{"syntax", "{\"version\":1,\n \"input\": [2,}", "invalid JSON at line 2, column 14: invalid character '}' looking for beginning of value"},
		{"trailing", `{} {}`, "invalid JSON at line 1, column 4: more data after the model document"},
		{"not object", `[1]`, "a model document must be a JSON object, got an array"},
		{"unknown top", doc(`{"type":"relu"}`, `,"lr":1`), "lr: unknown field for a model document (want version, input, layers, loss, seed, init, params, dataset, optimizer, batch_size, steps)"},
		{"duplicate", `{"version":1,"version":1}`, "version: appears more than once"},
		{"no version", `{"input":[2]}`, "version: missing (want 1)"},
		{"version 2", `{"version":2}`, "version: unsupported version 2 (this build reads version 1)"},
		{"version type", `{"version":"1"}`, "version: want a number, got a string"},
		{"no input", `{"version":1}`, "input: missing (the shape of one example, e.g. [2])"},
		{"empty input", `{"version":1,"input":[]}`, "input: must have at least one dimension"},
		{"zero dim", `{"version":1,"input":[2,0]}`, "input[1]: must be ≥ 1"},
		{"fraction dim", `{"version":1,"input":[2.5]}`, "input[0]: must be a whole number, got 2.5"},
		{"no layers", `{"version":1,"input":[2],"loss":"mse"}`, "layers: missing (a list of layers)"},
		{"empty layers", doc(``, ``), "layers: must have at least one layer"},
		{"layer not object", doc(`"relu"`, ``), "layers[0]: want an object, got a string"},
		{"no type", doc(`{"out":3}`, ``), "layers[0].type: missing (want one of linear, relu, leaky_relu, tanh, sigmoid, softmax, gelu, dropout, batch_norm, layer_norm, flatten, conv2d, max_pool2d, avg_pool2d)"},
		{"unknown type", doc(`{"type":"lstm"}`, ``), `layers[0].type: unknown layer type "lstm" (want one of linear, relu, leaky_relu, tanh, sigmoid, softmax, gelu, dropout, batch_norm, layer_norm, flatten, conv2d, max_pool2d, avg_pool2d)`},
		{"missing out", doc(`{"type":"linear","out":4},{"type":"tanh"},{"type":"linear"}`, ``), "layers[2].out: missing (linear needs out)"},
		{"negative out", doc(`{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":-3}`, ``), "layers[2].out: must be ≥ 1"},
		{"zero out", doc(`{"type":"linear","out":4},{"type":"tanh"},{"type":"linear","out":0}`, ``), "layers[2].out: must be ≥ 1"},
		{"out type", doc(`{"type":"linear","out":"4"}`, ``), "layers[0].out: want a number, got a string"},
		{"bias type", doc(`{"type":"linear","out":4,"bias":1}`, ``), "layers[0].bias: want true/false, got a number"},
		{"unknown layer field", doc(`{"type":"linear","out":4,"outs":2}`, ``), "layers[0].outs: unknown field for linear (want type, out, bias)"},
		{"field on relu", doc(`{"type":"relu","p":0.5}`, ``), "layers[0].p: unknown field for relu (want type)"},
		{"p one", doc(`{"type":"dropout","p":1}`, ``), "layers[0].p: must be in [0, 1)"},
		{"p negative", doc(`{"type":"dropout","p":-0.1}`, ``), "layers[0].p: must be in [0, 1)"},
		{"p huge", doc(`{"type":"dropout","p":1e999}`, ``), "layers[0].p: 1e999 is out of range for a float64"},
		{"eps zero", doc(`{"type":"batch_norm","eps":0}`, ``), "layers[0].eps: must be a finite number > 0"},
		{"momentum", doc(`{"type":"batch_norm","momentum":1.5}`, ``), "layers[0].momentum: must be in [0, 1]"},
		{"layer_norm eps", doc(`{"type":"layer_norm","eps":-1e-5}`, ``), "layers[0].eps: must be a finite number > 0"},
		{"layer_norm field", doc(`{"type":"layer_norm","momentum":0.1}`, ``), "layers[0].momentum: unknown field for layer_norm (want type, eps)"},
		{"conv missing kernel", `{"version":1,"input":[1,5,5],"layers":[{"type":"conv2d","out_channels":2}],"loss":"mse"}`, "layers[0].kernel_size: missing (conv2d needs kernel_size)"},
		{"conv stride", `{"version":1,"input":[1,5,5],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3,"stride":0}],"loss":"mse"}`, "layers[0].stride: must be ≥ 1"},
		{"conv padding", `{"version":1,"input":[1,5,5],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3,"padding":-1}],"loss":"mse"}`, "layers[0].padding: must be ≥ 0"},
		{"shapes do not chain", `{"version":1,"input":[1,5,5],"layers":[{"type":"conv2d","out_channels":2,"kernel_size":3},{"type":"linear","out":2}],"loss":"mse"}`,
			"layers[1]: layer 1 (linear, expects [features]) cannot follow layer 0 (conv2d, gives [2 3 3])"},
		{"input does not fit", doc(`{"type":"max_pool2d","kernel_size":2}`, ``), "layers[0]: layer 0 (max_pool2d, expects [C H W]) cannot take the model input [2]"},
		{"too large", doc(`{"type":"linear","out":16777216}`, ``), "layers[0]: layer 0 (linear): weight [16777216 2] has more than 16777216 elements"},
		{"no loss", `{"version":1,"input":[2],"layers":[{"type":"relu"}]}`, "loss: missing (want mse, cross_entropy, bce_with_logits)"},
		{"unknown loss", `{"version":1,"input":[2],"layers":[{"type":"relu"}],"loss":"l1"}`, `loss: unknown loss "l1" (want mse, cross_entropy, bce_with_logits)`},
		{"ce on images", `{"version":1,"input":[1,4,4],"layers":[{"type":"relu"}],"loss":"cross_entropy"}`, "loss: cross_entropy needs 1-D logits [classes], the model gives [1 4 4]"},
		{"seed negative", doc(`{"type":"relu"}`, `,"seed":-1`), "seed: must be a whole number from 0 to 18446744073709551615, got -1"},
		{"init", doc(`{"type":"relu"}`, `,"init":"he"`), `init: unknown scheme "he" (want pytorch, xavier)`},
		{"param name", doc(`{"type":"linear","out":1}`, `,"params":{"1.weight":[[1,2]]}`), `params["1.weight"]: no such parameter (the model has 0.weight, 0.bias)`},
		{"param shape", doc(`{"type":"linear","out":16}`, `,"params":{"0.weight":[[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16],[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16]]}`), `params["0.weight"]: shape [16 2] expected, got [2 16]`},
		{"param ragged", doc(`{"type":"linear","out":2}`, `,"params":{"0.weight":[[1,2],[3]]}`), `params["0.weight"][1]: has 1 values, want 2 like the first at this depth (shape [2 2])`},
		{"param value", doc(`{"type":"linear","out":2}`, `,"params":{"0.bias":[1,"x"]}`), `params["0.bias"][1]: want a number, got a string`},
		{"param scalar", doc(`{"type":"linear","out":2}`, `,"params":{"0.bias":3}`), `params["0.bias"]: want an array of numbers, got a number`},
		{"param mixed depth", doc(`{"type":"linear","out":2}`, `,"params":{"0.weight":[[1,2],4]}`), `params["0.weight"][1]: want an array of 2 values, got a number`},
		{"dataset name", doc(`{"type":"linear","out":1}`, `,"dataset":{"name":"iris"}`), `dataset.name: unknown dataset "iris" (want circle, xor, gauss, spiral, reg-plane, reg-gauss, moons, sine, digits, shapes)`},
		{"dataset missing name", doc(`{"type":"linear","out":1}`, `,"dataset":{"noise":0.1}`), `dataset.name: missing (want one of circle, xor, gauss, spiral, reg-plane, reg-gauss, moons, sine, digits, shapes)`},
		{"dataset noise", doc(`{"type":"linear","out":1}`, `,"dataset":{"name":"xor","noise":2}`), `dataset.noise: must be in [0, 1]`},
		{"dataset split", doc(`{"type":"linear","out":1}`, `,"dataset":{"name":"xor","train_split":0}`), `dataset.train_split: must be in (0, 1]`},
		{"dataset n", doc(`{"type":"linear","out":1}`, `,"dataset":{"name":"xor","n":1}`), `dataset.n: must be a whole number from 2 to 100000`},
		{"dataset field", doc(`{"type":"linear","out":1}`, `,"dataset":{"name":"xor","size":1}`), `dataset.size: unknown field for dataset (want name, n, noise, train_split, seed)`},
		{"dataset fit", doc(`{"type":"linear","out":3}`, `,"dataset":{"name":"xor"}`), `dataset: examples have 1 targets, the model output [3] needs 3`},
		{"dataset input", `{"version":1,"input":[3],"layers":[{"type":"linear","out":1}],"loss":"mse","dataset":{"name":"circle"}}`, `dataset: examples have 2 features, the model input [3] needs 3`},
		{"regression ce", `{"version":1,"input":[2],"layers":[{"type":"linear","out":2}],"loss":"cross_entropy","dataset":{"name":"reg-plane"}}`, `dataset: reg-plane is a regression set (numeric targets); it trains with loss mse, not cross_entropy`},
		{"optimizer name", doc(`{"type":"relu"}`, `,"optimizer":{"name":"rmsprop"}`), `optimizer.name: unknown optimizer "rmsprop" (want sgd, momentum, adam)`},
		{"optimizer lr", doc(`{"type":"relu"}`, `,"optimizer":{"lr":0}`), `optimizer.lr: must be a finite number > 0`},
		{"optimizer betas", doc(`{"type":"relu"}`, `,"optimizer":{"name":"adam","betas":[0.9,1]}`), `optimizer.betas[1]: must be in [0, 1)`},
		{"optimizer betas len", doc(`{"type":"relu"}`, `,"optimizer":{"name":"adam","betas":[0.9]}`), `optimizer.betas: want 2 numbers, got 1`},
		{"batch size", doc(`{"type":"relu"}`, `,"batch_size":0`), `batch_size: must be ≥ 1`},
		{"steps", doc(`{"type":"relu"}`, `,"steps":1.5`), `steps: must be a whole number, got 1.5`},
		{"deep", `{"version":1,"input":[2],"layers":[{"type":"relu"}],"loss":"mse","params":{"x":` + strings.Repeat("[", 40) + strings.Repeat("]", 40) + `}}`, `params["x"][0][0][0][0][0][0][0][0][0][0][0][0][0][0][0]: nested more than 16 levels deep`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			m, err := Decode([]byte(tc.doc))
			if err == nil {
				t.Fatalf("no error; decoded %+v", m)
			}
			var se *Error
			if !errors.As(err, &se) {
				t.Errorf("error %T is not a *spec.Error", err)
			}
			if err.Error() != tc.want {
				t.Errorf("err  = %s\nwant = %s", err, tc.want)
			}
		})
	}
}
