package program

import (
	"testing"

	"tapelab/engine/op"
)

// calls holds, for every op of the catalogue, a program that calls it by
// its name (the last line), with its attributes as keyword arguments.
var calls = map[string]string{
	"add":             "y = add(a, m)",
	"sub":             "y = sub(a, m)",
	"mul":             "y = mul(a, m)",
	"div":             "y = div(a, m)",
	"max":             "y = max(a, m)",
	"min":             "y = min(a, m)",
	"neg":             "y = neg(a)",
	"scale":           "y = scale(a, alpha=-1.5)",
	"add_bias":        "y = add_bias(a, v)",
	"matmul":          "y = matmul(a, transpose(m))",
	"linear":          "y = linear(a, m, [0.5, -0.5])",
	"tanh":            "y = tanh(a)",
	"relu":            "y = relu(a)",
	"leaky_relu":      "y = leaky_relu(a, alpha=0.2)",
	"sigmoid":         "y = sigmoid(a)",
	"gelu":            "y = gelu(a)",
	"exp":             "y = exp(a)",
	"log":             "y = log(m)",
	"sqrt":            "y = sqrt(m)",
	"abs":             "y = abs(a)",
	"square":          "y = square(a)",
	"pow":             "y = pow(m, alpha=1.5)",
	"softmax":         "y = softmax(a)",
	"log_softmax":     "y = log_softmax(a)",
	"sum":             "y = sum(a)",
	"mean":            "y = mean(a)",
	"reduce_sum":      "y = reduce_sum(a, axis=1)",
	"reduce_mean":     "y = reduce_mean(a, axis=-1)",
	"reshape":         "y = reshape(a, shape=[4, 1])",
	"flatten":         "y = flatten(a)",
	"transpose":       "y = transpose(a)",
	"concat":          "y = concat(a, m, a, axis=0)",
	"detach":          "y = detach(a) * a",
	"broadcast_to":    "y = broadcast_to(v, shape=[4, 2])",
	"dropout":         "y = dropout(a, alpha=0.5, seed=3)",
	"mse_loss":        "y = mse_loss(a, m)",
	"cross_entropy":   "y = cross_entropy(a, [1, 0])",
	"bce_with_logits": "y = bce_with_logits(a, [[0, 1], [1, 0]])",
	"conv2d":          "y = conv2d(reshape(a, shape=[1, 1, 2, 2]), [[[[1, -1], [0.5, 2]]]], [0.25], padding=1)",
	"max_pool2d":      "y = max_pool2d(reshape(m, shape=[1, 1, 2, 2]), kernel=2)",
	"avg_pool2d":      "y = avg_pool2d(reshape(m, shape=[1, 1, 2, 2]), kernel=2)",
	"batch_norm":      "y = batch_norm(a, v, v)",
	"batch_norm_eval": "y = batch_norm_eval(a, v, v, [0, 1], [1, 2], eps=0.001)",
	"layer_norm":      "y = layer_norm(a, v, v, eps=0.001)",
}

// callPrelude defines the values the calls use: a and m are [2 2]
// (m positive), v is [2].
const callPrelude = "a = param([[0.5, -1.25], [2, 0.75]])\nm = input([[1.5, 0.25], [3, 2]])\nv = param([0.5, -2])\n"

// TestEveryOpIsReachable calls every op of the catalogue by name, with its
// attributes as keyword arguments, checks that the node the call makes
// applies that op, and runs it eagerly and compiled, bit for bit alike.
func TestEveryOpIsReachable(t *testing.T) {
	for _, o := range op.All() {
		line, ok := calls[o.Name]
		if !ok {
			t.Errorf("op %s: no program calls it (add one to calls)", o.Name)
			continue
		}
		p, err := Parse(callPrelude + line)
		if err != nil {
			t.Errorf("%s: %v", o.Name, err)
			continue
		}
		found := false
		for _, s := range p.steps {
			found = found || s.op == o
		}
		if !found {
			t.Errorf("%s: %q applies no %s node", o.Name, line, o.Name)
		}
		r, err := runBoth(p)
		if err != nil {
			t.Errorf("%s: %v", o.Name, err)
			continue
		}
		if m := r.mismatch(); m != "" {
			t.Errorf("%s: %s", o.Name, m)
		}
	}
}

// TestOpAttrsNameCatalogueOps keeps the attribute table in step with the
// catalogue: every entry names an op.
func TestOpAttrsNameCatalogueOps(t *testing.T) {
	for name := range opAttrs {
		if _, ok := op.Lookup(name); !ok {
			t.Errorf("opAttrs lists %s, which is not in the catalogue", name)
		}
	}
}
