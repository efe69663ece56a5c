#!/usr/bin/python3
"""PyTorch float32 results for engine/nn's precision tests.

Each golden case (golden/*.json, written by torch_ref.py) is run again by
PyTorch in float32: the model built as torch_ref.py builds it, its params,
batch and targets converted to float32, one forward pass with the loss and
one backward pass. It writes float32/NAME.json with the loss, the outputs
and every parameter's gradient; precision_test.go compares nn.Pass in
float32 storage with them.

Regenerate (needs torch): /usr/bin/python3 engine/nn/testdata/torch_float32.py
"""
import glob
import json
import os
import sys

import torch
import torch.nn as tnn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from torch_ref import build, nested  # noqa: E402 (torch_ref sets float64)

torch.set_default_dtype(torch.float32)


def main():
    for path in sorted(glob.glob(os.path.join(HERE, "golden", "*.json"))):
        with open(path) as f:
            g = json.load(f)
        doc = g["model"]
        model, out_shape = build(doc["input"], doc["layers"])
        with torch.no_grad():
            for k, v in model.state_dict().items():
                if k in doc["params"]:
                    v.copy_(torch.tensor(doc["params"][k], dtype=torch.float32))
        model.train(g["mode"] == "train")
        x = torch.tensor(g["x"], dtype=torch.float32)
        x = x.reshape([x.shape[0]] + doc["input"])
        if doc["loss"] == "cross_entropy":
            y, crit = torch.tensor(g["y"], dtype=torch.long), tnn.CrossEntropyLoss()
        else:
            y = torch.tensor(g["y"], dtype=torch.float32).reshape([x.shape[0]] + out_shape)
            crit = tnn.BCEWithLogitsLoss() if doc["loss"] == "bce_with_logits" else tnn.MSELoss()
        out = model(x)
        loss = crit(out, y)
        loss.backward()
        res = {"dtype": "float32", "torch": torch.__version__, "loss": loss.item(), "output": nested(out),
               "grads": {k: nested(p.grad) for k, p in model.named_parameters()}}
        with open(os.path.join(HERE, "float32", os.path.basename(path)), "w") as f:
            json.dump(res, f, indent=1)
            f.write("\n")
        print(os.path.basename(path), loss.item())


if __name__ == "__main__":
    main()
