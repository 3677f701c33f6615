// @ts-check
/* The one helper that makes SVG elements: the board, the review's graph and the lab's trees and charts
 * draw with it. */

/** The SVG namespace, for the elements createElementNS makes. */
export const SVGNS = "http://www.w3.org/2000/svg";

/**
 * A new SVG element `name` with `attrs` (values written as text), added to `parent` when one is given.
 * @param {string} name @param {Record<string, string | number>} attrs @param {Element} [parent]
 * @returns {SVGElement}
 */
export function el(name, attrs, parent) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVGNS, name));
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}
