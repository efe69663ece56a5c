#!/usr/bin/python3
"""Golden gradients from PyTorch for engine/nn's tests.

Each case is a model document (engine/spec v1) whose every parameter is given
explicitly, a batch x, targets y and a mode. PyTorch (float64) runs one
forward pass with the loss and one backward pass and records the loss, the
outputs, every parameter's gradient and (train mode) the updated batch-norm
running statistics. golden_test.go replays each case through spec.Decode,
Model.Build and nn.Pass and compares.

Regenerate (needs torch; `apt-get install python3-torch` on Debian):

    /usr/bin/python3 engine/nn/testdata/torch_ref.py

It rewrites engine/nn/testdata/golden/*.json; commit them.
"""
import json
import os

import torch
import torch.nn as tnn

torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(os.path.abspath(__file__))

CASES = [
    ("mlp_tanh_mse", [2], [{"type": "linear", "out": 5}, {"type": "tanh"}, {"type": "linear", "out": 1}], "mse", "train", 4),
    ("relu_ce_nobias", [3], [{"type": "linear", "out": 6, "bias": False}, {"type": "relu"}, {"type": "linear", "out": 4}], "cross_entropy", "train", 5),
    ("leaky_sigmoid_bce", [3], [{"type": "linear", "out": 4}, {"type": "leaky_relu", "negative_slope": 0.2}, {"type": "linear", "out": 2},
                                {"type": "sigmoid"}, {"type": "linear", "out": 2}], "bce_with_logits", "train", 3),
    ("leaky_default", [2], [{"type": "linear", "out": 3}, {"type": "leaky_relu"}, {"type": "linear", "out": 2}], "mse", "eval", 4),
    ("gelu_softmax_mse", [4], [{"type": "linear", "out": 5}, {"type": "gelu"}, {"type": "linear", "out": 3}, {"type": "softmax"}], "mse", "train", 3),
    ("batch_norm_train", [3], [{"type": "linear", "out": 4}, {"type": "batch_norm"}, {"type": "relu"}, {"type": "linear", "out": 2}], "mse", "train", 6),
    ("batch_norm_options", [3], [{"type": "batch_norm", "eps": 0.001, "momentum": 0.3}, {"type": "linear", "out": 2}], "cross_entropy", "train", 4),
    ("batch_norm_eval", [3], [{"type": "linear", "out": 4}, {"type": "batch_norm"}, {"type": "tanh"}, {"type": "linear", "out": 2}], "mse", "eval", 5),
    ("cnn_ce", [2, 6, 6], [{"type": "conv2d", "out_channels": 3, "kernel_size": 3, "padding": 1}, {"type": "relu"},
                           {"type": "max_pool2d", "kernel_size": 2}, {"type": "conv2d", "out_channels": 2, "kernel_size": 2, "stride": 2},
                           {"type": "flatten"}, {"type": "linear", "out": 3}], "cross_entropy", "train", 3),
    ("conv_stride_pool", [1, 7, 5], [{"type": "conv2d", "out_channels": 2, "kernel_size": 3, "stride": 2, "padding": 1}, {"type": "tanh"},
                                     {"type": "max_pool2d", "kernel_size": 2, "stride": 1}, {"type": "flatten"}, {"type": "linear", "out": 1}],
     "bce_with_logits", "train", 2),
    ("dropout_eval", [3], [{"type": "linear", "out": 4}, {"type": "dropout", "p": 0.5}, {"type": "linear", "out": 1}], "mse", "eval", 4),
    ("flatten_linear", [2, 2, 3], [{"type": "flatten"}, {"type": "linear", "out": 2}, {"type": "gelu"}], "mse", "train", 3),
    ("layer_norm", [3], [{"type": "linear", "out": 5}, {"type": "layer_norm"}, {"type": "tanh"}, {"type": "linear", "out": 3}], "cross_entropy", "train", 4),
    ("layer_norm_image", [2, 3, 4], [{"type": "layer_norm", "eps": 0.01}, {"type": "flatten"}, {"type": "linear", "out": 2}], "mse", "eval", 3),
    ("lenet_avg_pool", [1, 9, 9], [{"type": "conv2d", "out_channels": 3, "kernel_size": 3}, {"type": "tanh"},
                                   {"type": "avg_pool2d", "kernel_size": 2}, {"type": "conv2d", "out_channels": 2, "kernel_size": 2},
                                   {"type": "sigmoid"}, {"type": "avg_pool2d", "kernel_size": 2, "stride": 1},
                                   {"type": "flatten"}, {"type": "linear", "out": 3}], "cross_entropy", "train", 3),
]


