// Fits the tape the server drew into the page's first view (#tape-preview)
// to its region as the page's tape view fits its own (wasm/layout's
// View.Fit, with the scale limits and the margin the drawing carries in
// data- attributes): as large as fits within [min, max], centred, or, when
// it does not fit at min, from pad. A long tape comes with its folds into
// rows (<g class="fold">, layout.Wrap); the fold is picked as
// layout.PickRows picks it, and its places and edges drawn. It runs before
// the first paint, right after the first view, and again when the region
// changes size; the wasm then draws its tape with every box in the same
// place.
(() => {
  "use strict";
  const svg = document.getElementById("tape-preview");
  if (!svg) return;
  const world = svg.querySelector(".world");
  const d = svg.dataset;
  const [max, pad] = [+d.max, +d.pad];
  // The least scale is the stylesheet's --tape-min-scale where it sets one
  // (a phone's), as the tape view reads it (wasm/tape/fit.go).
  let min = +d.min;
  const folds = [...svg.querySelectorAll(".fold")];
  let shown = 1;
  const place = (n, m) => (n <= m ? (m - n) / 2 : pad);
  const r1 = (v) => Math.round(v * 10) / 10; // as the tape view writes them
  // pick is layout.PickRows: one row when it fits at min; else the fold
  // that fits largest (fewer rows on a tie at max); else the most rows
  // whose height fits at min.
  const pick = (vw, vh) => {
    const size = (f) => [+f.dataset.w, +f.dataset.h];
    const scale = ([w, h]) => Math.min(vw / w, vh / h);
    if (folds.length < 2 || scale(size(folds[0])) >= min) return 1;
    let best = 1, bs = Math.min(scale(size(folds[0])), max);
    folds.forEach((f, i) => {
      const v = Math.min(scale(size(f)), max);
      if (i > 0 && v > bs + 1e-9) [best, bs] = [i + 1, v];
    });
    if (bs >= min) return best;
    best = 1;
    folds.forEach((f, i) => { if (size(f)[1] * min <= vh) best = i + 1; });
    return best;
  };
  // The fold of one row is the drawing itself: its places and edges are
  // kept when it is first folded, to go back to. A fold whose edges the
  // server left out (a large tape) shows its boxes alone until the page
  // draws the tape.
  const nodes = [...world.querySelectorAll(".nodes > .node")];
  const edges = world.querySelector(".edges");
  let one = null;
  const fold = (rows) => {
    if (!one) one = { at: nodes.map((g) => g.getAttribute("transform")), edges: edges.innerHTML };
    if (rows === 1) {
      nodes.forEach((g, i) => g.setAttribute("transform", one.at[i]));
      edges.innerHTML = one.edges;
    } else {
      const f = folds[rows - 1], at = f.dataset.at.split(" ");
      nodes.forEach((g, i) => g.setAttribute("transform", `translate(${at[2 * i]} ${at[2 * i + 1]})`));
      edges.innerHTML = f.innerHTML;
    }
    shown = rows;
    d.rows = rows;
  };
  const fit = () => {
    const r = svg.getBoundingClientRect();
    if (r.width < 10 || r.height < 10) return;
    // The page's tape view starts from this size, not measuring its own
    // region mid-start-up (wasm/tape/adopt.go).
    [d.vw, d.vh] = [r.width, r.height];
    min = Math.max(+d.min, parseFloat(getComputedStyle(svg).getPropertyValue("--tape-min-scale")) || 0);
    const rows = pick(r.width, r.height);
    if (rows !== shown) fold(rows);
    const [w, h] = rows > 1 ? [+folds[rows - 1].dataset.w, +folds[rows - 1].dataset.h] : [+d.w, +d.h];
    const s = Math.min(max, Math.max(min, Math.min(r.width / w, r.height / h)));
    world.setAttribute("transform", `translate(${r1(place(w * s, r.width))} ${r1(place(h * s, r.height))}) scale(${s.toFixed(4)})`);
  };
  fit();
  new ResizeObserver(fit).observe(svg);
})();
