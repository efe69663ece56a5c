"""PyTorch contender for ./build.sh bench (run with /usr/bin/python3, Debian's python3-torch).

Same data, initial weights and schedule as bench/js/workloads.mjs and the Go
contenders: mulberry32 streams seeded 1 (data) and 42 (weights). One thread,
float32 (PyTorch's default dtype), plain nn.Conv2d, nn.MaxPool2d and
nn.Linear layers and torch.optim.SGD.
Prints one JSON line per workload.
"""
import json
import math
import sys
import time

import torch

torch.set_num_threads(1)

WORKLOADS = {
    "tiny": dict(sizes=[2, 16, 16, 1], act="tanh", loss="mse", n=256, batch=32, lr=0.1, warmup=500, warmup_ms=1000, runs=5, steps=500),
    "big": dict(sizes=[784, 128, 10], act="relu", loss="cross_entropy", n=640, batch=64, lr=0.1, warmup=5, warmup_ms=1000, runs=5, steps=30),
    # A CNN: per convolution (channels, kernels, paddings, pools) conv2d,
    # relu and, where the pool is over 1, max_pool2d; then flatten and sizes.
    "cnn": dict(sizes=[64, 10], image=[1, 8, 8], channels=[8, 16], kernels=[3, 3], paddings=[1, 0], pools=[2, 1], act="relu", loss="cross_entropy", n=640, batch=32, lr=0.05, warmup=20, warmup_ms=1000, runs=5, steps=100),
}


# The step whose loss every contender reports as loss_10 (bench/run.go's CheckStep).
CHECK_STEP = 10


def mulberry32(seed):
    a = seed & 0xFFFFFFFF

    def imul(x, y):
        return (x * y) & 0xFFFFFFFF

    def nxt():
        nonlocal a
        a = (a + 0x6D2B79F5) & 0xFFFFFFFF
        t = imul(a ^ (a >> 15), 1 | a)
        t = ((t + imul(t ^ (t >> 7), 61 | t)) & 0xFFFFFFFF) ^ t
        return ((t ^ (t >> 14)) & 0xFFFFFFFF) / 4294967296

    return nxt


def input_size(w):
    return math.prod(w["image"]) if "image" in w else w["sizes"][0]


def data(w):
    rnd = mulberry32(1)
    d = input_size(w)
    x = [2 * rnd() - 1 for _ in range(w["n"] * d)]
    y = []
    for i in range(w["n"]):
        if w["loss"] == "mse":
            y.append(math.sin(3 * x[i * d]) * x[i * d + 1])
        else:
            y.append(min(9, math.floor(rnd() * 10)))
    return x, y


def fill(layer, fin, rnd):
    """Sets layer's weight then bias uniform in ±1/sqrt(fin) from rnd."""
    k = 1 / math.sqrt(fin)
    with torch.no_grad():
        wt = layer.weight
        wt.copy_(torch.tensor([(2 * rnd() - 1) * k for _ in range(wt.numel())]).reshape(wt.shape))
        layer.bias.copy_(torch.tensor([(2 * rnd() - 1) * k for _ in range(layer.bias.numel())]))


def model(w):
    rnd = mulberry32(42)
    layers = []
    if "image" in w:
        c = w["image"][0]
        for out, k, pad, pool in zip(w["channels"], w["kernels"], w["paddings"], w["pools"]):
            conv = torch.nn.Conv2d(c, out, k, padding=pad)
            fill(conv, c * k * k, rnd)
            layers += [conv, torch.nn.ReLU()]
            if pool > 1:
                layers.append(torch.nn.MaxPool2d(pool))
            c = out
        layers.append(torch.nn.Flatten())
    sizes = w["sizes"]
    for l in range(1, len(sizes)):
        fin, fout = sizes[l - 1], sizes[l]
        lin = torch.nn.Linear(fin, fout)
        fill(lin, fin, rnd)
        layers.append(lin)
        if l < len(sizes) - 1:
            layers.append(torch.nn.Tanh() if w["act"] == "tanh" else torch.nn.ReLU())
    return torch.nn.Sequential(*layers)


def run(name, w):
    x, y = data(w)
    b = w["batch"]
    X = torch.tensor(x).reshape(w["n"], *w.get("image", w["sizes"][:1]))
    if w["loss"] == "mse":
        Y = torch.tensor(y).reshape(w["n"], 1)
        loss_fn = torch.nn.MSELoss()
    else:
        Y = torch.tensor(y, dtype=torch.long)
        loss_fn = torch.nn.CrossEntropyLoss()
    nb = w["n"] // b
    xs = [X[i * b:(i + 1) * b].contiguous() for i in range(nb)]
    ys = [Y[i * b:(i + 1) * b].contiguous() for i in range(nb)]
    net = model(w)
    opt = torch.optim.SGD(net.parameters(), lr=w["lr"])
    it = 0

    def step():
        nonlocal it
        k = it % nb
        it += 1
        opt.zero_grad()
        loss = loss_fn(net(xs[k]), ys[k])
        loss.backward()
        opt.step()
        return loss

    loss_first = step().item()
    warm = time.perf_counter() + w["warmup_ms"] / 1000
    done = 1
    loss_10 = None
    while done < max(w["warmup"], CHECK_STEP) or time.perf_counter() < warm:
        loss = step()
        done += 1
        if done == CHECK_STEP:
            loss_10 = loss.item()
    rates = []
    loss = None
    for _ in range(w["runs"]):
        t0 = time.perf_counter()
        for _ in range(w["steps"]):
            loss = step()
        rates.append(w["steps"] / (time.perf_counter() - t0))
    s = sorted(rates)
    m = len(s) // 2
    med = s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2
    print(json.dumps(dict(contender="pytorch", workload=name, steps_per_s=med, runs=rates,
                          loss_first=loss_first, loss_10=loss_10, loss_last=loss.item(), torch=torch.__version__)))


if __name__ == "__main__":
    only = sys.argv[1] if len(sys.argv) > 1 else None
    for name, w in WORKLOADS.items():
        if only in (None, name):
            run(name, w)
