// @ts-check
/* Drawing the board in the page's SVG (#board).
 *
 * For tests: #board carries data-to-move, data-over, data-pits and
 * data-bottom; every pit data-pit="P-I", data-seeds and data-letter, every
 * store data-store="P" and data-seeds. Legal pits have the class "legal".
 */

import { boardElement } from "./dom.js";
import { STYLE, cellPlace, geometry, seedSpots, storeSpots } from "./geometry.js";
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
 * Draw `board` with `toMove` to move (and the game `over` or not) in #board.
 * @param {Board} board @param {number} toMove @param {boolean} over @param {BoardOptions} [options]
 */
export function drawBoard(board, toMove, over, options) {
  const opts = options || {};
  const svg = boardElement();
  const m = board[0].length - 1;
  const g = geometry(m);
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

  // The mover's row glows.
  if (!over) {
    const y = toMove === bottom ? g.rowBottom : g.rowTop;
    el("rect", { x: g.colX(0) - g.R - 10, y: y - g.R - 10, width: g.pitStep * (m - 1) + 2 * g.R + 20, height: 2 * g.R + 20,
      rx: g.R + 10, class: "turn-glow" }, svg);
  }

  const cells = board[0].concat(board[1]);
  const marks = opts.marks;
  const legal = new Set((opts.legal || []).filter((x) => x !== "swap"));
  const values = opts.values || {};
  const onPit = opts.onPit;
  /** @param {number} cell @param {number} count @param {number} k */
  const seedClass = (cell, count, k) => (opts.fresh === cell && k === count - 1 ? "seed fresh" : "seed");
  cells.forEach((count, cell) => {
    const place = cellPlace(g, cell, bottom);
    const sown = !!marks && marks.sown.has(cell);
    if (place.kind === "store") {
      const r = place.rect;
      const group = el("g", { class: "store" + (sown ? " sown" : ""), "data-store": String(place.player), "data-seeds": String(count) }, svg);
      el("rect", { x: r.x - 3, y: r.y - 3, width: r.w + 6, height: r.h + 6, rx: r.w / 2 + 3, fill: "url(#rim)", opacity: "0.8" }, group);
      el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: r.w / 2, fill: "url(#hole)", class: "cup" }, group);
      storeSpots(count, cell, r).forEach((spot, k) => drawSeed(group, spot, seedClass(cell, count, k)));
      const label = el("g", { class: "count store-count" }, group);
      const cy = place.player === bottom ? r.y + r.h + 26 : r.y - 18;
      el("rect", { x: r.x + r.w / 2 - 24, y: cy - 17, width: 48, height: 26, rx: 13, class: "badge" }, label);
      el("text", { x: r.x + r.w / 2, y: cy + 2, "text-anchor": "middle", class: "count-text" }, label).textContent = String(count);
      return;
    }
    const pit = place.index;
    const isLegal = legal.has(pit) && place.player === toMove;
    const classes = ["pit"];
    if (isLegal) classes.push("legal");
    if (sown) classes.push("sown");
    if (marks && marks.origin === cell) classes.push("origin");
    if (marks && marks.capture.includes(cell)) classes.push("captured");
    if (opts.hint === pit && place.player === toMove) classes.push("hint");
    const letter = String.fromCharCode((place.player === 0 ? 65 : 97) + pit);
    const group = el("g", { class: classes.join(" "), "data-pit": `${place.player}-${pit}`, "data-seeds": String(count),
      "data-letter": letter }, svg);
    if (isLegal) {
      group.setAttribute("role", "button");
      group.setAttribute("tabindex", "0");
      group.setAttribute("aria-label", `pit ${letter}, ${count} seeds`);
    }
    el("circle", { cx: place.x, cy: place.y, r: g.R + 3, fill: "url(#rim)", opacity: "0.8" }, group);
    el("circle", { cx: place.x, cy: place.y, r: g.R, fill: "url(#hole)", class: "cup" }, group);
    const seeds = el("g", { transform: `translate(${place.x} ${place.y})` }, group);
    seedSpots(count, cell, g.R).forEach((spot, k) => drawSeed(seeds, spot, seedClass(cell, count, k)));
    el("circle", { cx: place.x, cy: place.y, r: g.R, class: "ring" }, group);
    const cy = place.top ? place.y - g.R - 17 : place.y + g.R + 29;
    const label = el("g", { class: "count" }, group);
    el("rect", { x: place.x - 17, y: cy - 17, width: 34, height: 24, rx: 12, class: "badge" }, label);
    el("text", { x: place.x, y: cy + 1, "text-anchor": "middle", class: "count-text" }, label).textContent = String(count);
    el("text", { x: place.x, y: place.top ? place.y + g.R + 17 : place.y - g.R - 8, "text-anchor": "middle",
      class: place.top ? "letter top" : "letter" }, group).textContent = letter;
    const v = values[pit];
    if (isLegal && v !== undefined && v !== null) {
      const best = opts.best === pit;
      const tag = el("g", { class: "value" + (best ? " best" : "") }, group);
      const vx = place.x + g.R - 6, vy = place.top ? place.y - g.R + 6 : place.y + g.R - 6;
      el("rect", { x: vx - 18, y: vy - 11, width: 36, height: 20, rx: 10 }, tag);
      el("text", { x: vx, y: vy + 4, "text-anchor": "middle" }, tag).textContent = (v > 0 ? "+" : "") + v;
    }
    if (isLegal && onPit) {
      group.addEventListener("click", () => onPit(pit));
      group.addEventListener("keydown", (event) => {
        const key = /** @type {KeyboardEvent} */ (event).key;
        if (key === "Enter" || key === " ") { event.preventDefault(); onPit(pit); }
      });
    }
  });
}
