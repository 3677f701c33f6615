// @ts-check
/* The board as a component: `createBoard(svg, config)` draws into one SVG
 * element, animates moves on it and reports clicks on its pits. Everything a
 * board knows (its last drawing, its orientation, its size on the screen, the
 * ids of its gradients) lives in the instance, so a page can hold several
 * boards (the game page, the lab's editor, two boards side by side in a test).
 * The page wires its state in through the config (pageboard.js); nothing here
 * imports a page's module.
 *
 * For tests: the SVG carries data-to-move, data-over, data-pits,
 * data-bottom, data-upright (the board stands upright on a narrow screen:
 * upright.js) and data-board-name (the instance that drew it last); every pit
 * data-pit="P-I", data-seeds and data-letter, every store data-store="P" and
 * data-seeds. Legal pits have the class "legal".
 */

import { animateMove } from "./anim.js";
import { cellPlace, countAt, hitAt, letterAt, seedSpots, storeCountAt, storeSpots, tagWidth, valueAt } from "./geometry.js";
import { boardGeometry } from "./upright.js";

/** @typedef {import("./api.js").Board} Board */
/** @typedef {import("./api.js").Effect} Effect */
/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./geometry.js").BoardStyle} BoardStyle */
/** @typedef {import("./geometry.js").Spot} Spot */

/**
 * What the last move did, marked on the board.
 * @typedef {object} Marks
 * @property {number} origin        the flat cell played
 * @property {Set<number>} sown     cells that got a seed
 * @property {number[]} capture     the capturing pit and the pit it emptied
 */

/**
 * What else to show on one drawing of a board.
 * @typedef {object} BoardOptions
 * @property {Move[]} [legal]       pits that can be clicked (the mover's)
 * @property {((pit: number) => void)} [onPit]  called with a legal pit's index when it is clicked or keyed
 *                                   (instead of the board's own `onPit`)
 * @property {Marks | null} [marks]
 * @property {number} [fresh]       the cell that just got a seed (drawn popping in)
 * @property {Record<number, number | null>} [values]  analysis: the value of each legal pit
 * @property {Move | null} [best]   analysis: the best move
 * @property {Move} [hint]          the hinted pit
 */

/**
 * How a board is made.
 * @typedef {object} BoardConfig
 * @property {BoardStyle} style     sizes and colours (kalah/rules/board.json; the page's is style.js's STYLE)
 * @property {number} [bottom]      the player whose pits run along the bottom (0 when not given; see setBottom)
 * @property {(pit: number) => void} [onPit]  a legal pit was clicked or keyed
 * @property {() => number} [animMs]  milliseconds per step of an animated move, read when one starts; 0: no animation
 *                                   (170 when not given)
 * @property {(text: string, kind: string, ms: number) => void} [onBanner]  an animated move has news to show
 *                                   ("Extra turn!", a capture, a swap); nothing is shown when not given
 * @property {boolean} [values]     false: the board never shows analysis values, so it keeps no room for them
 *                                   (geometry.js)
 */

/**
 * A board on the page: made by createBoard.
 * @typedef {object} BoardApi
 * @property {SVGSVGElement} element  the SVG it draws into
 * @property {(board: Board, toMove: number, over: boolean, options?: BoardOptions) => void} draw
 *   draw `board` with `toMove` to move (and the game `over` or not)
 * @property {(last: Effect, final: Board, toMove: number, over: boolean, options?: BoardOptions) => Promise<void>} animate
 *   play `last` back seed by seed from its `before` board, then draw `final` (with `options`)
 * @property {(player: number) => void} setBottom  the player shown at the bottom from the next drawing on
 * @property {() => number} bottom   the player shown at the bottom
 * @property {() => void} destroy    stop following the element's size (the drawing stays)
 */

const SVGNS = "http://www.w3.org/2000/svg";

/**
 * A new SVG element.
 * @param {string} name @param {Record<string, string | number>} attrs @param {Element} [parent] @returns {SVGElement}
 */
