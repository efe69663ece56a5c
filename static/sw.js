// TapeLab's service worker (the static site that ./build.sh dist writes):
// after one visit the playground works without a network. site.Write fills
// in VERSION (derived from every asset's content) and ASSETS (the page as
// "./", the hashed assets and the data files, such as data/digits.csv.gz,
// which the page fetches when a dataset needs them); a new deployment has
// a new VERSION, so the browser installs the new worker, which caches the
// new files, takes over at once and deletes the old cache.
"use strict";

const VERSION = "dev";
const ASSETS = [];

// clean copies a response that followed a redirect (some hosts redirect
// index.html to ./): browsers refuse redirected responses for navigations.
async function clean(resp) {
  if (!resp.redirected) return resp;
  return new Response(await resp.blob(), { status: resp.status, statusText: resp.statusText, headers: resp.headers });
}

self.addEventListener("install", (event) => {
  event.waitUntil((async () => {
    const cache = await caches.open(VERSION);
    for (const url of ASSETS) {
      const resp = await fetch(url, { cache: "reload" });
      if (!resp.ok) throw new Error(`caching ${url}: HTTP ${resp.status}`);
      await cache.put(url, await clean(resp));
    }
    await self.skipWaiting();
  })());
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith("tapelab-") && k !== VERSION).map((k) => caches.delete(k))))
      .then(() => self.clients.claim())
  );
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  if (req.method !== "GET" || new URL(req.url).origin !== self.location.origin) return;
  if (req.mode === "navigate") {
    // The page: the network first (a new deployment shows at once), the
    // cached page when offline. Any path of the site opens the playground.
    event.respondWith(
      fetch(req).then((resp) => {
        if (resp.ok) return resp;
        return caches.match("./").then((hit) => hit || resp);
      }).catch(() => caches.match("./"))
    );
    return;
  }
  // Hashed assets never change, and a changed data file comes with a new
  // VERSION: the cache first, then the network.
  event.respondWith(caches.match(req).then((hit) => hit || fetch(req)));
});
