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
  // A CNN: per convolution (channels, kernels, paddings, pools) conv2d,
  // relu and, where the pool is over 1, max_pool2d; then flatten and sizes.
  cnn: { sizes: [64, 10], image: [1, 8, 8], channels: [8, 16], kernels: [3, 3], paddings: [1, 0], pools: [2, 1], act: 'relu', loss: 'cross_entropy', n: 640, batch: 32, lr: 0.05, warmup: 20, warmup_ms: 1000, runs: 5, steps: 100 },
};

// inputSize returns the number of input values per example.
export function inputSize(w) {
  return w.image ? w.image[0] * w.image[1] * w.image[2] : w.sizes[0];
}

// convLayers returns a CNN's convolutions, each with its input channels
// (c) and its input (h, w) and output (oh, ow) sizes, before the pool.
export function convLayers(w) {
  if (!w.image) return [];
  let [c, h, wd] = w.image;
  return w.channels.map((out, l) => {
    const k = w.kernels[l], pad = w.paddings[l], pool = w.pools[l];
    const L = { c, out, k, pad, pool, h, w: wd, oh: h + 2 * pad - k + 1, ow: wd + 2 * pad - k + 1 };
    [c, h, wd] = [out, Math.floor(L.oh / pool), Math.floor(L.ow / pool)];
    L.ph = h; L.pw = wd;
    return L;
  });
}

// data returns x (n·in, row-major) and y (n·1 targets or n class indices).
export function data(w) {
  const rnd = mulberry32(1);
  const inDim = inputSize(w);
  const x = new Float64Array(w.n * inDim);
  for (let i = 0; i < x.length; i++) x[i] = 2 * rnd() - 1;
  const y = new Float64Array(w.n);
  for (let i = 0; i < w.n; i++) {
    if (w.loss === 'mse') y[i] = Math.sin(3 * x[i * inDim]) * x[i * inDim + 1];
    else y[i] = Math.min(9, Math.floor(rnd() * 10));
  }
  return { x, y };
}

// params returns, per layer, the convolutions' first, W (out×in, row-major,
// PyTorch layout: a convolution's in is c·k·k) and b, uniform in
// ±1/sqrt(in) like PyTorch's nn.Linear and nn.Conv2d defaults.
export function params(w) {
  const rnd = mulberry32(42);
  const out = [];
  const dims = convLayers(w).map((L) => [L.c * L.k * L.k, L.out]);
  for (let l = 1; l < w.sizes.length; l++) dims.push([w.sizes[l - 1], w.sizes[l]]);
  for (const [fin, fout] of dims) {
    const k = 1 / Math.sqrt(fin);
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
