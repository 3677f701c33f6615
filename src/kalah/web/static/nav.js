// @ts-check
/* The one navigation bar of every page (the board page, the live page, the lab and its MCTS page): the
 * same links in the same order wherever the user is, so that nothing moves or disappears from page to
 * page. Each page's HTML holds an empty <header class="topbar">; its main module calls mountNav() before
 * anything else, so that the links exist when the page points them somewhere (the board page's Lab link
 * carries the position shown, the lab's MCTS link the position traced).
 *
 * A static site (kalah site build) has no server for games between people: its bar has no "Play a friend"
 * and "Lobby", and its links lead to its own pages wherever it is put (site.js).
 *
 * For tests: header.topbar nav a[data-nav=NAME] in the order of LINKS; the current one has
 * aria-current="page" and the class "current". */

import { currentPage, pageHref, STATIC_SITE } from "./site.js";

/**
 * A link of the bar. `id` is the hook the pages and tests already use; `href` is a page (site.js's pageHref)
 * and what follows it.
 * @typedef {{name: string, id: string, href: [string, string], text: string, title?: string, primary?: boolean, live?: boolean}} NavLink
 */

/** @type {NavLink[]} */
export const LINKS = [
  { name: "new", id: "btn-new", href: ["", "#/new"], text: "New game", primary: true,
    title: "A game against the computer, a person at this screen, or computers among themselves" },
  { name: "play", id: "nav-board", href: ["", "#/"], text: "Play", title: "The board" },
  { name: "puzzles", id: "nav-puzzles", href: ["", "#/puzzles"], text: "Puzzles" },
  { name: "friend", id: "nav-friend", href: ["live", "#/new"], text: "Play a friend", live: true,
    title: "A game with a friend at another screen: you get a link to send" },
  { name: "lobby", id: "nav-live", href: ["live", "#/lobby"], text: "Lobby", live: true, title: "Open challenges on this server" },
  { name: "library", id: "nav-library", href: ["", "#/library"], text: "Library", title: "Your games: replay and review them" },
  { name: "lab", id: "nav-lab", href: ["lab", ""], text: "Lab", title: "A search, node by node" },
  { name: "mcts", id: "nav-mcts", href: ["lab/mcts", ""], text: "MCTS", title: "Monte-Carlo tree search beside alpha-beta" },
];

/**
 * Which link names the page `page` (site.js's currentPage: "", "lab", "lab/mcts", "live") at `hash`: a replay
 * and a review are of a library game, a live game is one with a friend. "" when none does.
 * @param {string} page @param {string} hash @returns {string}
 */
export function currentName(page, hash) {
  if (page === "lab/mcts") return "mcts";
  if (page === "lab") return "lab";
  if (page === "live") return hash.startsWith("#/lobby") ? "lobby" : "friend";
  if (page !== "") return "";
  if (/^#\/(library|replay|review)/.test(hash)) return "library";
  if (hash.startsWith("#/puzzles")) return "puzzles";
  return "play";
}

/** Mark the link of the page shown now. */
function markCurrent() {
  const name = currentName(currentPage(), location.hash);
  for (const link of document.querySelectorAll("header.topbar nav a[data-nav]")) {
    const here = /** @type {HTMLElement} */ (link).dataset.nav === name;
    link.classList.toggle("current", here);
    if (here) link.setAttribute("aria-current", "page"); else link.removeAttribute("aria-current");
  }
}

/** Fill the page's header with the brand and the links, and keep the current one marked as the address changes. */
export function mountNav() {
  const header = document.querySelector("header.topbar");
  if (!header) throw new Error("the page has no header.topbar");
  const brand = document.createElement("a");
  brand.className = "brand";
  brand.href = pageHref("", "#/");
  brand.textContent = "Kalah";
  const nav = document.createElement("nav");
  nav.setAttribute("aria-label", "Pages");
  for (const item of LINKS.filter((link) => !(STATIC_SITE && link.live))) {
    const link = document.createElement("a");
    link.id = item.id;
    link.href = pageHref(...item.href);
    link.textContent = item.text;
    link.dataset.nav = item.name;
    if (item.title) link.title = item.title;
    if (item.primary) link.className = "primary";
    nav.appendChild(link);
  }
  // the board page points its Lab link at the position shown (page.js)
  nav.querySelector("[data-nav=lab]")?.classList.add("lab-link");
  header.replaceChildren(brand, nav);
  markCurrent();
  window.addEventListener("hashchange", markCurrent);
}