function el(name, attrs, parent) {
  const node = /** @type {SVGElement} */ (document.createElementNS(SVGNS, name));
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

/** @param {Element} parent @param {[number, string][]} stops */
function gradientStops(parent, stops) {
  for (const [offset, color] of stops) el("stop", { offset, "stop-color": color }, parent);
}

/** The ids of one board's gradients and filters: ids are global to a page, so each board has its own.
 * @typedef {{wood: string, grain: string, hole: string, rim: string, shadow: string, seed: (i: number) => string}} Ids */

/** @param {string} prefix @returns {Ids} */
function makeIds(prefix) {
  return { wood: `${prefix}-wood`, grain: `${prefix}-grain`, hole: `${prefix}-hole`, rim: `${prefix}-rim`,
    shadow: `${prefix}-shadow`, seed: (i) => `${prefix}-seed${i}` };
}

/** The gradients and filters of the board, the seeds' colours.
 * @param {SVGSVGElement} svg @param {BoardStyle} style @param {Ids} ids */
function defs(svg, style, ids) {
  const d = el("defs", {}, svg);
  gradientStops(el("linearGradient", { id: ids.wood, x1: "0", y1: "0", x2: "0", y2: "1" }, d), style.wood);
  const grain = el("filter", { id: ids.grain, x: "0", y: "0", width: "100%", height: "100%" }, d);
  el("feTurbulence", { type: "fractalNoise", baseFrequency: "0.004 0.09", numOctaves: "3", seed: "7", result: "noise" }, grain);
  el("feColorMatrix", { in: "noise", type: "matrix", values: "0 0 0 0 0.35  0 0 0 0 0.18  0 0 0 0 0.05  0 0 0 0.55 -0.05", result: "tint" }, grain);
  el("feComposite", { in: "tint", in2: "SourceGraphic", operator: "in" }, grain);
  gradientStops(el("radialGradient", { id: ids.hole, cx: "0.5", cy: "0.42", r: "0.62" }, d), style.hole);
  gradientStops(el("linearGradient", { id: ids.rim, x1: "0", y1: "0", x2: "0", y2: "1" }, d), style.rim);
  style.seed_colors.forEach(([light, dark], i) => {
    const g = el("radialGradient", { id: ids.seed(i), cx: "0.35", cy: "0.3", r: "0.75" }, d);
    el("stop", { offset: "0", "stop-color": "#ffffff", "stop-opacity": "0.85" }, g);
    el("stop", { offset: "0.25", "stop-color": light }, g);
    el("stop", { offset: "1", "stop-color": dark }, g);
  });
  const shadow = el("filter", { id: ids.shadow, x: "-10%", y: "-10%", width: "120%", height: "130%" }, d);
  el("feDropShadow", { dx: "0", dy: "6", stdDeviation: "6", "flood-color": "#2b1605", "flood-opacity": "0.45" }, shadow);
}

/** @param {Drawing} d @param {Element} parent @param {Spot} spot @param {string} cls */
function drawSeed(d, parent, spot, cls) {
  el("ellipse", {
    cx: spot.x.toFixed(1), cy: spot.y.toFixed(1), rx: d.style.seed.rx, ry: d.style.seed.ry,
    transform: `rotate(${spot.rot} ${spot.x.toFixed(1)} ${spot.y.toFixed(1)})`,
    fill: `url(#${d.ids.seed(spot.color)})`, stroke: "rgba(0,0,0,0.35)", "stroke-width": "0.6", class: cls,
  }, parent);
}

/**
 * A number on a rounded tag centred at (x, y), as wide as its text needs and at least `minEms`.
 * @param {Element} parent @param {string} cls @param {number} x @param {number} y @param {string} text
 * @param {import("./geometry.js").TagSize} size @param {number} minEms
 */
function tag(parent, cls, x, y, text, size, minEms) {
  const group = el("g", { class: cls }, parent);
  const w = tagWidth(text, size, minEms);
  el("rect", { x: x - w / 2, y: y - size.h / 2, width: w, height: size.h, rx: size.h / 2 }, group);
  el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", "font-size": size.font.toFixed(1) }, group)
    .textContent = text;
}

/**
 * A board over `svg`: see BoardApi for what it does.
 * @param {SVGSVGElement} svg @param {BoardConfig} config @returns {BoardApi}
 */
export function createBoard(svg, config) {
  const style = config.style;
  // Ids are global to the page: a random prefix keeps two boards' gradients apart.
  const name = `kb${Math.random().toString(36).slice(2, 8)}`;
  const ids = makeIds(name);
  let bottom = config.bottom || 0;
  /** The last drawing's arguments and width on the screen: the board is drawn again when its width changes, as
   * the sizes of its labels depend on it.
   * @type {{args: [Board, number, boolean, BoardOptions | undefined], width: number} | null} */
  let drawn = null;
  const resized = new ResizeObserver(() => {
    // Another board may have drawn into the same element since (the page's game and replay views share one):
    // only the last one to draw follows its size.
    if (!drawn || svg.dataset.boardName !== name) return;
    // A change under a scrollbar's width is ignored: it cannot make a label unreadable, and redrawing for it
    // could change the page's height, the scrollbar, and so the width again.
    if (Math.abs(svg.getBoundingClientRect().width - drawn.width) > 24) draw(...drawn.args);
  });

  /** @param {Board} board @param {number} toMove @param {boolean} over @param {BoardOptions} [options] */
  function draw(board, toMove, over, options) {
    const opts = options || {};
    const m = board[0].length - 1;
    const width = svg.getBoundingClientRect().width;
    drawn = { args: [board, toMove, over, options], width };
    resized.observe(svg);
    const g = boardGeometry(style, m, width, { values: config.values !== false });
    const frame = style.frame;
    svg.setAttribute("viewBox", `0 0 ${g.W} ${g.H}`);
    svg.replaceChildren();
    defs(svg, style, ids);
    svg.dataset.boardName = name;
    svg.dataset.toMove = String(toMove);
    svg.dataset.over = over ? "true" : "false";
    svg.dataset.pits = String(m);
    svg.dataset.bottom = String(bottom);
    svg.dataset.upright = String(g.upright);

    const box = g.frame;
    const outline = { x: box.x + frame.inset, y: box.y + frame.inset, width: box.w - 2 * frame.inset,
      height: box.h - 2 * frame.inset, rx: frame.radius };
    el("rect", { ...outline, fill: `url(#${ids.wood})`, filter: `url(#${ids.shadow})`, class: "wood" }, svg);
    el("rect", { ...outline, fill: "#a0642f", filter: `url(#${ids.grain})`, opacity: "0.9" }, svg);
    el("rect", { x: box.x + frame.line_inset, y: box.y + frame.line_inset, width: box.w - 2 * frame.line_inset,
      height: box.h - 2 * frame.line_inset, rx: frame.line_radius, fill: "none", stroke: "rgba(255,230,190,0.35)",
      "stroke-width": 2 }, svg);

    // The mover's row glows, around its letters too: they are the keys that play it.
    if (!over) {
      const r = g.glow(toMove !== bottom);
      el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: 16, class: "turn-glow" }, svg);
    }

    /** @type {Drawing} */
    const d = { svg, g, style, ids, opts, toMove, legal: new Set((opts.legal || []).filter((x) => x !== "swap")),
      onPit: opts.onPit || config.onPit };
    board[0].concat(board[1]).forEach((count, cell) => {
      const place = cellPlace(g, cell, bottom);
      if (place.kind === "store") drawStore(d, place, count, cell);
      else drawPit(d, place, count, cell);
    });
  }

  return {
    element: svg,
    draw,
    animate: (last, final, toMove, over, options) => animateMove({
      draw, ms: config.animMs ? config.animMs() : 170, banner: config.onBanner || (() => {}),
    }, last, final, toMove, over, options),
    setBottom: (player) => { bottom = player; },
    bottom: () => bottom,
    destroy: () => resized.disconnect(),
  };
}

