// @ts-check
/* Drawing the board in the page's SVG (#board).
 *
 * For tests: #board carries data-to-move, data-over, data-pits and
 * data-bottom; every pit data-pit="P-I", data-seeds and data-letter, every
 * store data-store="P" and data-seeds. Legal pits have the class "legal".
 */

import { boardElement } from "./dom.js";
import { STYLE, cellPlace, geometry, seedSpots, storeSpots, tagWidth } from "./geometry.js";
import { bottomPlayer } from "./state.js";

/** @typedef {import("./api.js").Board} Board */
/** @typedef {import("./api.js").Move} Move */
/** @typedef {import("./geometry.js").Spot} Spot */

/**
 * What the last move did, marked on the board.
 * @typedef {object} Marks
 * @property {number} origin        the flat cell played
 * @property {Set<number>} sown     cells that got a seed
 * @property {number[]} capture     the capturing pit and the pit it emptied
 */

/**
 * What else to show on a board.
 * @typedef {object} BoardOptions
 * @property {Move[]} [legal]       pits that can be clicked (the mover's)
 * @property {((pit: number) => void)} [onPit]  called with a legal pit's index when it is clicked or keyed
 * @property {Marks | null} [marks]
 * @property {number} [fresh]       the cell that just got a seed (drawn popping in)
 * @property {Record<number, number | null>} [values]  analysis: the value of each legal pit
 * @property {Move | null} [best]   analysis: the best move
 * @property {Move} [hint]          the hinted pit
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

/** The gradients and filters of the board, the seeds' colours. @param {SVGSVGElement} svg */
function defs(svg) {
  const d = el("defs", {}, svg);
  gradientStops(el("linearGradient", { id: "wood", x1: "0", y1: "0", x2: "0", y2: "1" }, d), STYLE.wood);
  const grain = el("filter", { id: "grain", x: "0", y: "0", width: "100%", height: "100%" }, d);
  el("feTurbulence", { type: "fractalNoise", baseFrequency: "0.004 0.09", numOctaves: "3", seed: "7", result: "noise" }, grain);
  el("feColorMatrix", { in: "noise", type: "matrix", values: "0 0 0 0 0.35  0 0 0 0 0.18  0 0 0 0 0.05  0 0 0 0.55 -0.05", result: "tint" }, grain);
  el("feComposite", { in: "tint", in2: "SourceGraphic", operator: "in" }, grain);
  gradientStops(el("radialGradient", { id: "hole", cx: "0.5", cy: "0.42", r: "0.62" }, d), STYLE.hole);
  gradientStops(el("linearGradient", { id: "rim", x1: "0", y1: "0", x2: "0", y2: "1" }, d), STYLE.rim);
  STYLE.seed_colors.forEach(([light, dark], i) => {
    const g = el("radialGradient", { id: `seed${i}`, cx: "0.35", cy: "0.3", r: "0.75" }, d);
    el("stop", { offset: "0", "stop-color": "#ffffff", "stop-opacity": "0.85" }, g);
    el("stop", { offset: "0.25", "stop-color": light }, g);
    el("stop", { offset: "1", "stop-color": dark }, g);
  });
  const shadow = el("filter", { id: "shadow", x: "-10%", y: "-10%", width: "120%", height: "130%" }, d);
  el("feDropShadow", { dx: "0", dy: "6", stdDeviation: "6", "flood-color": "#2b1605", "flood-opacity": "0.45" }, shadow);
}

