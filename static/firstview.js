// Fits the tape the server drew into the page's first view (#tape-preview)
// to its region as the page's tape view fits its own (wasm/layout's
// View.Fit, with the scale limits and the margin the drawing carries in
// data- attributes): as large as fits within [min, max], centred, or, when
// it does not fit at min, from pad. It runs before the first paint, right
// after the first view, and again when the region changes size; the wasm
// then draws its tape with every box in the same place.
(() => {
  "use strict";
  const svg = document.getElementById("tape-preview");
  if (!svg) return;
  const world = svg.querySelector(".world");
  const d = svg.dataset;
  const [w, h, min, max, pad] = [+d.w, +d.h, +d.min, +d.max, +d.pad];
  const place = (n, m) => (n <= m ? (m - n) / 2 : pad);
  const r1 = (v) => Math.round(v * 10) / 10; // as the tape view writes them
  const fit = () => {
    const r = svg.getBoundingClientRect();
    if (r.width < 10 || r.height < 10) return;
    const s = Math.min(max, Math.max(min, Math.min(r.width / w, r.height / h)));
    world.setAttribute("transform", `translate(${r1(place(w * s, r.width))} ${r1(place(h * s, r.height))}) scale(${s.toFixed(4)})`);
  };
  fit();
  new ResizeObserver(fit).observe(svg);
})();