/**
 * What every pit and store of one drawing needs.
 * @typedef {object} Drawing
 * @property {Element} svg
 * @property {import("./geometry.js").Geometry} g
 * @property {BoardStyle} style
 * @property {Ids} ids
 * @property {BoardOptions} opts
 * @property {number} toMove
 * @property {Set<Move>} legal
 * @property {((pit: number) => void) | undefined} onPit
 */

/** @param {Drawing} d @param {number} cell @param {number} count @param {number} k */
const seedClass = (d, cell, count, k) => (d.opts.fresh === cell && k === count - 1 ? "seed fresh" : "seed");

/** @param {Drawing} d @param {number} cell */
const isSown = (d, cell) => !!d.opts.marks && d.opts.marks.sown.has(cell);

/**
 * @param {Drawing} d @param {Extract<import("./geometry.js").Place, {kind: "store"}>} place
 * @param {number} count @param {number} cell
 */
function drawStore(d, place, count, cell) {
  const r = place.rect, g = d.g;
  const group = el("g", { class: "store" + (isSown(d, cell) ? " sown" : ""), "data-store": String(place.player),
    "data-seeds": String(count) }, d.svg);
  // a capsule: round at the ends of its long side (across an upright board, a store lies on its side)
  const round = Math.min(r.w, r.h) / 2;
  el("rect", { x: r.x - 3, y: r.y - 3, width: r.w + 6, height: r.h + 6, rx: round + 3, fill: `url(#${d.ids.rim})`, opacity: "0.8" }, group);
  el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: round, fill: `url(#${d.ids.hole})`, class: "cup" }, group);
  storeSpots(d.style, count, cell, r).forEach((spot, k) => drawSeed(d, group, spot, seedClass(d, cell, count, k)));
  const label = storeCountAt(g, r);
  tag(group, "count store-count", label.x, label.y, String(count), g.tags.store, 2.5);
}

