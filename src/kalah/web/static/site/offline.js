// @ts-check
/* A page of a static site made by `kalah site build` registers the site's service worker (sw.js at the site's
 * root), which keeps the site's files for offline visits. Loaded by every page of such a site only. */

if ("serviceWorker" in navigator && location.protocol !== "file:") {
  navigator.serviceWorker.register(new URL("../../sw.js", import.meta.url)).catch((error) => console.warn("no offline copy:", error));
}
