// @ts-check
/* Where things go on the board: pits, stores and every seed. Pure functions
 * (no DOM, no fetch): tests/js/geometry.test.js runs them in Node.
 *
 * The sizes and colours (`BoardStyle`) come from kalah/rules/board.json, the
 * file that kalah.rules.svg (the notebook's board, /api/board.svg) draws with
 * too: change a colour or a size there and both boards change. The page loads
 * it in style.js; every function here takes it as its first argument.
 */

/**
 * The board's sizes (SVG user units) and colours: kalah/rules/board.json.
 * @typedef {object} BoardStyle
 * @property {number} height        of the whole board
 * @property {number} margin        between the board's edge and a store
 * @property {number} gap           between a store and the nearest pit
 * @property {number} pit_step      from one pit's centre to the next
 * @property {number} pit_radius
 * @property {number} row_top       centre line of the top row of pits
 * @property {number} row_bottom    centre line of the bottom row
 * @property {number} store_width
 * @property {number} store_top
 * @property {number} store_height
 * @property {{inset: number, radius: number, line_inset: number, line_radius: number}} frame  the wooden board and its inner line
 * @property {{rx: number, ry: number, max_in_pit: number, max_in_store: number, spread: number,
 *             store_columns: number, store_dx: number, store_dy: number}} seed  a seed's ellipse, how many are drawn, their spacing
 * @property {[string, string][]} seed_colors  each seed colour as [light, dark]
 * @property {[number, string][]} wood   gradient stops [offset, colour] of the board
 * @property {[number, string][]} hole   of a pit or store
 * @property {[number, string][]} rim    of the rim around a pit or store
 */

/** @typedef {{x: number, y: number, w: number, h: number}} Rect */

/** A kind of tag (a pit's or a store's seed count, a move's value): its font size and height.
 * @typedef {{font: number, h: number}} TagSize */

/**
 * The layout of a board with `m` pits a side. Labels (pit letters, seed
 * counts, analysis values) keep a readable size on the screen: where the
 * board is drawn small (a phone, the lab's side column) they are larger in
 * board units and the board grows taller to make room for them.
 *
 * An upright board (upright.js, for a screen too narrow for the pits side
 * by side) is the same board turned a quarter: its rows are columns. Its
 * members keep their meaning along and across the rows: colX, the storeLeft
 * and storeRight rects' order along the rows, and pitStep are then along y;
 * rowTop, rowBottom and the *Y functions give x. The *At functions below
 * place a label in either.
 * @typedef {object} Geometry
 * @property {number} m
 * @property {boolean} upright    the rows run down the board (upright.js)
 * @property {number} R          pit radius
 * @property {number} W          width of the whole drawing (the viewBox)
 * @property {number} H          height of the whole drawing
 * @property {Rect} frame        the wooden board within it (all of it, unless upright)
 * @property {number} pitStep
 * @property {number} rowTop      the top player's row (upright: column, to the right)
 * @property {number} rowBottom   the bottom player's row (upright: column, to the left)
 * @property {(column: number) => number} colX  the centre of pit column 0..m-1 along the rows, left to right
 *   (upright: top to bottom)
 * @property {Rect} storeLeft
 * @property {Rect} storeRight
 * @property {number} letterSize                  font size of the pit letters
 * @property {{count: TagSize, store: TagSize, value: TagSize}} tags
 * @property {(top: boolean) => number} letterY   centre line of a row's letters (between the rows)
 * @property {(top: boolean) => number} countY    centre line of a row's seed counts (outside the rows)
 * @property {number} countEms                  the least width of a pit's seed count tag, in ems (2; less where
 *   the pits stand closer than two ems of the count's font, so that neighbouring counts never touch)
 * @property {boolean} staggered                 every other pit's value one tag further out (many pits, a small board)
 * @property {(top: boolean, pit?: number) => number} valueY  centre line of a row's values (on the pits' outer
 *   rims; the odd pits' one tag further out when staggered)
 * @property {(top: boolean) => number} storeCountY  centre line of the seed count of the store on that side
 * @property {(top: boolean) => Rect} glow        the outline of the row to move: its pits, letters and values
 * @property {number} countHalf                 how far a seed count's tag reaches across the row from its centre
 */

