//go:build js && wasm

package training

import "tapelab/wasm/dom"

// markup is the training view's skeleton; newControls wires it
// and fills its slots with the pictures and charts.
const markup dom.HTML = `
<section id="train-view" class="train-view" aria-label="Training" hidden>
  <div class="train-run" data-control="train" role="group" aria-label="Training">
    <button type="button" id="train-play" class="primary" title="Play or pause training (the page stays responsive)">▶ Train</button>
    <button type="button" id="train-step" title="Train on one mini-batch">Step one batch</button>
    <button type="button" id="train-reset" title="Start again from the seeded weights">Reset</button>
    <button type="button" id="train-inspect" title="Open the last mini-batch's tape, with the current weights, in the stepping view">Inspect this step</button>
    <button type="button" id="train-settings-toggle" class="settings-toggle" aria-controls="train-settings" aria-expanded="false"
      title="Show or hide the training settings">Settings</button>
  </div>
  <div class="train-main">
    <div class="train-settings" id="train-settings">
      <label data-control="dataset"><span class="cap">Data</span><select id="train-dataset"></select></label>
      <p id="train-switched" class="train-note" role="status" hidden><span></span>
        <button type="button" id="train-switched-undo" title="Go back to the data and the model you had">Undo</button></p>
      <label data-control="lr"><span class="cap">Learning rate</span><select id="train-lr"></select></label>
      <label data-control="optimizer"><span class="cap">Optimizer</span><select id="train-opt"></select></label>
      <label data-control="l2"><span class="cap">L2 (weight decay)</span><select id="train-l2"></select></label>
      <label data-control="batch"><span class="cap">Batch size</span><input type="range" id="train-batch" min="1" max="64"><output for="train-batch" class="mono"></output></label>
      <label data-control="noise"><span class="cap">Noise</span><input type="range" id="train-noise" min="0" max="50" step="5" value="0"><output for="train-noise" class="mono">0%</output></label>
      <label data-control="split"><span class="cap">Training data</span><input type="range" id="train-split" min="10" max="90" step="10" value="50"><output for="train-split" class="mono">50%</output></label>
      <details class="train-compare" id="train-compare">
        <summary>Compare optimizers</summary>
        <p class="muted small">Runs beside this one, from the same weights on the same batches.</p>
        <div class="cmp-row"><input type="checkbox" id="cmp-on-2" aria-label="Run 2"><span class="run-line run-b" aria-hidden="true"></span>
          <select id="cmp-opt-2" aria-label="Run 2's optimizer"></select><select id="cmp-lr-2" aria-label="Run 2's learning rate"></select></div>
        <div class="cmp-row"><input type="checkbox" id="cmp-on-3" aria-label="Run 3"><span class="run-line run-c" aria-hidden="true"></span>
          <select id="cmp-opt-3" aria-label="Run 3's optimizer"></select><select id="cmp-lr-3" aria-label="Run 3's learning rate"></select></div>
      </details>
      <p class="when-images"><button type="button" id="train-cnn"
        title="conv2d 4×3×3 → relu → max_pool2d 2 → flatten → linear, cross-entropy; Adam at 0.01, batches of 32">Use the default CNN</button></p>
    </div>
    <div class="train-picture">
      <slot name="plot"></slot>
      <div class="train-legend" id="train-legend"></div>
    </div>
    <slot name="images"></slot>
    <div class="train-side">
      <dl class="train-figures" aria-live="off">
        <div class="fig"><dt>Steps</dt><dd id="train-steps" class="mono">—</dd></div>
        <div class="fig"><dt>Training loss</dt><dd id="train-loss" class="mono">—</dd></div>
        <div class="fig"><dt>Test loss</dt><dd id="test-loss" class="mono">—</dd></div>
        <div class="fig"><dt>Accuracy (train / test)</dt><dd id="train-acc" class="mono">—</dd></div>
        <div class="fig"><dt>Steps/s</dt><dd id="train-rate" class="mono">—</dd></div>
      </dl>
      <slot name="loss"></slot>
      <ul class="runs-key" id="train-runs" aria-label="The runs compared (the picture and the figures are run 1's)"></ul>
      <p class="chart-key"><span class="key-train">training loss</span><span class="key-test">test loss</span><span class="key-raw">faint: each evaluation</span></p>
      <figure class="train-surface" id="train-surface-box" hidden>
        <slot name="surface"></slot>
        <figcaption class="muted small"></figcaption>
      </figure>
      <slot name="accuracy"></slot>
      <p class="train-counts muted"></p>
      <p id="train-msg" class="train-msg" role="alert" hidden></p>
      <button type="button" id="train-open-nan" class="primary" hidden
        title="Step this mini-batch with these weights to the first NaN or ∞">Open this step's tape</button>
    </div>
  </div>
  <details class="train-data" data-control="points">
    <summary>Your own data</summary>
    <p class="muted">Click on the picture to add a point of the chosen class; or paste or upload a CSV (inputs, then the target).</p>
    <div class="row">
      <label class="when-classes"><span class="cap">New points</span><select id="train-class"></select></label>
      <label class="when-regression"><span class="cap">Target</span><input type="number" id="train-target" value="1" step="0.1"></label>
      <button type="button" id="train-clear" title="Forget the points you added or pasted">Clear my points</button>
    </div>
    <textarea id="csv-text" rows="4" spellcheck="false" placeholder="x1,x2,label&#10;0.5,-1.2,1&#10;…"></textarea>
    <div class="row">
      <input type="file" id="csv-file" accept=".csv,text/csv,text/plain">
      <button type="button" id="csv-use" title="Train on the pasted data">Use this CSV</button>
    </div>
    <p id="csv-error" class="train-msg" role="alert" hidden></p>
  </details>
</section>`