def build(input_shape, layers):
    mods = []
    shape = list(input_shape)
    for l in layers:
        t = l["type"]
        if t == "linear":
            m = tnn.Linear(shape[0], l["out"], bias=l.get("bias", True))
        elif t == "relu":
            m = tnn.ReLU()
        elif t == "leaky_relu":
            m = tnn.LeakyReLU(l.get("negative_slope", 0.01))
        elif t == "tanh":
            m = tnn.Tanh()
        elif t == "sigmoid":
            m = tnn.Sigmoid()
        elif t == "softmax":
            m = tnn.Softmax(dim=-1)
        elif t == "gelu":
            m = tnn.GELU()
        elif t == "dropout":
            m = tnn.Dropout(l.get("p", 0.5))
        elif t == "batch_norm":
            m = tnn.BatchNorm1d(shape[0], eps=l.get("eps", 1e-5), momentum=l.get("momentum", 0.1))
        elif t == "layer_norm":
            m = tnn.LayerNorm(shape[-1], eps=l.get("eps", 1e-5))
        elif t == "flatten":
            m = tnn.Flatten()
        elif t == "conv2d":
            m = tnn.Conv2d(shape[0], l["out_channels"], l["kernel_size"], stride=l.get("stride", 1), padding=l.get("padding", 0))
        elif t == "max_pool2d":
            m = tnn.MaxPool2d(l["kernel_size"], stride=l.get("stride", l["kernel_size"]))
        elif t == "avg_pool2d":
            m = tnn.AvgPool2d(l["kernel_size"], stride=l.get("stride", l["kernel_size"]))
        else:
            raise ValueError(t)
        mods.append(m)
        with torch.no_grad():
            m.eval()
            shape = list(m(torch.zeros([2] + shape)).shape[1:])
    return tnn.Sequential(*mods), shape


def nested(t):
    return t.detach().tolist()


def main():
    gen = torch.Generator().manual_seed(20261129)
    for name, input_shape, layers, loss, mode, batch in CASES:
        model, out_shape = build(input_shape, layers)
        params = {}
        with torch.no_grad():
            for k, v in model.state_dict().items():
                if k.endswith("num_batches_tracked"):
                    continue
                r = torch.rand(v.shape, generator=gen) * 2 - 1
                if k.endswith("running_var"):
                    r = r.abs() + 0.5
                v.copy_(r)
                params[k] = nested(v)
        model.train(mode == "train")
        x = torch.randn([batch] + input_shape, generator=gen)
        if loss == "cross_entropy":
            y = torch.randint(0, out_shape[0], (batch,), generator=gen)
            crit = tnn.CrossEntropyLoss()
            y_json = y.tolist()
        elif loss == "bce_with_logits":
            y = torch.rand([batch] + out_shape, generator=gen)
            crit = tnn.BCEWithLogitsLoss()
            y_json = nested(y)
        else:
            y = torch.randn([batch] + out_shape, generator=gen)
            crit = tnn.MSELoss()
            y_json = nested(y)
        out = model(x)
        l = crit(out, y)
        l.backward()
        grads = {k: nested(p.grad) for k, p in model.named_parameters()}
        buffers = {k: nested(v) for k, v in model.state_dict().items()
                   if k.endswith("running_mean") or k.endswith("running_var")}
        doc = {"version": 1, "input": input_shape, "layers": layers, "loss": loss, "seed": 1, "params": params}
        golden = {"model": doc, "mode": mode, "x": nested(x.reshape(batch, -1)), "y": y_json,
                  "loss": l.item(), "output": nested(out), "grads": grads, "buffers": buffers,
                  "torch": torch.__version__}
        with open(os.path.join(HERE, "golden", name + ".json"), "w") as f:
            json.dump(golden, f, indent=1)
            f.write("\n")
        print(name, l.item())


if __name__ == "__main__":
    main()
