# Reproduces the reference numbers pasted into reference_test.go.
# Run with Debian's python3-torch (1.13.1): /usr/bin/python3 testdata/pytorch_reference.py
import torch, torch.nn.functional as F
torch.set_default_dtype(torch.float64)
def t(v, g=True): return torch.tensor(v, dtype=torch.float64, requires_grad=g)
def show(name, x): print(name, "=", repr(x.detach().flatten().tolist()))

print("# cross_entropy")
z = t([[1.0, 2.0, 0.5], [-1.0, 0.0, 3.0], [0.25, -0.5, 0.75]]); c = torch.tensor([1, 2, 0])
L = F.cross_entropy(z, c); L.backward(torch.tensor(1.0)); show("loss", L); show("dZ", z.grad)

print("# bce_with_logits")
z = t([[0.5, -1.5], [2.0, -0.25]]); y = t([[1.0, 0.0], [0.3, 1.0]])
L = F.binary_cross_entropy_with_logits(z, y); L.backward(); show("loss", L); show("dZ", z.grad); show("dT", y.grad)

print("# gelu")
x = t([-3.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.5]); d = torch.tensor([1.0, -2.0, 0.5, 1.0, 3.0, -1.0, 0.25])
yv = F.gelu(x); yv.backward(d); show("y", yv); show("dX", x.grad)

print("# batch_norm train")
x = t([[1.0, 2.0], [3.0, -1.0], [0.5, 4.0], [2.0, 0.0]]); g = t([1.5, -0.5]); b = t([0.1, 0.2])
d = torch.tensor([[1.0, 0.5], [-2.0, 1.0], [0.25, -1.0], [3.0, 2.0]])
yv = F.batch_norm(x, None, None, g, b, training=True, eps=1e-5); yv.backward(d)
show("y", yv); show("dX", x.grad); show("dgamma", g.grad); show("dbeta", b.grad)

print("# batch_norm eval")
x = t([[1.0, 2.0], [3.0, -1.0]]); g = t([1.5, -0.5]); b = t([0.1, 0.2]); rm = torch.tensor([0.5, -0.25]); rv = torch.tensor([2.0, 0.75])
d = torch.tensor([[1.0, 0.5], [-2.0, 1.0]])
yv = F.batch_norm(x, rm, rv, g, b, training=False, eps=1e-5); yv.backward(d)
show("y", yv); show("dX", x.grad); show("dgamma", g.grad); show("dbeta", b.grad)

print("# conv2d stride 2 padding 1")
xs = [((i * 7) % 11) / 4.0 - 1.0 for i in range(1*2*5*5)]
ws = [((i * 5) % 13) / 6.0 - 1.0 for i in range(3*2*3*3)]
x = t(xs).reshape(1, 2, 5, 5).detach().requires_grad_(); w = t(ws).reshape(3, 2, 3, 3).detach().requires_grad_(); b = t([0.5, -1.0, 0.25])
yv = F.conv2d(x, w, b, stride=2, padding=1)
ds = [((i * 3) % 7) / 3.0 - 1.0 for i in range(yv.numel())]
yv.backward(torch.tensor(ds).reshape(yv.shape))
print("shape", list(yv.shape)); show("x", x); show("w", w); show("d", torch.tensor(ds))
show("y", yv); show("dX", x.grad); show("dW", w.grad); show("db", b.grad)

print("# max_pool2d kernel 2 stride 1 with ties")
x = t([[[[1.0, 3.0, 3.0, 0.0], [2.0, 3.0, -1.0, 5.0], [4.0, 4.0, 4.0, 4.0], [0.0, 1.0, 4.0, 2.0]]]])
yv = F.max_pool2d(x, 2, 1)
d = torch.tensor([1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 64.0, 128.0, 256.0]).reshape(yv.shape)
yv.backward(d); show("y", yv); show("dX", x.grad)
print("# max_pool2d kernel 2 stride 2")
x = t([[[[1.0, 3.0, -3.0, -2.0], [2.0, 0.5, -1.0, -5.0]], [[7.0, 7.0, 0.0, 1.0], [7.0, 6.0, 1.0, 1.0]]]])
yv = F.max_pool2d(x, 2, 2); d = torch.tensor([1.0, 2.0, 3.0, 4.0]).reshape(yv.shape)
yv.backward(d); show("y", yv); show("dX", x.grad)
print("# avg_pool2d kernel 3 stride 1 (overlapping windows, divisor 9)")
x = t([[[[0.1, -0.7, 1.3, 2.9, -0.25], [0.3, 0.6, -1.1, 0.05, 4.0], [-2.2, 1.7, 0.9, -0.4, 0.2], [1.1, -0.3, 0.35, 2.5, -1.9]]]])
yv = F.avg_pool2d(x, 3, 1); d = torch.tensor([1.0, -0.5, 0.3, 2.0, 0.7, -1.3]).reshape(yv.shape)
yv.backward(d); show("y", yv); show("dX", x.grad)
print("# avg_pool2d kernel 2 (stride defaults to the kernel)")
x = t([[[[1.0, 3.0, -3.0, -2.0], [2.0, 0.5, -1.0, -5.0]], [[7.0, 7.0, 0.0, 1.0], [7.0, 6.0, 1.0, 1.1]]]])
yv = F.avg_pool2d(x, 2); d = torch.tensor([1.0, 0.2, 3.0, -4.0]).reshape(yv.shape)
yv.backward(d); show("y", yv); show("dX", x.grad)

print("# layer_norm over the last axis")
x = t([[[1.0, 2.0, 4.0], [3.0, -1.0, 0.5]], [[0.25, 0.25, -2.0], [5.0, 1.0, 2.0]]]); g = t([1.5, -0.5, 2.0]); b = t([0.1, 0.2, -0.3])
d = torch.tensor([[[1.0, 0.5, -1.0], [-2.0, 1.0, 0.25]], [[3.0, 2.0, -0.5], [0.75, -1.5, 1.0]]])
yv = F.layer_norm(x, (3,), g, b, eps=1e-5); yv.backward(d)
show("y", yv); show("dX", x.grad); show("dgamma", g.grad); show("dbeta", b.grad)
