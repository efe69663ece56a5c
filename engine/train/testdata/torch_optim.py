#!/usr/bin/python3
"""Golden optimizer trajectories from torch.optim for engine/train's tests.

A small model (linear 3→4, tanh, linear 4→2, MSE) with fixed weights is
trained for 4 steps on one fixed batch with each optimizer setting; the
parameters after every step are recorded. optimizer_test.go replays the
same steps with train.NewOptimizer on the gradients of nn.Pass and compares.

Regenerate (needs torch; `apt-get install python3-torch` on Debian):

    /usr/bin/python3 engine/train/testdata/torch_optim.py

It rewrites engine/train/testdata/optim_golden.json and, for the page's
update phase (e2e/update_test.go, whose link carries one target per
example), optim_golden_1.json: the same with two inputs (as the page's 2-D
datasets have) and a linear 4→1 output with one target column; commit
them.
"""
import json
import os

import torch

torch.set_default_dtype(torch.float64)
HERE = os.path.dirname(os.path.abspath(__file__))

SETTINGS = [
    {"name": "sgd", "lr": 0.1},
    {"name": "sgd", "lr": 0.05, "weight_decay": 0.01},
    {"name": "momentum", "lr": 0.05, "momentum": 0.9},
    {"name": "momentum", "lr": 0.02, "momentum": 0.5, "weight_decay": 0.1},
    {"name": "adam", "lr": 0.01},
    {"name": "adam", "lr": 0.03, "betas": [0.5, 0.9], "eps": 1e-6, "weight_decay": 0.05},
]


def main():
    write(3, 2, "optim_golden.json")
    write(2, 1, "optim_golden_1.json")


def write(ins, outs, name):
    gen = torch.Generator().manual_seed(7)
    init = {
        "0.weight": torch.rand(4, ins, generator=gen) - 0.5,
        "0.bias": torch.rand(4, generator=gen) - 0.5,
        "2.weight": torch.rand(outs, 4, generator=gen) - 0.5,
        "2.bias": torch.rand(outs, generator=gen) - 0.5,
    }
    x = torch.randn(5, ins, generator=gen)
    y = torch.randn(5, outs, generator=gen)
    out = {"init": {k: v.tolist() for k, v in init.items()}, "x": x.tolist(), "y": y.tolist(), "runs": []}
    for s in SETTINGS:
        model = torch.nn.Sequential(torch.nn.Linear(ins, 4), torch.nn.Tanh(), torch.nn.Linear(4, outs))
        model.load_state_dict({k: v.clone() for k, v in init.items()})
        wd = s.get("weight_decay", 0)
        if s["name"] == "adam":
            opt = torch.optim.Adam(model.parameters(), lr=s["lr"], betas=tuple(s.get("betas", (0.9, 0.999))),
                                   eps=s.get("eps", 1e-8), weight_decay=wd)
        else:
            opt = torch.optim.SGD(model.parameters(), lr=s["lr"], momentum=s.get("momentum", 0), weight_decay=wd)
        steps = []
        for _ in range(4):
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(x), y)
            loss.backward()
            opt.step()
            steps.append({k: v.tolist() for k, v in model.state_dict().items()})
        out["runs"].append({"settings": s, "steps": steps})
    with open(os.path.join(HERE, name), "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
