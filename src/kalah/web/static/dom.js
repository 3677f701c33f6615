// @ts-check
/* Small helpers for the page's elements. */

/**
 * The element of the page that `selector` names (every one the code asks for exists in index.html).
 * @param {string} selector @returns {HTMLElement}
 */
export function $(selector) {
  const node = document.querySelector(selector);
  if (!node) throw new Error(`the page has no ${selector}`);
  return /** @type {HTMLElement} */ (node);
}

/** @param {string} selector @returns {HTMLInputElement} */
export const $input = (selector) => /** @type {HTMLInputElement} */ ($(selector));

/** @param {string} selector @returns {HTMLSelectElement} */
export const $select = (selector) => /** @type {HTMLSelectElement} */ ($(selector));

/** @param {string} selector @returns {HTMLDialogElement} */
export const $dialog = (selector) => /** @type {HTMLDialogElement} */ ($(selector));

/** The board's SVG element, whose data-* attributes are the tests' hooks. @returns {SVGSVGElement} */
export const boardElement = () => /** @type {SVGSVGElement} */ (/** @type {unknown} */ ($("#board")));

/**
 * Scroll `list` so that `item`, one of its children, is inside its visible box. Only the list's own scrollTop
 * moves: scrollIntoView would scroll the page too, and on a phone pull the board out of sight.
 * @param {HTMLElement} list @param {Element} item
 */
export function scrollIntoList(list, item) {
  const top = list.getBoundingClientRect().top + list.clientTop, bottom = top + list.clientHeight;
  const box = item.getBoundingClientRect();
  if (box.top < top) list.scrollTop -= top - box.top;
  else if (box.bottom > bottom) list.scrollTop += box.bottom - bottom;
}

/** @param {number} ms @returns {Promise<void>} */
export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** @type {ReturnType<typeof setTimeout> | undefined} */
let bannerTimer;

/**
 * News over the status line under the board (#banner: the board page's and the live page's): never over the
 * board, where it hid the last move on a phone.
 * @param {string} text @param {string} [kind] its look: good, capture, info or result
 * @param {number} [ms] hide it after this long (default: keep it)
 */
export function showBanner(text, kind, ms) {
  const banner = $("#banner");
  // a score never breaks over two lines ("wins 39 –" / "9"): it is a span that does not wrap
  banner.replaceChildren(...text.split(/(\d+ – \d+)/).map((part, i) => {
    if (i % 2 === 0) return part;
    const score = document.createElement("span");
    score.className = "nowrap";
    score.textContent = part;
    return score;
  }));
  banner.className = "banner " + (kind || "");
  banner.hidden = false;
  clearTimeout(bannerTimer);
  if (ms) bannerTimer = setTimeout(() => { banner.hidden = true; }, ms);
}

/** Hide the message over the board. */
export function hideBanner() { $("#banner").hidden = true; }
