// Shared workload definitions for the TensorFlow.js contenders. The same
// data, initial weights and schedule are produced by bench/workload.go (Go)
// and bench/torch_bench.py (PyTorch) from the same mulberry32 streams.

export function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const WORKLOADS = {
  tiny: { sizes: [2, 16, 16, 1], act: 'tanh', loss: 'mse', n: 256, batch: 32, lr: 0.1, warmup: 500, warmup_ms: 1000, runs: 5, steps: 500 },
  big: { sizes: [784, 128, 10], act: 'relu', loss: 'cross_entropy', n: 640, batch: 64, lr: 0.1, warmup: 5, warmup_ms: 1000, runs: 5, steps: 30 },
};

// data returns x (n·in, row-major) and y (n·1 targets or n class indices).
export function data(w) {
  const rnd = mulberry32(1);
  const inDim = w.sizes[0];
  const x = new Float64Array(w.n * inDim);
  for (let i = 0; i < x.length; i++) x[i] = 2 * rnd() - 1;
  const y = new Float64Array(w.n);
  for (let i = 0; i < w.n; i++) {
    if (w.loss === 'mse') y[i] = Math.sin(3 * x[i * inDim]) * x[i * inDim + 1];
    else y[i] = Math.min(9, Math.floor(rnd() * 10));
  }
  return { x, y };
}

// params returns, per layer, W (out×in, row-major, PyTorch layout) and b,
// uniform in ±1/sqrt(in) like PyTorch's nn.Linear default.
export function params(w) {
  const rnd = mulberry32(42);
  const out = [];
  for (let l = 1; l < w.sizes.length; l++) {
    const fin = w.sizes[l - 1], fout = w.sizes[l], k = 1 / Math.sqrt(fin);
    const W = new Float64Array(fout * fin), b = new Float64Array(fout);
    for (let i = 0; i < W.length; i++) W[i] = (2 * rnd() - 1) * k;
    for (let i = 0; i < b.length; i++) b[i] = (2 * rnd() - 1) * k;
    out.push({ W, b, fin, fout });
  }
  return out;
}

export function median(xs) {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}
