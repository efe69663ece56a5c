// TapeLab's loader: streams tapelab.wasm with a progress bar (bytes received
// of the total), starts the Go program in it, and turns every failure into a
// readable message in the page. The Go program then replaces #app.
//
// It runs async, as soon as it arrives: the download and the compilation
// start at once, while the style sheets and wasm_exec.js are still loading
// and the document is still being parsed; the Go program starts when both
// are done (see pageReady).
(() => {
  "use strict";

  const wasmURL = "tapelab.wasm";

  // tapelabElement is how the Go program makes an element (wasm/dom/dom.go's
  // Document.newElem): its tag, in the SVG namespace when svg, with its text
  // (when hasText) and attributes packed in one string as
  // "text\0name\0value\0…". One call from Go, where setting each
  // attribute from Go takes two.
  globalThis.tapelabElement = (tag, packed, svg, hasText) => {
    const e = svg ? document.createElementNS("http://www.w3.org/2000/svg", tag) : document.createElement(tag);
    const p = packed.split("\0");
    for (let i = 1; i + 1 < p.length; i += 2) e.setAttribute(p[i], p[i + 1]);
    if (hasText) e.textContent = p[0];
    return e;
  };
  // tapelabWrite applies writes to the elements of els (an array or a
  // collection) in one call from Go (wasm/dom/writes.go's Document.Write): packed
  // is "k\0what\0value\0…", k indexing els, what "text" (the text node
  // changed in place, so that the browser keeps its layout object),
  // "style:" and a property, or an attribute's name.
  globalThis.tapelabWrite = (els, packed) => {
    const p = packed.split("\0");
    for (let i = 0; i + 2 < p.length; i += 3) {
      const e = els[+p[i]], what = p[i + 1], v = p[i + 2];
      if (what === "text") {
        const t = e.firstChild;
        if (t && t.nodeType === 3 && !t.nextSibling) t.data = v;
        else e.textContent = v;
      } else if (what.startsWith("style:")) e.style.setProperty(what.slice(6), v);
      else e.setAttribute(what, v);
    }
  };
  // tapelabYield calls f in a task of its own, as soon as the tasks waiting
  // before it have run: a message the page posts to itself. The Go program
  // yields to the browser with it (wasm/dom/bridge.go's YieldToBrowser) between
  // the slices of its start-up; a setTimeout of 0 would do the same, but
  // the browser holds a timer set from a timer's callback back by 4 ms once
  // they nest five deep, and start-up's slices follow each other so.
  const yields = new MessageChannel();
  const yielded = [];
  yields.port1.onmessage = () => yielded.shift()();
  globalThis.tapelabYield = (f) => {
    yielded.push(f);
    yields.port2.postMessage(0);
  };
  const $ = (id) => document.getElementById(id);
  // The Go program's standard error (fd 2): its last 64 KB or so, and once
  // a line starts the report of a crash (a panic, the runtime's "fatal
  // error" or its "out of memory"; the "panic in …" lines of panics it
  // recovered from do not), that report's first 64 KB (see captureStderr).
  let stderr = "";
  let crash = "";
  const stderrMax = 1 << 16;
  const crashStart = /^(?:panic: |fatal error: |runtime: )/m;

  function showError(title, detail) {
    const box = $("error");
    box.replaceChildren();
    const strong = document.createElement("strong");
    strong.textContent = title;
    box.append(strong);
    if (detail) {
      const pre = document.createElement("pre");
      pre.textContent = detail;
      box.append(pre);
    }
    box.hidden = false;
    // Before Go has rendered, the error replaces the progress: under the
    // heading of the loading screen, or above the server's first view.
    const loading = $("loading");
    if (loading) {
      for (const el of loading.querySelectorAll(".tagline, progress, .load-label")) el.hidden = true;
      if (loading.classList.contains("loading")) loading.append(box);
    }
    $("app").removeAttribute("aria-busy");
  }

  // el makes an element with its text.
  function el(tag, text) {
    const e = document.createElement(tag);
    if (text) e.textContent = text;
    return e;
  }

  // crashReport returns what the Go program said when it stopped, at most
  // 60 lines: its crash report, or else the last it wrote to standard
  // error.
  function crashReport() {
    const lines = (crash || stderr).trim().split("\n");
    return lines.slice(0, 60).join("\n") + (lines.length > 60 ? `\n… (${lines.length - 60} more lines in the console)` : "");
  }

  // showStopped says that the Go program stopped, as it does when it
  // panics or runs out of memory: in plain words what happened, with a way
  // back to the default model (the page without the document's link or
  // share id) and a button that copies the page's link, which the address
  // bar keeps; the technical detail is folded away. The page left on
  // screen no longer responds: it is dimmed and made inert.
  function showStopped(detail) {
    const oom = /out of memory|memory size|maximum memory/i.test(detail);
    const box = $("error");
    box.replaceChildren();
    box.classList.add("stopped");
    const actions = el("p");
    actions.className = "error-actions";
    const back = el("a", "Open the default model");
    back.id = "error-default";
    back.className = "button";
    back.href = new URL("./", document.baseURI).href;
    const copy = el("button", "Copy this page's link");
    copy.id = "error-copy";
    copy.type = "button";
    copy.className = "secondary";
    copy.addEventListener("click", () => {
      const said = (ok) => (copy.textContent = ok ? "Link copied" : "Copy it from the address bar");
      if (navigator.clipboard) navigator.clipboard.writeText(location.href).then(() => said(true), () => said(false));
      else said(false);
    });
    actions.append(back, " ", copy);
    const details = el("details");
    details.append(el("summary", "Technical details"), el("pre", detail));
    // The title is the page's heading now: what is left of the page is
    // inert, its own heading with it.
    const title = el("h1", oom ? "This document needed more memory than this tab has." : "TapeLab hit an internal error.");
    title.className = "error-title";
    box.append(
      title,
      el("p", oom
        ? "TapeLab ran out of memory working on it and stopped, so this page no longer responds. The link in the address bar still holds the document: open it on a computer with more memory, or make it smaller."
        : "Its engine stopped on something it did not expect, so this page no longer responds. The link in the address bar still holds what you were working on: copy it to report the problem, with the technical details below."),
      actions,
      details,
    );
    box.hidden = false;
    const loading = $("loading");
    if (loading) {
      for (const e of loading.querySelectorAll(".tagline, progress, .load-label")) e.hidden = true;
      if (loading.classList.contains("loading")) loading.append(box);
    }
    // Over a page the Go program drew (or the server's first view): the
    // message goes first in the page's main element, and the rest of it is
    // dimmed and made inert.
    const app = $("app");
    app.removeAttribute("aria-busy");
    if (!app.contains(box)) {
      app.prepend(box);
      for (const e of app.children) e.inert = e !== box;
      app.classList.add("stopped");
    }
    back.focus();
  }

  function mb(n) {
    return (n / 1e6).toFixed(n < 1e7 ? 2 : 1) + " MB";
  }

  function showProgress(received, total) {
    const bar = $("load-progress");
    const label = $("load-label");
    if (!bar || !label) return;
    if (total > 0) {
      bar.max = total;
      bar.value = Math.min(received, total);
      label.textContent = `${mb(received)} of ${mb(total)} received`;
    } else {
      bar.removeAttribute("value"); // indeterminate
      label.textContent = `${mb(received)} received`;
    }
  }

  // The uncompressed size: with Content-Encoding set, Content-Length counts
  // compressed bytes while the stream yields decoded ones, so the server
  // also sends X-Decoded-Length.
  function totalSize(resp) {
    const decoded = Number(resp.headers.get("X-Decoded-Length"));
    if (decoded > 0) return decoded;
    if (resp.headers.get("Content-Encoding")) return 0;
    return Number(resp.headers.get("Content-Length")) || 0;
  }

  async function fetchWasm() {
    let resp;
    try {
      resp = await fetch(wasmURL);
    } catch (err) {
      throw new Error(`could not reach the server for ${wasmURL} (${err.message}). Is \`go run .\` still running?`);
    }
    if (!resp.ok) {
      throw new Error(`${wasmURL}: HTTP ${resp.status} ${resp.statusText}. Run \`go run .\` to build and serve it.`);
    }
    const total = totalSize(resp);
    showProgress(0, total);
    if (resp.body) {
      // Count the bytes on a clone, and compile from the original response:
      // it keeps its URL, so the browser can cache the compiled code.
      // A failed read also fails the compile, which reports it.
      countBytes(resp.clone().body.getReader(), total).catch(() => {});
    }
    return resp;
  }

  // compileWasm downloads and compiles the module, compiling each part as
  // it arrives (compileStreaming needs the application/wasm type, which the
  // server sets; without it, the bytes are compiled once all arrived).
  async function compileWasm() {
    const resp = await fetchWasm();
    try {
      const streaming = WebAssembly.compileStreaming && (resp.headers.get("Content-Type") || "").startsWith("application/wasm");
      const module = await (streaming ? WebAssembly.compileStreaming(resp) : WebAssembly.compile(await resp.arrayBuffer()));
      performance.mark("tapelab:wasm-compiled");
      return module;
    } catch (err) {
      throw new Error(`${wasmURL} is not a WebAssembly program this page can run (${err.message}). Rebuild it with \`go run . build\`.`);
    }
  }

  // pageReady settles once the document is parsed and the deferred scripts
  // (wasm_exec.js) have run: at DOMContentLoaded, or at once if it passed.
  function pageReady() {
    const nav = performance.getEntriesByType("navigation")[0];
    if (document.readyState === "complete" || (nav && nav.domContentLoadedEventStart > 0)) {
      return Promise.resolve();
    }
    return new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
  }

  async function countBytes(reader, total) {
    let received = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      received += value.byteLength;
      showProgress(received, total);
    }
    performance.mark("tapelab:wasm-received");
  }

  // Keep the Go program's standard error, so that a panic is shown in the
  // page and not only in the console.
  function captureStderr() {
    const fs = globalThis.fs;
    const write = fs.writeSync.bind(fs);
    const decoder = new TextDecoder();
    fs.writeSync = (fd, buf) => {
      if (fd === 2) {
        const text = decoder.decode(buf, { stream: true });
        if (crash) {
          if (crash.length < stderrMax) crash += text;
        } else {
          stderr += text;
          const start = stderr.search(crashStart);
          if (start >= 0) crash = stderr.slice(start);
          else if (stderr.length > stderrMax) stderr = stderr.slice(-stderrMax / 2);
        }
      }
      return write(fd, buf);
    };
  }

  // nextTask settles in a task of its own, after what the browser has
  // queued meanwhile.
  const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

  async function boot(module) {
    await pageReady();
    if (typeof Go !== "function") {
      throw new Error("wasm_exec.js did not load. Run `go run .`, which copies it from the Go toolchain.");
    }
    captureStderr();
    const go = new Go();
    go.exit = (code) => {
      if (code !== 0) showStopped(`The Go program exited with code ${code}.\n\n${crashReport()}`);
    };
    const compiled = await module;
    // The compile's last part (V8 finishing the stream on this thread) and
    // Go's start are each long on a slow machine: a task between them, so
    // that input and paint need not wait for both (Lighthouse counts each
    // task's time beyond 50 ms as blocking).
    await nextTask();
    let instance;
    try {
      instance = await WebAssembly.instantiate(compiled, go.importObject);
    } catch (err) {
      throw new Error(`${wasmURL} is not a WebAssembly program this page can run (${err.message}). Rebuild it with \`go run . build\`.`);
    }
    performance.mark("tapelab:wasm-instantiated");
    $("load-label").textContent = "Starting…";
    // run executes main until it waits for events; it settles when Go exits.
    // (A trap, such as the browser refusing the memory Go asks for.)
    go.run(instance).catch((err) => showStopped(`${err.message || String(err)}\n\n${crashReport()}`));
  }

  // Errors are shown once the page can show them.
  const fail = (err) => pageReady().then(() => showError("TapeLab could not start.", err.message || String(err)));
  if (typeof WebAssembly !== "object") {
    fail(new Error("this browser does not support WebAssembly."));
    return;
  }
  const module = compileWasm();
  module.catch(() => {}); // boot reports it
  boot(module).catch(fail);
})();
