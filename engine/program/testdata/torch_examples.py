# Writes torch_examples.json: every gallery example (../examples/*.tl) and
# every test program (programs/*.tl) run by PyTorch in float64, its output
# and the gradient of every param and input; torch_grads.json, the same
# for the programs with grad (grad/*.tl), where grad(y, x) is
# torch.autograd.grad(y, x, create_graph=True), so the final backward
# differentiates through every grad; and torch_float32.json, all of them
# run in float32 (PyTorch's float32 kernels, which accumulate in float32).
# The program language is a subset of Python's expression syntax, so this
# script reads each program with Python's own parser and evaluates it with
# PyTorch's operators (broadcasting, @, **) and functions.
#
# Run from engine/program: /usr/bin/python3 testdata/torch_examples.py
import ast, json, os, sys
import torch
import torch.nn.functional as F

DTYPE = torch.float64
here = os.path.dirname(os.path.abspath(__file__))
examples = os.path.join(here, "..", "examples")


def T(v, grad=False):
    return torch.tensor(v, dtype=DTYPE, requires_grad=grad)


def reduce(f):
    def g(x, axis=None):
        return f(x) if axis is None else f(x, dim=axis)
    return g


FUNCS = {
    "tanh": torch.tanh, "sigmoid": torch.sigmoid, "relu": torch.relu,
    "exp": torch.exp, "log": torch.log, "sqrt": torch.sqrt, "abs": torch.abs,
    "square": torch.square, "neg": torch.neg,
    "sum": reduce(torch.sum), "mean": reduce(torch.mean),
    "softmax": lambda x: torch.softmax(x, dim=-1),
    "log_softmax": lambda x: torch.log_softmax(x, dim=-1),
    "transpose": lambda x: x.T,
    "mse_loss": F.mse_loss,
    "cross_entropy": lambda z, c: F.cross_entropy(z, c.long()),
    "linear": F.linear,
    "max": torch.maximum, "min": torch.minimum,
    "flatten": lambda x: torch.flatten(x, 1),
    "conv2d": lambda x, w, b, stride=1, padding=0: F.conv2d(x, w, b, stride=stride, padding=padding),
    "max_pool2d": lambda x, kernel, stride=None: F.max_pool2d(x, kernel, stride or kernel),
    "avg_pool2d": lambda x, kernel, stride=None: F.avg_pool2d(x, kernel, stride or kernel),
    "grad": lambda y, x: grad(y, x),
    "gelu": F.gelu,
    "leaky_relu": lambda x, alpha=0.01: F.leaky_relu(x, alpha),
    "bce_with_logits": F.binary_cross_entropy_with_logits,
    "reshape": lambda x, shape: torch.reshape(x, shape),
    "concat": lambda *xs, axis=0: torch.cat(xs, dim=axis),
    "layer_norm": lambda x, g, b, eps=1e-5: F.layer_norm(x, (x.shape[-1],), g, b, eps),
    "batch_norm": lambda x, g, b, eps=1e-5: F.batch_norm(x, None, None, g, b, training=True, eps=eps),
}


def grad(y, x):
    g, = torch.autograd.grad(y, x, create_graph=True, allow_unused=True)
    return torch.zeros_like(x) if g is None else g


def lit(node):
    return ast.literal_eval(node)


def run(text):
    env, leaves = {}, []

    def ev(n):
        if isinstance(n, ast.Constant):
            return float(n.value)
        if isinstance(n, ast.List):
            return T(lit(n))
        if isinstance(n, ast.Name):
            return env[n.id]
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.USub):
            return -ev(n.operand)
        if isinstance(n, ast.BinOp):
            x, y = ev(n.left), ev(n.right)
            op = type(n.op)
            if op is ast.Pow:
                return x ** y
            return {ast.Add: lambda: x + y, ast.Sub: lambda: x - y, ast.Mult: lambda: x * y,
                    ast.Div: lambda: x / y, ast.MatMult: lambda: x @ y}[op]()
        if isinstance(n, ast.Call):
            args = [ev(a) for a in n.args]
            kw = {k.arg: lit(k.value) for k in n.keywords}
            return FUNCS[n.func.id](*args, **kw)
        raise SystemExit("unsupported syntax: " + ast.dump(n))

    last = None
    for st in ast.parse(text).body:
        name = st.targets[0].id
        v = st.value
        if isinstance(v, ast.Call) and v.func.id in ("param", "input"):
            env[name] = T(lit(v.args[0]), grad=True)
            leaves.append(name)
        else:
            env[name] = ev(v)
        last = name
    out = env[last]
    out.backward(torch.ones_like(out))
    grads = {}
    for name in leaves:
        g = env[name].grad
        grads[name] = (g if g is not None else torch.zeros_like(env[name])).tolist()
    return {"output": out.detach().tolist(), "grads": grads}


def write(out, dirs, dtype=torch.float64):
    global DTYPE
    DTYPE = dtype
    torch.set_default_dtype(dtype)
    result = {}
    for d in dirs:
        for f in sorted(os.listdir(d)):
            if f.endswith(".tl"):
                with open(os.path.join(d, f)) as fh:
                    result[f[:-3]] = run(fh.read())
    with open(os.path.join(here, out), "w") as fh:
        doc = {"torch": torch.__version__, "examples": result}
        if dtype != torch.float64:
            doc["dtype"] = str(dtype).replace("torch.", "")
        json.dump(doc, fh, indent=1, sort_keys=True)
        fh.write("\n")


write("torch_examples.json", (examples, os.path.join(here, "programs")))
write("torch_grads.json", (os.path.join(here, "grad"),))
write("torch_float32.json", (examples, os.path.join(here, "programs"), os.path.join(here, "grad")), torch.float32)
