// @ts-check
/* The board stood upright for a narrow screen. Pure functions (no DOM): tests/js/upright.test.js runs
 * them in Node.
 *
 * Kalah(12,12) on a 390 px phone drew its pits 20 px across: too small to count the seeds or to tap. Side
 * by side a board has no better answer on such a screen (scrolling it sideways hides the stores, which a
 * player must see), so where the pits would be drawn smaller than MIN_PIT the board is turned a quarter:
 * the rows become columns down the screen, the bottom player's on the left running down from A to their
 * store at the bottom, the top player's on the right running up to theirs at the top. Sowing still runs
 * counter-clockwise, each store sits on its player's panel's side, and the labels stay upright. Twelve
 * pits a side then fit a phone's height at UPRIGHT_PIT.
 */

import { LABELS, TAG_OVERLAP, geometry, tagWidth } from "./geometry.js";

/** @typedef {import("./geometry.js").BoardStyle} BoardStyle */
/** @typedef {import("./geometry.js").Geometry} Geometry */

/** The least diameter (CSS pixels) of a pit drawn side by side; below it the board stands upright. */
export const MIN_PIT = 30;
/** The diameter (CSS pixels) of an upright board's pits, where the screen is wide enough. */
export const UPRIGHT_PIT = 34;
/** On a phone (a screen under PHONE_WIDTH CSS pixels) a pit is a finger's target: at least TOUCH_PIT across where
 * the screen's height allows (accessibility guidance asks for 44 px; a little more keeps rounding above it). */
export const TOUCH_PIT = 46;
export const PHONE_WIDTH = 500;

/**
 * How large a board's pits are on a screen `width` by `height` CSS pixels: on a phone, side by side where its pits
 * are TOUCH_PIT across, else upright with pits of TOUCH_PIT where the board so fits in 72% of the
 * screen's height (twelve pits a side do not: theirs are as large as fit, and never under UPRIGHT_PIT).
 * @param {BoardStyle} style @param {number} m @param {number} width @param {number} height
 * @returns {{minPit: number, uprightPit: number}} boardGeometry's options
 */
export function pitSizes(style, m, width, height) {
  if (!(width > 0) || width >= PHONE_WIDTH) return { minPit: MIN_PIT, uprightPit: UPRIGHT_PIT };
  const units = 2 * style.margin + 2 * style.store_width + 2 * style.gap + m * uprightStep(style);
  const fits = (0.72 * height * 2 * style.pit_radius) / units;
  return { minPit: TOUCH_PIT, uprightPit: Math.max(UPRIGHT_PIT, Math.min(TOUCH_PIT, fits)) };
}

/** From one pit's centre to the next along an upright board's column. @param {BoardStyle} style @returns {number} */
const uprightStep = (style) => Math.max(2 * style.pit_radius + 10, Math.round(style.pit_step * 0.92));

/**
 * The board's layout for the width it is shown at: side by side (geometry.js), or upright where its pits
 * would be smaller than MIN_PIT and upright they are larger.
 * @param {BoardStyle} style @param {number} m pits per side @param {number} [shownWidth] CSS pixels
 * @param {{values?: boolean, minPit?: number, uprightPit?: number}} [options] values: as geometry's; minPit: the
 *   least pit drawn side by side (MIN_PIT), uprightPit: an upright board's pits (UPRIGHT_PIT); pitSizes gives both
 *   for a screen
 * @returns {Geometry}
 */
export function boardGeometry(style, m, shownWidth, options) {
  const flat = geometry(style, m, shownWidth, options);
  const minPit = (options && options.minPit) || MIN_PIT;
  if (!shownWidth || shownWidth <= 0 || (2 * flat.R * shownWidth) / flat.W >= minPit) return flat;
  const upright = uprightGeometry(style, m, shownWidth, options);
  return (2 * upright.R * shownWidth) / upright.W > (2 * flat.R * shownWidth) / flat.W ? upright : flat;
}

/**
 * An upright board shown `shownWidth` CSS pixels wide: its pits UPRIGHT_PIT across where that fits, the
 * wooden board (frame) centred in a drawing as wide as the element, so that the element keeps its place
 * on the page.
 * @param {BoardStyle} style @param {number} m @param {number} shownWidth
 * @param {{values?: boolean, uprightPit?: number}} [options] uprightPit: the pits' diameter (UPRIGHT_PIT)
 * @returns {Geometry}
 */