/**
 * @param {Drawing} d @param {Extract<import("./geometry.js").Place, {kind: "pit"}>} place
 * @param {number} count @param {number} cell
 */
function drawPit(d, place, count, cell) {
  const pit = place.index, g = d.g, opts = d.opts, marks = opts.marks;
  const moving = place.player === d.toMove, isLegal = moving && d.legal.has(pit);
  const classes = ["pit"];
  if (isLegal) classes.push("legal");
  if (isSown(d, cell)) classes.push("sown");
  if (marks && marks.origin === cell) classes.push("origin");
  if (marks && marks.capture.includes(cell)) classes.push("captured");
  if (opts.hint === pit && moving) classes.push("hint");
  const letter = String.fromCharCode((place.player === 0 ? 65 : 97) + pit);
  const group = el("g", { class: classes.join(" "), "data-pit": `${place.player}-${pit}`, "data-seeds": String(count),
    "data-letter": letter }, d.svg);
  if (isLegal) {
    group.setAttribute("role", "button");
    group.setAttribute("tabindex", "0");
    group.setAttribute("aria-label", `pit ${letter}, ${count} seeds`);
  }
  if (isLegal) {
    const hit = hitAt(g, place);
    el("rect", { x: hit.x, y: hit.y, width: hit.w, height: hit.h, fill: "transparent", class: "hit" }, group);
  }
  el("circle", { cx: place.x, cy: place.y, r: g.R + 3, fill: `url(#${d.ids.rim})`, opacity: "0.8" }, group);
  el("circle", { cx: place.x, cy: place.y, r: g.R, fill: `url(#${d.ids.hole})`, class: "cup" }, group);
  const seeds = el("g", { transform: `translate(${place.x} ${place.y})` }, group);
  seedSpots(d.style, count, cell, g.R).forEach((spot, k) => drawSeed(d, seeds, spot, seedClass(d, cell, count, k)));
  el("circle", { cx: place.x, cy: place.y, r: g.R, class: "ring" }, group);
  const countSpot = countAt(g, place), letterSpot = letterAt(g, place);
  tag(group, "count", countSpot.x, countSpot.y, String(count), g.tags.count, g.countEms);
  el("text", { x: letterSpot.x, y: letterSpot.y, "text-anchor": "middle", "dominant-baseline": "central",
    "font-size": g.letterSize.toFixed(1), class: place.top ? "letter top" : "letter" }, group).textContent = letter;
  const v = (opts.values || {})[pit];
  if (isLegal && v !== undefined && v !== null) {
    const valueSpot = valueAt(g, place);
    tag(group, "value" + (opts.best === pit ? " best" : ""), valueSpot.x, valueSpot.y, (v > 0 ? "+" : "") + v, g.tags.value, 2);
  }
  const onPit = d.onPit;
  if (isLegal && onPit) {
    group.addEventListener("click", () => onPit(pit));
    group.addEventListener("keydown", (event) => {
      const key = /** @type {KeyboardEvent} */ (event).key;
      if (key === "Enter" || key === " ") { event.preventDefault(); onPit(pit); }
    });
  }
}
