// TensorFlow.js contenders (cpu and wasm backends) for ./build.sh bench.
// Bundled by esbuild for node, because tfjs-core's node entry registers no
// gradients (see shared/reference/ecosystem-edge.md §3).
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-cpu';
import * as tfwasm from '@tensorflow/tfjs-backend-wasm';
import path from 'node:path';
import { WORKLOADS, data, params, median, inputSize, convLayers } from './workloads.mjs';

tfwasm.setWasmPaths(path.resolve(process.argv[2] || 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + '/');

// model returns the workload's variables, [W, b] per layer, in TF.js's
// layouts: a convolution's filter [k k c out] (NHWC), a dense layer's
// in×out; the first dense layer after convolutions reads its input in
// NHWC's flattening order (h, w, c), PyTorch's (c, h, w) permuted.
function model(w) {
  const convs = convLayers(w);
  const last = convs[convs.length - 1];
  return params(w).map((p, l) => {
    let W;
    if (l < convs.length) {
      const L = convs[l];
      W = tf.transpose(tf.tensor4d(Float32Array.from(p.W), [L.out, L.c, L.k, L.k]), [2, 3, 1, 0]);
    } else if (l === convs.length && last) {
      W = tf.reshape(tf.transpose(tf.tensor4d(Float32Array.from(p.W), [p.fout, last.out, last.ph, last.pw]), [2, 3, 1, 0]), [p.fin, p.fout]);
    } else {
      W = tf.transpose(tf.tensor2d(Float32Array.from(p.W), [p.fout, p.fin]));
    }
    return [tf.variable(W), tf.variable(tf.tensor1d(Float32Array.from(p.b)))];
  });
}

// conv2dFor returns the conv2d (stride 1, symmetric padding pad) that
// trains on backend. TF.js 4.22's wasm backend has no Conv2DBackpropFilter
// kernel, so tf.conv2d's gradient fails there; on such a backend the
// filter's gradient is computed by a convolution of the backend's own,
// dW[p,q,c,o] = Σ_n,i,j x[n,i+p−pad,j+q−pad,c]·dy[n,i,j,o]: x with its
// channels as the batch convolved with dy with its batch as the input
// channels. The input's gradient (Conv2DBackpropInput, which wasm has) is
// skipped where the input needs none (the first layer).
function conv2dFor(backend, pad, needDx) {
  if (tf.getKernel('Conv2DBackpropFilter', backend)) return (x, f) => tf.conv2d(x, f, 1, pad);
  return tf.customGrad((x, f, save) => {
    save([x, f]);
    return {
      value: tf.conv2d(x, f, 1, pad),
      gradFunc: (dy, [x, f]) => [
        needDx ? tf.conv2dTranspose(dy, f, x.shape, 1, pad) : tf.zerosLike(x),
        tf.transpose(tf.conv2d(tf.transpose(x, [3, 1, 2, 0]), tf.transpose(dy, [1, 2, 0, 3]), 1, pad), [1, 2, 0, 3]),
      ],
    };
  });
}

// The step whose loss every contender reports as loss_10 (bench/run.go's CheckStep).
const CHECK_STEP = 10;

function run(backend, name, w) {
  const { x, y } = data(w);
  const inDim = inputSize(w), nb = w.n / w.batch;
  const convs = convLayers(w);
  const conv2d = convs.map((L, l) => conv2dFor(backend, L.pad, l > 0));
  const layers = model(w);
  const xs = [], ys = [];
  for (let b = 0; b < nb; b++) {
    const xb = Float32Array.from(x.subarray(b * w.batch * inDim, (b + 1) * w.batch * inDim));
    xs.push(w.image ? tf.transpose(tf.tensor4d(xb, [w.batch, ...w.image]), [0, 2, 3, 1]) : tf.tensor2d(xb, [w.batch, inDim]));
    const yb = y.subarray(b * w.batch, (b + 1) * w.batch);
    ys.push(w.loss === 'mse' ? tf.tensor2d(Float32Array.from(yb), [w.batch, 1])
      : tf.oneHot(tf.tensor1d(Int32Array.from(yb), 'int32'), w.sizes[w.sizes.length - 1]));
  }
  const act = w.act === 'tanh' ? tf.tanh : tf.relu;
  const fwd = (h) => {
    convs.forEach((L, l) => {
      h = act(tf.add(conv2d[l](h, layers[l][0]), layers[l][1]));
      if (L.pool > 1) h = tf.maxPool(h, L.pool, L.pool, 'valid');
    });
    if (convs.length) h = tf.reshape(h, [w.batch, -1]);
    return layers.slice(convs.length).reduce((a, [W, b], k, dense) => {
      const z = tf.add(tf.matMul(a, W), b);
      return k < dense.length - 1 ? act(z) : z;
    }, h);
  };
  const lossFn = w.loss === 'mse'
    ? (t, p) => tf.losses.meanSquaredError(t, p)
    : (t, p) => tf.losses.softmaxCrossEntropy(t, p);
  const opt = tf.train.sgd(w.lr);
  let i = 0;
  const step = () => { const k = i++ % nb; return opt.minimize(() => lossFn(ys[k], fwd(xs[k])), true); };
  let l = step();
  const lossFirst = l.dataSync()[0];
  l.dispose();
  const warm = performance.now() + w.warmup_ms;
  let loss10;
  for (let s = 1; s < Math.max(w.warmup, CHECK_STEP) || performance.now() < warm; s++) {
    const ls = step();
    if (s + 1 === CHECK_STEP) loss10 = ls.dataSync()[0];
    ls.dispose();
  }
  const rates = [];
  for (let r = 0; r < w.runs; r++) {
    const t0 = performance.now();
    for (let s = 0; s < w.steps; s++) { if (l) l.dispose(); l = step(); }
    l.dataSync(); // forces completion
    rates.push((w.steps * 1000) / (performance.now() - t0));
  }
  const lossLast = l.dataSync()[0];
  [l, ...layers.flat(), ...xs, ...ys].forEach((t) => t.dispose());
  opt.dispose();
  console.log(JSON.stringify({ contender: `tfjs-${backend}`, workload: name, steps_per_s: median(rates), runs: rates, loss_first: lossFirst, loss_10: loss10, loss_last: lossLast }));
}

(async () => {
  const only = process.argv[3];
  for (const backend of ['cpu', 'wasm']) {
    await tf.setBackend(backend);
    await tf.ready();
    for (const [name, w] of Object.entries(WORKLOADS)) {
      if (!only || only === name) run(backend, name, w);
    }
  }
})().catch((e) => { console.error(e); process.exit(1); });
