// @ts-check
/* Animating a move: the server says what the move did (the cells sown in
 * order, an extra turn, a capture); a board plays it back seed by seed. A
 * board's `animate` (board.js) calls animateMove with its own drawing, speed
 * and banner, so each board animates on its own. effectMarks is pure
 * (tests/js/anim.test.js). */

import { sleep } from "./dom.js";

/** @typedef {import("./api.js").Board} Board */
/** @typedef {import("./api.js").Effect} Effect */
/** @typedef {import("./board.js").BoardOptions} BoardOptions */
/** @typedef {import("./board.js").Marks} Marks */

/**
 * What an animation needs of its board.
 * @typedef {object} Playback
 * @property {(board: Board, toMove: number, over: boolean, options?: BoardOptions) => void} draw  the board's drawing
 * @property {number} ms    milliseconds per step; 0: only the banners show
 * @property {(text: string, kind: string, ms: number) => void} banner  news of the move to show over the board
 */

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
 * @param {Playback} playback @param {Effect} last @param {Board} final @param {number} toMove @param {boolean} over
 * @param {BoardOptions} [extraOpts] for the final drawing
 */
export async function animateMove(playback, last, final, toMove, over, extraOpts) {
  const { draw, ms, banner } = playback;
  const m = last.before[0].length - 1;
  const half = m + 1;
  if (last.move === "swap") {
    if (ms > 0) { banner("Swap! The sides change hands", "info", 1400); await sleep(ms * 4); }
    draw(final, toMove, over, extraOpts);
    return;
  }
  if (ms > 0) {
    const cells = last.before[0].concat(last.before[1]);
    const origin = last.player * half + last.move;
    /** @type {Marks} */
    const marks = { origin, sown: new Set(), capture: [] };
    cells[origin] = 0;
    const asBoard = () => [cells.slice(0, half), cells.slice(half)];
    draw(asBoard(), last.player, false, { marks });
    await sleep(ms * 1.5);
    for (const cell of last.sown) {
      cells[cell] += 1;
      marks.sown.add(cell);
      draw(asBoard(), last.player, false, { marks, fresh: cell });
      await sleep(ms);
    }
    if (last.extra_turn) banner("Extra turn!", "good", Math.max(900, ms * 8));
    if (last.captured > 0) {
      const captured = effectMarks(last);
      marks.capture = captured ? captured.capture : [];
      draw(asBoard(), last.player, false, { marks });
      banner(`Capture! ${last.captured === 1 ? "1 seed" : `${last.captured} seeds`}`, "capture", Math.max(1100, ms * 9));
      await sleep(ms * 5);
    }
  } else {
    if (last.extra_turn) banner("Extra turn!", "good", 900);
    if (last.captured > 0) banner(`Capture! ${last.captured === 1 ? "1 seed" : `${last.captured} seeds`}`, "capture", 1100);
  }
  draw(final, toMove, over, Object.assign({ marks: effectMarks(last) }, extraOpts || {}));
}