/** @param {Element} parent @param {Spot} spot @param {string} cls */
function drawSeed(parent, spot, cls) {
  el("ellipse", {
    cx: spot.x.toFixed(1), cy: spot.y.toFixed(1), rx: STYLE.seed.rx, ry: STYLE.seed.ry,
    transform: `rotate(${spot.rot} ${spot.x.toFixed(1)} ${spot.y.toFixed(1)})`,
    fill: `url(#seed${spot.color})`, stroke: "rgba(0,0,0,0.35)", "stroke-width": "0.6", class: cls,
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

/** The last drawing's arguments and width on the screen: the board is drawn again when its width changes, as the
 * sizes of its labels depend on it.
 * @type {{args: Parameters<typeof drawBoard>, width: number} | null} */
let drawn = null;
const resized = new ResizeObserver(() => {
  // A change under a scrollbar's width is ignored: it cannot make a label unreadable, and redrawing for it
  // could change the page's height, the scrollbar, and so the width again.
  if (drawn && Math.abs(boardElement().getBoundingClientRect().width - drawn.width) > 24) drawBoard(...drawn.args);
});

/**
 * Draw `board` with `toMove` to move (and the game `over` or not) in #board.
 * @param {Board} board @param {number} toMove @param {boolean} over @param {BoardOptions} [options]
 */
export function drawBoard(board, toMove, over, options) {
  const opts = options || {};
  const svg = boardElement();
  const m = board[0].length - 1;
  const width = svg.getBoundingClientRect().width;
  drawn = { args: [board, toMove, over, options], width };
  resized.observe(svg);
  const g = geometry(m, width);
  const bottom = bottomPlayer();
  const frame = STYLE.frame;
  svg.setAttribute("viewBox", `0 0 ${g.W} ${g.H}`);
  svg.replaceChildren();
  defs(svg);
  svg.dataset.toMove = String(toMove);
  svg.dataset.over = over ? "true" : "false";
  svg.dataset.pits = String(m);
  svg.dataset.bottom = String(bottom);

  const outline = { x: frame.inset, y: frame.inset, width: g.W - 2 * frame.inset, height: g.H - 2 * frame.inset, rx: frame.radius };
  el("rect", { ...outline, fill: "url(#wood)", filter: "url(#shadow)", class: "wood" }, svg);
  el("rect", { ...outline, fill: "#a0642f", filter: "url(#grain)", opacity: "0.9" }, svg);
  el("rect", { x: frame.line_inset, y: frame.line_inset, width: g.W - 2 * frame.line_inset, height: g.H - 2 * frame.line_inset,
    rx: frame.line_radius, fill: "none", stroke: "rgba(255,230,190,0.35)", "stroke-width": 2 }, svg);

  // The mover's row glows, around its letters too: they are the keys that play it.
  if (!over) {
    const r = g.glow(toMove !== bottom);
    el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: 16, class: "turn-glow" }, svg);
  }

  /** @type {Drawing} */
  const d = { svg, g, opts, toMove, legal: new Set((opts.legal || []).filter((x) => x !== "swap")) };
  board[0].concat(board[1]).forEach((count, cell) => {
    const place = cellPlace(g, cell, bottom);
    if (place.kind === "store") drawStore(d, place, count, cell);
    else drawPit(d, place, count, cell);
  });
}

/**
 * What every pit and store of one drawing needs.
 * @typedef {{svg: Element, g: import("./geometry.js").Geometry, opts: BoardOptions, toMove: number, legal: Set<Move>}} Drawing
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
  el("rect", { x: r.x - 3, y: r.y - 3, width: r.w + 6, height: r.h + 6, rx: r.w / 2 + 3, fill: "url(#rim)", opacity: "0.8" }, group);
  el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: r.w / 2, fill: "url(#hole)", class: "cup" }, group);
  storeSpots(count, cell, r).forEach((spot, k) => drawSeed(group, spot, seedClass(d, cell, count, k)));
  tag(group, "count store-count", r.x + r.w / 2, g.storeCountY(r === g.storeLeft), String(count), g.tags.store, 2.5);
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
  el("circle", { cx: place.x, cy: place.y, r: g.R + 3, fill: "url(#rim)", opacity: "0.8" }, group);
  el("circle", { cx: place.x, cy: place.y, r: g.R, fill: "url(#hole)", class: "cup" }, group);
  const seeds = el("g", { transform: `translate(${place.x} ${place.y})` }, group);
  seedSpots(count, cell, g.R).forEach((spot, k) => drawSeed(seeds, spot, seedClass(d, cell, count, k)));
  el("circle", { cx: place.x, cy: place.y, r: g.R, class: "ring" }, group);
  tag(group, "count", place.x, g.countY(place.top), String(count), g.tags.count, 2);
  el("text", { x: place.x, y: g.letterY(place.top), "text-anchor": "middle", "dominant-baseline": "central",
    "font-size": g.letterSize.toFixed(1), class: place.top ? "letter top" : "letter" }, group).textContent = letter;
  const v = (opts.values || {})[pit];
  if (isLegal && v !== undefined && v !== null) {
    tag(group, "value" + (opts.best === pit ? " best" : ""), place.x, g.valueY(place.top), (v > 0 ? "+" : "") + v, g.tags.value, 2);
  }
  const onPit = opts.onPit;
  if (isLegal && onPit) {
    group.addEventListener("click", () => onPit(pit));
    group.addEventListener("keydown", (event) => {
      const key = /** @type {KeyboardEvent} */ (event).key;
      if (key === "Enter" || key === " ") { event.preventDefault(); onPit(pit); }
    });
  }
}
