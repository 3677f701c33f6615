// The service worker of a static site made by `kalah site build` (kalah/web/site.py writes it at the site's
// root with the two lines below filled in): it keeps every file of the site in the browser's cache at the first
// visit, so that the site works offline after it, and answers from the cache first. A new build has a new
// VERSION: its worker takes the files again and drops the old cache.
const VERSION = "@VERSION@";
const FILES = ["@FILES@"];

const CACHE = `kalah-site-${VERSION}`;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((names) => Promise.all(names.filter((name) => name.startsWith("kalah-site-") && name !== CACHE).map((name) => caches.delete(name))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  // a page's address may carry a query (the lab's position): the page's file answers it
  const page = request.mode === "navigate" ? new URL(request.url).pathname : null;
  event.respondWith(
    caches.open(CACHE).then(async (cache) => {
      const cached = (await cache.match(request, { ignoreSearch: page !== null })) ||
        (page !== null ? await cache.match(new URL(page.endsWith("/") ? `${page}index.html` : page, self.location.href).href) : undefined);
      return cached || fetch(request);
    }),
  );
});