/** The least size (CSS pixels) each label is drawn at, and its size (board units) on a board drawn at full size. */
export const LABELS = { letter: [13, 13], count: [17, 13], store: [19, 14], value: [12, 12] };
/** How far a value tag reaches over its pit's rim. */
export const TAG_OVERLAP = 10;

/** Ems of a label's text in a bold sans-serif: digits and signs are about half an em wide, a point less. */
const textEms = (/** @type {string} */ text) => [...text].reduce((sum, c) => sum + (c === "." ? 0.3 : 0.56), 0);

/** The width of a tag for `text`: its text and a little room at the ends, and at least `minEms`.
 * @param {string} text @param {TagSize} size @param {number} minEms @returns {number} */
export function tagWidth(text, size, minEms) {
  return Math.max(minEms, textEms(text) + 0.6) * size.font;
}

/**
 * @param {BoardStyle} style the board's sizes
 * @param {number} m pits per side
 * @param {number} [shownWidth] the board's width on the screen in CSS pixels (0 or none: drawn at full size)
 * @param {{values?: boolean}} [options] values: false for a board that never shows analysis values (a review's, a
 *   puzzle's): no room is kept for them. On a narrow screen that room is two lines of tags a side, a blank band
 *   between the seed counts and the pits.
 * @returns {Geometry}
 */
export function geometry(style, m, shownWidth, options) {
  const values = !options || options.values !== false;
  const pitStep = style.pit_step, R = style.pit_radius, storeW = style.store_width, side = style.margin, gap = style.gap;
  const pitsX0 = side + storeW + gap;
  const W = pitsX0 + m * pitStep + gap + storeW + side;
  // board units per CSS pixel; a board shown larger than its own size keeps its labels' own sizes
  const unit = shownWidth && shownWidth > 0 ? Math.max(1, W / shownWidth) : 1;
  /** @param {number} units @param {number} pixels @returns {number} */
  const atLeast = (units, pixels) => Math.max(units, pixels * unit);
  /** @param {keyof LABELS} kind @returns {number} */
  const font = (kind) => atLeast(LABELS[kind][0], LABELS[kind][1]);
  // the tags of neighbouring pits must not touch, for the widest common value
  /** @param {number} span @returns {number} */
  const valueFit = (span) => Math.min(font("value"), (span - 8) / tagWidth("+7.75", { font: 1, h: 1 }, 0));
  // Where they would be too small to read side by side (12 pits on a phone), every other pit's tag moves one
  // tag further out: each then has two pits' width.
  const staggered = values && valueFit(pitStep) < LABELS.value[1] * unit;
  const valueFont = valueFit(staggered ? 2 * pitStep : pitStep);
  const tags = { count: { font: font("count"), h: 1.4 * font("count") }, store: { font: font("store"), h: 1.37 * font("store") },
    value: { font: valueFont, h: 1.6 * valueFont } };
  const letterSize = font("letter"), letterBand = 1.2 * letterSize;

  // Between the rows, from each row: its pit, a gap, its letters; between the two rows of letters runs the
  // mover's outline. Outside each row: the value tags over the rims, the outline, then the seed counts.
  const toLetters = R + atLeast(3, 1);
  const rowGap = Math.max(style.row_bottom - style.row_top, 2 * (toLetters + letterBand) + atLeast(10, 5));
  const valueRows = staggered ? 2 : 1;
  const glowOut = values ? R - TAG_OVERLAP + valueRows * tags.value.h + atLeast(4, 2) : R + atLeast(12, 5);
  const countIn = glowOut + atLeast(5, 2);
  const overhang = style.row_top - style.store_top;  // a store reaches this far past the rows' centres
  const storeGap = 8;
  // the seed counts of pits and stores line up along their outer edges
  const countsOut = Math.max(countIn + tags.count.h, overhang + storeGap + tags.store.h);
  // ... unless a store's count (up to three digits) would reach its neighbouring pit's (12 pits on a phone):
  // then it goes one tag further out
  const countEms = Math.min(2, (pitStep - 2) / tags.count.font);
  const storeToPit = pitStep / 2 + gap + storeW / 2;
  const storeApart = storeToPit < (tagWidth("288", tags.store, 2.5) + tagWidth("12", tags.count, countEms)) / 2 + 2;
  const outside = storeApart ? countsOut + atLeast(2, 1) + tags.store.h : countsOut;
  const rowTop = Math.max(style.row_top, 25 + outside), rowBottom = rowTop + rowGap, middle = rowTop + rowGap / 2;
  const store = { y: rowTop - overhang, w: storeW, h: rowGap + 2 * overhang };
  /** @param {boolean} top @param {number} offset from the row's centre, outward @returns {number} */
  const outward = (top, offset) => (top ? rowTop - offset : rowBottom + offset);
  const x0 = pitsX0 + pitStep / 2 - R - 10, glowW = pitStep * (m - 1) + 2 * R + 20;
  const H = rowBottom + rowTop;
  return {
    m, upright: false, R, W, H, frame: { x: 0, y: 0, w: W, h: H }, pitStep, rowTop, rowBottom,
    colX: (j) => pitsX0 + pitStep / 2 + j * pitStep,
    storeLeft: { x: side, ...store },
    storeRight: { x: pitsX0 + m * pitStep + gap, ...store },
    letterSize, tags, staggered, countEms,
    letterY: (top) => outward(top, -(toLetters + letterBand / 2)),
    countY: (top) => outward(top, countsOut - tags.count.h / 2),
    valueY: (top, pit = 0) => outward(top, R - TAG_OVERLAP + tags.value.h * (staggered && pit % 2 ? 1.5 : 0.5)),
    storeCountY: (top) => outward(top, outside - tags.store.h / 2),
    glow: (top) => (top ? { x: x0, y: rowTop - glowOut, w: glowW, h: glowOut + rowGap / 2 }
      : { x: x0, y: middle, w: glowW, h: glowOut + rowGap / 2 }),
    countHalf: tags.count.h / 2,
  };
}

