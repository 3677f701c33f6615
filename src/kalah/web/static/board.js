// @ts-check
/* The board as a component: `createBoard(svg, config)` draws into one SVG
 * element, animates moves on it and reports clicks on its pits. Everything a
 * board knows (its last drawing, its orientation, its size on the screen, the
 * ids of its gradients) lives in the instance, so a page can hold several
 * boards (the game page, the lab's editor, two boards side by side in a test).
 * The page wires its state in through the config (pageboard.js); nothing here
 * imports a page's module.
 *
 * A drawing changes only what differs from the last one (as chessground touches only the pieces that
 * moved): the gradients, the wood and each pit's rim and cup are made once for a layout (the board's
 * size class, pit count, orientation and bottom player); a pit's seeds are made again only when its count
 * changes, its marks are classes, and its labels' texts are set in place. An animated move so changes one
 * pit or two a step, where it rebuilt the whole SVG with its filters for every seed.
 *
 * For tests: the SVG carries data-to-move, data-over, data-pits,
 * data-bottom, data-upright (the board stands upright on a narrow screen:
 * upright.js) and data-board-name (the instance that drew it last); every pit
 * data-pit="P-I", data-seeds and data-letter, every store data-store="P" and
 * data-seeds. Legal pits have the class "legal", and role="button" with a label such as "Pit C, 1 seed";
 * the other pits and the stores are labelled images (role="img"), so a screen reader reads the board.
 */

