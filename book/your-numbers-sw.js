// The "your numbers" panel's service worker, written into the site's root by tools/build_book.py
// with CACHE named after the pinned Pyodide and the digest of the book's modules, and FILES, the
// site's paths of _pyodide/ and of each edition's panel script. It keeps them once the panel has
// started, so that every later page, in every edition, starts the book's Python from them,
// offline too. A rebuilt site (other modules, another Pyodide) brings another CACHE, and the
// old one is dropped. Every other request goes to the network as always.
const CACHE = "__CACHE__";
const FILES = __FILES__;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE)
    .then((cache) => cache.addAll(FILES.map((path) => new URL(path, self.registration.scope))))
    .then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((name) => name !== CACHE).map((name) => caches.delete(name))))
    .then(() => self.clients.claim()));
});

const KEPT = new Set(FILES.map((path) => new URL(path, self.registration.scope).href));

self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  url.search = "";
  if (!KEPT.has(url.href)) return;   // the site's pages and the rest: as always
  event.respondWith(caches.open(CACHE).then((cache) => cache.match(url.href)
    .then((kept) => kept || fetch(event.request))));
});
