// @ts-check
/* Animating a move: the server says what the move did (the cells sown in
 * order, an extra turn, a capture); the page plays it back seed by seed. */

import { drawBoard } from "./board.js";
import { sleep } from "./dom.js";
import { showBanner } from "./page.js";
import { state } from "./state.js";

/** @typedef {import("./api.js").Board} Board */
/** @typedef {import("./api.js").Effect} Effect */
/** @typedef {import("./board.js").BoardOptions} BoardOptions */
/** @typedef {import("./board.js").Marks} Marks */

/**
 * The marks a move leaves on the board (none for a swap or no move).
 * @param {Effect | null | undefined} last @returns {Marks | null}
 */
export function effectMarks(last) {
  if (!last || last.move === "swap") return null;
  const m = last.before[0].length - 1;
  const origin = last.player * (m + 1) + last.move;
  const capture = [];
  if (last.capture_pit !== null && last.capture_pit !== undefined) {
    const own = last.capture_pit;
    const ownIndex = own % (m + 1);
    const opposite = (1 - last.player) * (m + 1) + (m - 1 - ownIndex);
    capture.push(own, opposite);
  }
  return { origin, sown: new Set(last.sown), capture };
}

/**
 * Animate `last` from its `before` board, then draw `final` (with `toMove`, `over`).
 * At animation speed 0 only the banners show.
 * @param {Effect} last @param {Board} final @param {number} toMove @param {boolean} over
 * @param {BoardOptions} [extraOpts] for the final drawing
 */
export async function animateMove(last, final, toMove, over, extraOpts) {
  const m = last.before[0].length - 1;
  const half = m + 1;
  const ms = state.animMs;
  if (last.move === "swap") {
    if (ms > 0) { showBanner("Swap! The sides change hands", "info", 1400); await sleep(ms * 4); }
    drawBoard(final, toMove, over, extraOpts);
    return;
  }
  if (ms > 0) {
    const cells = last.before[0].concat(last.before[1]);
    const origin = last.player * half + last.move;
    /** @type {Marks} */
    const marks = { origin, sown: new Set(), capture: [] };
    cells[origin] = 0;
    const asBoard = () => [cells.slice(0, half), cells.slice(half)];
    drawBoard(asBoard(), last.player, false, { marks });
    await sleep(ms * 1.5);
    for (const cell of last.sown) {
      cells[cell] += 1;
      marks.sown.add(cell);
      drawBoard(asBoard(), last.player, false, { marks, fresh: cell });
      await sleep(ms);
    }
    if (last.extra_turn) showBanner("Extra turn!", "good", Math.max(900, ms * 8));
    if (last.captured > 0) {
      const captured = effectMarks(last);
      marks.capture = captured ? captured.capture : [];
      drawBoard(asBoard(), last.player, false, { marks });
      showBanner(`Capture! ${last.captured} seeds`, "capture", Math.max(1100, ms * 9));
      await sleep(ms * 5);
    }
  } else {
    if (last.extra_turn) showBanner("Extra turn!", "good", 900);
    if (last.captured > 0) showBanner(`Capture! ${last.captured} seeds`, "capture", 1100);
  }
  drawBoard(final, toMove, over, Object.assign({ marks: effectMarks(last) }, extraOpts || {}));
}
