// Registers TapeLab's service worker (sw.js), which keeps the playground
// working offline after one visit. Only the static site that
// ./build.sh dist writes loads this file; the development server does not.
"use strict";
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("sw.js").then((reg) => {
    document.documentElement.dataset.offlineReady = "registering";
    return navigator.serviceWorker.ready.then(() => {
      document.documentElement.dataset.offlineReady = "true";
    });
  }).catch((err) => {
    document.documentElement.dataset.offlineReady = "failed: " + err.message;
  });
}