export function uprightGeometry(style, m, shownWidth, options) {
  const values = !options || options.values !== false;
  const R = style.pit_radius, storeW = style.store_width, side = style.margin, gap = style.gap;
  // a little closer than side by side: twelve pits a side must fit a phone's height
  const pitStep = uprightStep(style);

  /** The widths across the board when one board unit is `scale` CSS pixels. @param {number} scale */
  const across = (scale) => {
    /** @param {number} units @param {number} pixels @returns {number} */
    const atLeast = (units, pixels) => Math.max(units, pixels / scale);
    /** @param {keyof LABELS} kind @returns {number} */
    const font = (kind) => atLeast(LABELS[kind][0], LABELS[kind][1]);
    const tags = { count: { font: font("count"), h: 1.4 * font("count") }, store: { font: font("store"), h: 1.37 * font("store") },
      value: { font: font("value"), h: 1.6 * font("value") } };
    const letterSize = font("letter"), letterBand = 1.2 * letterSize, toLetters = R + atLeast(3, 1);
    // Between the columns, from each: its pit, a gap, its letters. Outside each: the value tags over the rims,
    // the mover's outline, then the seed counts, with room for a store's three digits.
    const colGap = Math.max(style.row_bottom - style.row_top, 2 * (toLetters + letterBand) + atLeast(10, 5));
    const valueW = tagWidth("+7.75", tags.value, 2);
    const glowOut = values ? R - TAG_OVERLAP + valueW + atLeast(4, 2) : R + atLeast(12, 5);
    const countIn = glowOut + atLeast(5, 2);
    const countW = Math.max(tagWidth("888", tags.count, 2), tagWidth("288", tags.store, 2.5));
    return { tags, letterSize, letterBand, toLetters, colGap, valueW, glowOut, countIn, countW,
      width: 2 * (colGap / 2 + countIn + countW + side) };
  };
  // the labels' sizes in board units depend on the scale, and the scale on the width they need: a few rounds
  let scale = ((options && options.uprightPit) || UPRIGHT_PIT) / (2 * R), a = across(scale);
  for (let round = 0; round < 8 && a.width * scale > shownWidth; round++) {
    scale *= shownWidth / (a.width * scale);
    a = across(scale);
  }
  const W = Math.max(a.width, shownWidth / scale), cx = W / 2;
  const left = cx - a.colGap / 2, right = cx + a.colGap / 2;
  const overhang = style.row_top - style.store_top;  // a store reaches this far past the columns' centres
  const pitsY0 = side + storeW + gap, H = pitsY0 + m * pitStep + gap + storeW + side;
  const store = { x: left - overhang, w: a.colGap + 2 * overhang, h: storeW };
  /** @param {boolean} top the top player's column (the right one) @param {number} offset outward @returns {number} */
  const outward = (top, offset) => (top ? right + offset : left - offset);
  const counts = a.countIn + a.countW / 2;
  const y0 = pitsY0 + pitStep / 2 - R - 10, glowH = pitStep * (m - 1) + 2 * R + 20;
  return {
    m, upright: true, R, W, H, frame: { x: cx - a.width / 2, y: 0, w: a.width, h: H }, pitStep,
    rowTop: right, rowBottom: left,
    colX: (j) => pitsY0 + pitStep / 2 + j * pitStep,
    storeLeft: { ...store, y: side },
    storeRight: { ...store, y: pitsY0 + m * pitStep + gap },
    letterSize: a.letterSize, tags: a.tags, staggered: false, countEms: 2,
    letterY: (top) => outward(top, -(a.toLetters + a.letterBand / 2)),
    countY: (top) => outward(top, counts),
    valueY: (top) => outward(top, R - TAG_OVERLAP + a.valueW / 2),
    storeCountY: (top) => outward(top, counts),
    glow: (top) => (top ? { x: cx, y: y0, w: a.colGap / 2 + a.glowOut, h: glowH }
      : { x: left - a.glowOut, y: y0, w: a.colGap / 2 + a.glowOut, h: glowH }),
    countHalf: a.countW / 2,
  };
}