/** A point `along` the rows and `across` them, on the screen. @param {Geometry} g @param {number} along
 * @param {number} across @returns {{x: number, y: number}} */
const at = (g, along, across) => (g.upright ? { x: across, y: along } : { x: along, y: across });

/** Where a pit's letter goes. @param {Geometry} g @param {PitPlace} p @returns {{x: number, y: number}} */
export const letterAt = (g, p) => at(g, g.upright ? p.y : p.x, g.letterY(p.top));

/** Where a pit's seed count goes. @param {Geometry} g @param {PitPlace} p @returns {{x: number, y: number}} */
export const countAt = (g, p) => at(g, g.upright ? p.y : p.x, g.countY(p.top));

/** Where a pit's analysis value goes. @param {Geometry} g @param {PitPlace} p @returns {{x: number, y: number}} */
export const valueAt = (g, p) => at(g, g.upright ? p.y : p.x, g.valueY(p.top, p.index));

/** Where a store's seed count goes. @param {Geometry} g @param {Rect} r the store @returns {{x: number, y: number}} */
export const storeCountAt = (g, r) => at(g, g.upright ? r.y + r.h / 2 : r.x + r.w / 2, g.storeCountY(r === g.storeLeft));

/**
 * What answers a tap on a pit: its whole stretch across the row, from its letter to its seed count (with 12 pits
 * on a phone a pit alone is small), and its share along the row.
 * @param {Geometry} g @param {PitPlace} p @returns {Rect}
 */
export function hitAt(g, p) {
  const ends = [g.letterY(p.top), g.countY(p.top)];
  const from = Math.min(...ends) - g.countHalf, to = Math.max(...ends) + g.countHalf;
  const along = (g.upright ? p.y : p.x) - g.pitStep / 2;
  return g.upright ? { x: from, y: along, w: to - from, h: g.pitStep } : { x: along, y: from, w: g.pitStep, h: to - from };
}

/**
 * Where a flat cell is drawn.
 * @typedef {{kind: "pit", player: number, index: number, x: number, y: number, top: boolean}} PitPlace
 * @typedef {{kind: "store", player: number, rect: Rect} | PitPlace} Place
 */

