// @ts-check
/* Where the pages are: served by kalah serve (the API under /api, the pages at /, /lab, /lab/mcts and /live),
 * or a static site written by `kalah site build` (<html data-site="static">: no server, the engine in the page,
 * games kept in the browser; the pages at index.html, lab/ and lab/mcts/, wherever the site is put). */

/** True on a static site (false outside a page: the unit tests of the modules that import this one). */
export const STATIC_SITE = typeof document === "object" && document.documentElement.dataset.site === "static";

/** The site's root: this module is in static/ under it. @returns {URL} */
const root = () => new URL("../", import.meta.url);

/** The address of a page: "" (the board), "lab", "lab/mcts" or "live", with a query or a hash.
 * @param {string} page @param {string} [rest] "?..." or "#..." @returns {string} */
export function pageHref(page, rest = "") {
  if (!STATIC_SITE) return `/${page}${rest}`;
  return new URL(page ? `${page}/` : "", root()).pathname + rest;
}

/** The page shown now, as pageHref names it. @returns {string} */
export function currentPage() {
  if (!STATIC_SITE) return location.pathname.replace(/^\/+|\/+$/g, "");
  const base = root().pathname;
  const path = location.pathname.startsWith(base) ? location.pathname.slice(base.length) : location.pathname;
  return path.replace(/index\.html$/, "").replace(/^\/+|\/+$/g, "");
}