import { animateMove } from "./anim.js";
import { cellPlace, countAt, hitAt, letterAt, seedSpots, storeCountAt, storeSpots, tagWidth, valueAt } from "./geometry.js";
import { boardGeometry, pitSizes } from "./upright.js";
import { el } from "./svg.js";

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
 * @property {boolean} [touch]      false: on a phone the pits need not be a finger's target (TOUCH_PIT), as
 *                                   buttons under the board play them (the puzzles, the review's trainer); the
 *                                   board then stands upright only where side by side its pits are tiny
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

/** "1 seed", "4 seeds". @param {number} count @returns {string} */
export const seedsText = (count) => `${count} ${count === 1 ? "seed" : "seeds"}`;

/**
 * A number on a rounded tag centred at (x, y), as wide as its text needs and at least `minEms`.
 * @param {Element} parent @param {string} cls @param {number} x @param {number} y @param {string} text
 * @param {import("./geometry.js").TagSize} size @param {number} minEms @returns {SVGElement}
 */
function tag(parent, cls, x, y, text, size, minEms) {
  const group = el("g", { class: cls, "aria-hidden": "true" }, parent);
  const w = tagWidth(text, size, minEms);
  el("rect", { x: x - w / 2, y: y - size.h / 2, width: w, height: size.h, rx: size.h / 2 }, group);
  el("text", { x, y, "text-anchor": "middle", "dominant-baseline": "central", "font-size": size.font.toFixed(1) }, group)
    .textContent = text;
  return group;
}

/**
 * One pit or store as drawn: its elements, and what they show now (to change only what differs).
 * @typedef {object} Cell
 * @property {SVGElement} group
 * @property {SVGElement} seeds     the seeds' group
 * @property {SVGElement | null} count  the seed count's tag
 * @property {SVGElement | null} value  the analysis value's tag
 * @property {Place} place
 * @property {number} shown         the seeds drawn (-1: none yet)
 * @property {boolean} freshShown   the last seed is drawn popping in
 * @property {string} valueShown    the value tag's text and kind ("" when none)
 * @property {string} className
 * @property {string} label
 */
/** @typedef {import("./geometry.js").Place} Place */

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
  /** What the clicks and keys of the pits act on: the last drawing's legal pits and callback. */
  const now = { legal: /** @type {Set<Move>} */ (new Set()), onPit: config.onPit, toMove: 0 };
  /** The layout drawn (its key) and its cells, made by build.
   * @type {{key: string, cells: Cell[], glow: SVGElement, g: Geometry, values: SVGElement} | null} */
  let layout = null;
  const resized = new ResizeObserver(() => {
    // Another board may have drawn into the same element since (the page's game and replay views share one):
    // only the last one to draw follows its size.
    if (!drawn || svg.dataset.boardName !== name) return;
    // A change under a scrollbar's width is ignored: it cannot make a label unreadable, and redrawing for it
    // could change the page's height, the scrollbar, and so the width again.
    if (Math.abs(svg.getBoundingClientRect().width - drawn.width) > 24) draw(...drawn.args);
  });

  /** The frame, the row glow and every cell's fixed parts, for geometry `g`.
   * @param {Geometry} g @param {number} m @param {string} key */
  function build(g, m, key) {
    const frame = style.frame;
    svg.setAttribute("viewBox", `0 0 ${g.W} ${g.H}`);
    svg.replaceChildren();
    defs(svg, style, ids);
    const box = g.frame;
    const outline = { x: box.x + frame.inset, y: box.y + frame.inset, width: box.w - 2 * frame.inset,
      height: box.h - 2 * frame.inset, rx: frame.radius };
    el("rect", { ...outline, fill: `url(#${ids.wood})`, filter: `url(#${ids.shadow})`, class: "wood" }, svg);
    el("rect", { ...outline, fill: "#a0642f", filter: `url(#${ids.grain})`, opacity: "0.9" }, svg);
    el("rect", { x: box.x + frame.line_inset, y: box.y + frame.line_inset, width: box.w - 2 * frame.line_inset,
      height: box.h - 2 * frame.line_inset, rx: frame.line_radius, fill: "none", stroke: "rgba(255,230,190,0.35)",
      "stroke-width": 2 }, svg);
    // The mover's row glows, around its letters too: they are the keys that play it.
    const glow = el("rect", { rx: 16, class: "turn-glow" }, svg);
    /** @type {Cell[]} */
    const cells = [];
    for (let cell = 0; cell < 2 * (m + 1); cell++) {
      const place = cellPlace(g, cell, bottom);
      cells.push(place.kind === "store" ? buildStore(place) : buildPit(g, place));
    }
    // Analysis values lie over the pits' rims, above every pit, and let a tap through to the pit under them.
    const values = el("g", { class: "values", "pointer-events": "none", "aria-hidden": "true" }, svg);
    layout = { key, cells, glow, g, values };
  }

  /** @param {Extract<Place, {kind: "store"}>} place @returns {Cell} */
  function buildStore(place) {
    const r = place.rect;
    const group = el("g", { "data-store": String(place.player), role: "img" }, svg);
    // a capsule: round at the ends of its long side (across an upright board, a store lies on its side)
    const round = Math.min(r.w, r.h) / 2;
    el("rect", { x: r.x - 3, y: r.y - 3, width: r.w + 6, height: r.h + 6, rx: round + 3, fill: `url(#${ids.rim})`, opacity: "0.8" }, group);
    el("rect", { x: r.x, y: r.y, width: r.w, height: r.h, rx: round, fill: `url(#${ids.hole})`, class: "cup" }, group);
    const seeds = el("g", {}, group);
    return { group, seeds, count: null, value: null, place, shown: -1, freshShown: false, valueShown: "", className: "", label: "" };
  }

  /** @param {Geometry} g @param {Extract<Place, {kind: "pit"}>} place @returns {Cell} */
  function buildPit(g, place) {
    const pit = place.index;
    const letter = String.fromCharCode((place.player === 0 ? 65 : 97) + pit);
    const group = el("g", { "data-pit": `${place.player}-${pit}`, "data-letter": letter }, svg);
    const hit = hitAt(g, place);
    el("rect", { x: hit.x, y: hit.y, width: hit.w, height: hit.h, fill: "transparent", class: "hit" }, group);
    el("circle", { cx: place.x, cy: place.y, r: g.R + 3, fill: `url(#${ids.rim})`, opacity: "0.8" }, group);
    el("circle", { cx: place.x, cy: place.y, r: g.R, fill: `url(#${ids.hole})`, class: "cup" }, group);
    const seeds = el("g", { transform: `translate(${place.x} ${place.y})` }, group);
    el("circle", { cx: place.x, cy: place.y, r: g.R, class: "ring" }, group);
    const letterSpot = letterAt(g, place);
    el("text", { x: letterSpot.x, y: letterSpot.y, "text-anchor": "middle", "dominant-baseline": "central",
      "font-size": g.letterSize.toFixed(1), class: place.top ? "letter top" : "letter", "aria-hidden": "true" }, group)
      .textContent = letter;
    // The pit's text reads "A 4" (its letter, then its count, made after): the words of its label "pit A, 4 seeds"
    // in their order (a button's name holds the text it shows); without the space they ran together as "A4".
    group.appendChild(document.createTextNode(" "));
    const act = () => { if (now.legal.has(pit) && place.player === now.toMove && now.onPit) now.onPit(pit); };
    group.addEventListener("click", act);
    group.addEventListener("keydown", (event) => {
      const key = /** @type {KeyboardEvent} */ (event).key;
      if ((key === "Enter" || key === " ") && now.legal.has(pit)) { event.preventDefault(); act(); }
    });
    return { group, seeds, count: null, value: null, place, shown: -1, freshShown: false, valueShown: "", className: "", label: "" };
  }

  /** @param {Board} board @param {number} toMove @param {boolean} over @param {BoardOptions} [options] */
  function draw(board, toMove, over, options) {
    const opts = options || {};
    const m = board[0].length - 1;
    const width = svg.getBoundingClientRect().width;
    drawn = { args: [board, toMove, over, options], width };
    resized.observe(svg);
    // on a phone a pit is a finger's target (upright.js's pitSizes)
    const sizes = config.touch === false ? {} : pitSizes(style, m, window.innerWidth, window.innerHeight);
    const g = boardGeometry(style, m, width, { values: config.values !== false, ...sizes });
    const key = [m, bottom, g.W, g.H, g.upright, g.letterSize, g.tags.count.font, g.tags.value.font].join("|");
    if (!layout || layout.key !== key || svg.dataset.boardName !== name) build(g, m, key);
    const cells = /** @type {NonNullable<typeof layout>} */ (layout).cells;
    svg.dataset.boardName = name;
    svg.dataset.toMove = String(toMove);
    svg.dataset.over = over ? "true" : "false";
    svg.dataset.pits = String(m);
    svg.dataset.bottom = String(bottom);
    svg.dataset.upright = String(g.upright);

    const glow = /** @type {NonNullable<typeof layout>} */ (layout).glow;
    glow.setAttribute("display", over ? "none" : "inline");
    if (!over) {
      const r = g.glow(toMove !== bottom);
      for (const [attr, v] of Object.entries({ x: r.x, y: r.y, width: r.w, height: r.h })) glow.setAttribute(attr, String(v));
    }
    now.legal = new Set((opts.legal || []).filter((x) => x !== "swap"));
    now.onPit = opts.onPit || config.onPit;
    now.toMove = toMove;
    /** @type {Drawing} */
    const d = { g, opts, toMove, legal: now.legal, values: /** @type {NonNullable<typeof layout>} */ (layout).values };
    board[0].concat(board[1]).forEach((count, cell) => {
      const c = cells[cell];
      if (c.place.kind === "store") updateStore(d, c, c.place, count, cell);
      else updatePit(d, c, c.place, count, cell);
    });
  }

  /** @param {SVGElement} parent @param {Spot} spot @param {string} cls */
  function drawSeed(parent, spot, cls) {
    el("ellipse", {
      cx: spot.x.toFixed(1), cy: spot.y.toFixed(1), rx: style.seed.rx, ry: style.seed.ry,
      transform: `rotate(${spot.rot} ${spot.x.toFixed(1)} ${spot.y.toFixed(1)})`,
      fill: `url(#${ids.seed(spot.color)})`, stroke: "rgba(0,0,0,0.35)", "stroke-width": "0.6", class: cls,
    }, parent);
  }

  /** The seeds of a cell, made again only when their count or the popping seed changed.
   * @param {Drawing} d @param {Cell} c @param {number} count @param {number} cell @param {() => Spot[]} spots */
  function seedsOf(d, c, count, cell, spots) {
    const fresh = d.opts.fresh === cell;
    if (c.shown === count && c.freshShown === fresh) return false;
    c.seeds.replaceChildren();
    spots().forEach((spot, k) => drawSeed(c.seeds, spot, fresh && k === count - 1 ? "seed fresh" : "seed"));
    c.shown = count;
    c.freshShown = fresh;
    return true;
  }

  /** @param {Cell} c @param {string} className @param {string} label */
  function setLook(c, className, label) {
    if (c.className !== className) { c.group.setAttribute("class", className); c.className = className; }
    if (c.label !== label) { c.group.setAttribute("aria-label", label); c.label = label; }
  }

  /** @param {Drawing} d @param {Cell} c @param {Extract<Place, {kind: "store"}>} place @param {number} count
   * @param {number} cell */
  function updateStore(d, c, place, count, cell) {
    const r = place.rect;
    c.group.dataset.seeds = String(count);
    setLook(c, "store" + (isSown(d, cell) ? " sown" : ""), `store of player ${place.player + 1}, ${seedsText(count)}`);
    if (seedsOf(d, c, count, cell, () => storeSpots(style, count, cell, r)) || !c.count) {
      c.count?.remove();
      const label = storeCountAt(d.g, r);
      c.count = tag(c.group, "count store-count", label.x, label.y, String(count), d.g.tags.store, 2.5);
    }
  }

  /** @param {Drawing} d @param {Cell} c @param {Extract<Place, {kind: "pit"}>} place @param {number} count
   * @param {number} cell */
  function updatePit(d, c, place, count, cell) {
    const pit = place.index, g = d.g, opts = d.opts, marks = opts.marks;
    const moving = place.player === d.toMove, isLegal = moving && d.legal.has(pit);
    const classes = ["pit"];
    if (isLegal) classes.push("legal");
    if (isSown(d, cell)) classes.push("sown");
    if (marks && marks.origin === cell) classes.push("origin");
    if (marks && marks.capture.includes(cell)) classes.push("captured");
    if (opts.hint === pit && moving) classes.push("hint");
    const letter = String(c.group.dataset.letter);
    c.group.dataset.seeds = String(count);
    setLook(c, classes.join(" "), `pit ${letter}, ${seedsText(count)}` + (opts.hint === pit && moving ? ", the hint" : ""));
    if (isLegal) {
      c.group.setAttribute("role", "button");
      c.group.setAttribute("tabindex", "0");
    } else {
      c.group.setAttribute("role", "img");
      c.group.removeAttribute("tabindex");
    }
    if (seedsOf(d, c, count, cell, () => seedSpots(style, count, cell, g.R)) || !c.count) {
      c.count?.remove();
      const spot = countAt(g, place);
      c.count = tag(c.group, "count", spot.x, spot.y, String(count), g.tags.count, g.countEms);
    }
    const v = (opts.values || {})[pit];
    const shown = isLegal && v !== undefined && v !== null ? `${v > 0 ? "+" : ""}${v}|${opts.best === pit}` : "";
    if (shown !== c.valueShown) {
      c.value?.remove();
      c.value = null;
      c.valueShown = shown;
      if (shown && v !== undefined && v !== null) {
        const spot = valueAt(g, place);
        c.value = tag(d.values, "value" + (opts.best === pit ? " best" : ""), spot.x, spot.y, (v > 0 ? "+" : "") + v, g.tags.value, 2);
      }
    }
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
 * @property {Geometry} g
 * @property {BoardOptions} opts
 * @property {number} toMove
 * @property {Set<Move>} legal
 * @property {SVGElement} values  the layer of the analysis values
 */
/** @typedef {import("./geometry.js").Geometry} Geometry */

/** @param {Drawing} d @param {number} cell */
const isSown = (d, cell) => !!d.opts.marks && d.opts.marks.sown.has(cell);