/**
 * The bottom player's pits run left to right, their store on the right; the
 * top player's pits run right to left (counter-clockwise sowing). Upright, the
 * same turned a quarter: the bottom player's pits run down the left column to
 * their store at the bottom, the top player's up the right one.
 * @param {Geometry} g @param {number} cell flat cell index @param {number} bottom the player at the bottom
 * @returns {Place}
 */
export function cellPlace(g, cell, bottom) {
  const m = g.m, half = m + 1;
  const player = cell < half ? 0 : 1;
  const index = cell % half;
  const atBottom = player === bottom;
  if (index === m) {
    return { kind: "store", player, rect: atBottom ? g.storeRight : g.storeLeft };
  }
  const col = atBottom ? index : m - 1 - index;
  return { kind: "pit", player, index, ...at(g, g.colX(col), atBottom ? g.rowBottom : g.rowTop), top: !atBottom };
}

/** A number in [0, 1) from two integers (the same as kalah.rules.svg's _hash).
 * @param {number} a @param {number} b @returns {number} */
function hash(a, b) {
  let h = (a * 374761393 + b * 668265263) ^ 0x5bd1e995;
  h = Math.imul(h ^ (h >>> 13), 1274126177);
  return ((h ^ (h >>> 16)) >>> 0) / 4294967296;
}

/** A seed to draw: its centre, colour (an index into style.seed_colors) and rotation.
 * @typedef {{x: number, y: number, color: number, rot: number}} Spot */

/** @param {BoardStyle} style @param {number} cell @param {number} k @returns {{color: number, rot: number}} */
function seedLook(style, cell, k) {
  return {
    color: Math.floor(hash(cell * 31 + k, 7) * style.seed_colors.length),
    rot: Math.floor(hash(k, cell * 13) * 180),
  };
}

/**
 * The seeds of a pit, around its centre.
 * @param {BoardStyle} style @param {number} count @param {number} cell @param {number} radius @returns {Spot[]}
 */
export function seedSpots(style, count, cell, radius) {
  // A sunflower spiral, a little jittered, so a pit of seeds looks like a heap.
  const spots = [];
  const shown = Math.min(count, style.seed.max_in_pit);
  const scale = shown <= 1 ? 0 : Math.min(style.seed.spread, (radius - 9) / Math.sqrt(shown));
  for (let k = 0; k < shown; k++) {
    const r = scale * Math.sqrt(k + 0.5);
    const a = k * 2.39996 + cell * 1.7;
    spots.push({
      x: r * Math.cos(a) + (hash(cell, k) - 0.5) * 3,
      y: r * Math.sin(a) + (hash(k, cell) - 0.5) * 3,
      ...seedLook(style, cell, k),
    });
  }
  return spots;
}

/**
 * The seeds of a store, heaped from its bottom.
 * @param {BoardStyle} style @param {number} count @param {number} cell @param {Rect} rect @returns {Spot[]}
 */
export function storeSpots(style, count, cell, rect) {
  const spots = [];
  const dx = style.seed.store_dx, dy = style.seed.store_dy;
  // An upright board's stores lie across it (upright.js): their rows are as long as the straight part of the
  // capsule and a little of its round ends hold, each row centred, as many rows as its height holds.
  const wide = rect.w > rect.h;
  const cols = wide ? Math.max(1, Math.floor((rect.w - rect.h / 2 - 16) / dx)) : style.seed.store_columns;
  const rows = wide ? Math.floor((rect.h - 30) / dy) + 1 : Infinity;
  const shown = Math.min(count, style.seed.max_in_store, cols * rows);
  for (let k = 0; k < shown; k++) {
    const row = Math.floor(k / cols), col = k % cols;
    const inRow = wide ? Math.min(cols, shown - row * cols) : cols;
    const x0 = rect.x + rect.w / 2 - ((inRow - 1) * dx) / 2;
    const shift = !wide && row % 2 ? dx / 2 - 4 : 0;
    spots.push({
      x: x0 + col * dx + shift + (hash(cell, k) - 0.5) * 4,
      y: rect.y + rect.h - 22 - row * dy + (hash(k, cell) - 0.5) * 4,
      ...seedLook(style, cell, k),
    });
  }
  return spots;
}
