// @ts-check
/* The review's evaluation graph (review.js): player 0's value before each move and at the end, the
 * mistakes and blunders marked, the move numbers under it.
 *
 * It is drawn at the size it is shown, one unit a CSS pixel, and drawn again when its width changes: a
 * fixed 800-unit drawing scaled down to a 340 px phone was 90 px high, with points two pixels across.
 * Here the height has a floor, the points and numbers keep their pixel sizes, and where the points
 * crowd (a long game on a phone) they shrink to their spacing and the move numbers thin out. A click
 * anywhere over the graph picks the nearest point, so a crowded graph is still easy to tap.
 *
 * graphLayout is pure (no DOM): tests/js/reviewgraph.test.js runs it in Node. */

import { el } from "./svg.js";

/** @typedef {import("./review.js").Review} Review */

/** Room at the ends for the biggest point, above the plot, and below it for the move numbers. */
const PAD_X = 14, PAD_TOP = 12, AXIS = 30;
/** The height of the plot: a share of the width, within these bounds (CSS pixels). */
const MIN_HEIGHT = 170, MAX_HEIGHT = 240;
/** How far apart two move numbers stand at least (CSS pixels): three digits of the 12 px labels and a gap. */
const TICK_SPACE = 34;
const TICK_STEPS = [1, 2, 5, 10, 20, 25, 50, 100, 200, 500];
const BAD = ["mistake", "blunder"];

/**
 * Where everything of the graph goes, in CSS pixels.
 * @typedef {object} GraphLayout
 * @property {number} width @property {number} height
 * @property {number} zeroY                 the line of an even game
 * @property {number} top                   the value at the top edge of the plot (and its negative at the bottom)
 * @property {{x: number, y: number, r: number}[]} points  one a value, in order
 * @property {{x: number, number: number}[]} ticks  a move's number and where its point is
 * @property {number} axisY                 the centre line of the move numbers
 * @property {number} plotBottom            the plot's lowest y
 */

/**
 * @param {(number | null)[]} values player 0's values, before each move and at the end
 * @param {{number: number, class: string}[]} moves the moves (the move before value i is moves[i - 1])
 * @param {number} width the width the graph is shown at (CSS pixels)
 * @returns {GraphLayout}
 */
export function graphLayout(values, moves, width) {
  const height = Math.round(Math.max(MIN_HEIGHT, Math.min(MAX_HEIGHT, width * 0.28)));
  const plotBottom = height - AXIS, zeroY = (PAD_TOP + plotBottom) / 2;
  const top = Math.max(4, ...values.map((v) => Math.abs(v ?? 0)));
  const step = (width - 2 * PAD_X) / Math.max(1, values.length - 1);
  const x = (/** @type {number} */ i) => PAD_X + i * step;
  // the points never overlap their neighbours by much: a long game on a phone has a few pixels a move
  const r = Math.max(2.5, Math.min(5, step * 0.42));
  const points = values.map((v, i) => {
    const bad = i > 0 && BAD.includes(moves[i - 1].class);
    return { x: x(i), y: zeroY - ((v ?? 0) * (zeroY - PAD_TOP)) / top, r: bad ? r + 2 : r };
  });
  // every move has its own number (as in the move list), so numbers fall at evenly spaced points
  const every = TICK_STEPS.find((k) => k * step >= TICK_SPACE) || TICK_STEPS[TICK_STEPS.length - 1];
  /** @type {{x: number, number: number}[]} */
  const ticks = [];
  moves.forEach((move, k) => {
    if (move.number % every === 0) ticks.push({ x: x(k + 1), number: move.number });
  });
  return { width, height, zeroY, top, points, ticks, axisY: height - AXIS / 2 + 2, plotBottom };
}

/** A value with its sign ("+2", "−" is the caller's), "?" when unknown. @param {number | null} v @returns {string} */
export const signed = (v) => (v === null || v === undefined ? "?" : (v > 0 ? "+" : "") + (Number.isInteger(v) ? v : v.toFixed(2)));

/**
 * Draw the graph of `review` into `svg` at its width on the screen, point `selected` marked.
 * @param {SVGSVGElement} svg @param {Review} review @param {number} selected @returns {GraphLayout}
 */
export function drawGraph(svg, review, selected) {
  const shown = svg.getBoundingClientRect().width;
  const g = graphLayout(review.evaluation, review.moves, shown > 0 ? shown : 800);
  svg.setAttribute("viewBox", `0 0 ${g.width} ${g.height}`);
  svg.replaceChildren();
  const ends = `${g.points[0].x},${g.zeroY}`;
  const line = g.points.map((p) => `${p.x.toFixed(1)},${p.y.toFixed(1)}`).join(" ");
  el("polygon", { points: `${ends} ${line} ${g.points[g.points.length - 1].x},${g.zeroY}`, class: "rv-area" }, svg);
  for (const tick of g.ticks) {
    el("line", { x1: tick.x, x2: tick.x, y1: 4, y2: g.plotBottom + 6, class: "rv-tick" }, svg);
    el("text", { x: tick.x, y: g.axisY, "text-anchor": "middle", "dominant-baseline": "central", class: "rv-tick-label" }, svg)
      .textContent = String(tick.number);
  }
  el("line", { x1: g.points[0].x, x2: g.width - g.points[0].x, y1: g.zeroY, y2: g.zeroY, class: "rv-zero" }, svg);
  el("polyline", { points: line, class: "rv-line" }, svg);
  g.points.forEach((p, i) => {
    const move = i > 0 ? review.moves[i - 1] : null;
    const dot = el("circle", { cx: p.x.toFixed(1), cy: p.y.toFixed(1), r: p.r,
      class: `rv-point ${move ? move.class : "start"}${review.exact[i] ? " exact" : ""}${i === selected ? " selected" : ""}` }, svg);
    dot.dataset.point = String(i);
    dot.dataset.class = move ? move.class : "start";
    el("title", {}, dot).textContent = `${move ? `after ${move.number}. ${move.name} (${move.class})` : "start"}: ` +
      `${signed(review.evaluation[i])} for ${review.players[0]}`;
  });
  return g;
}

/**
 * The point nearest a click at `clientX` over a graph drawn with `layout`.
 * @param {SVGSVGElement} svg @param {GraphLayout} layout @param {number} clientX @returns {number}
 */
export function pointAt(svg, layout, clientX) {
  const box = svg.getBoundingClientRect();
  const x = ((clientX - box.left) * layout.width) / Math.max(1, box.width);
  let best = 0;
  layout.points.forEach((p, i) => { if (Math.abs(p.x - x) < Math.abs(layout.points[best].x - x)) best = i; });
  return best;
}
