// TensorFlow.js contenders (cpu and wasm backends) for ./build.sh bench.
// Bundled by esbuild for node, because tfjs-core's node entry registers no
// gradients (see shared/reference/ecosystem-edge.md §3).
import * as tf from '@tensorflow/tfjs-core';
import '@tensorflow/tfjs-core/dist/register_all_gradients';
import '@tensorflow/tfjs-backend-cpu';
import * as tfwasm from '@tensorflow/tfjs-backend-wasm';
import path from 'node:path';
import { WORKLOADS, data, params, median } from './workloads.mjs';

tfwasm.setWasmPaths(path.resolve(process.argv[2] || 'node_modules/@tensorflow/tfjs-backend-wasm/dist') + '/');

function run(backend, name, w) {
  const { x, y } = data(w);
  const inDim = w.sizes[0], nb = w.n / w.batch;
  const layers = params(w).map((p) => [
    tf.variable(tf.transpose(tf.tensor2d(Float32Array.from(p.W), [p.fout, p.fin]))),
    tf.variable(tf.tensor1d(Float32Array.from(p.b))),
  ]);
  const xs = [], ys = [];
  for (let b = 0; b < nb; b++) {
    xs.push(tf.tensor2d(Float32Array.from(x.subarray(b * w.batch * inDim, (b + 1) * w.batch * inDim)), [w.batch, inDim]));
    const yb = y.subarray(b * w.batch, (b + 1) * w.batch);
    ys.push(w.loss === 'mse' ? tf.tensor2d(Float32Array.from(yb), [w.batch, 1])
      : tf.oneHot(tf.tensor1d(Int32Array.from(yb), 'int32'), w.sizes[w.sizes.length - 1]));
  }
  const act = w.act === 'tanh' ? tf.tanh : tf.relu;
  const fwd = (h) => layers.reduce((a, [W, b], k) => {
    const z = tf.add(tf.matMul(a, W), b);
    return k < layers.length - 1 ? act(z) : z;
  }, h);
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
  for (let s = 1; s < w.warmup || performance.now() < warm; s++) step().dispose();
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
  console.log(JSON.stringify({ contender: `tfjs-${backend}`, workload: name, steps_per_s: median(rates), runs: rates, loss_first: lossFirst, loss_last: lossLast }));
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
