// @ts-check
/* The main page's boards. The game view and the replay view each have their
 * own board (createBoard) over the page's one #board; this module wires the
 * page's state into them: who sits at the bottom (state.js's bottomPlayer,
 * read at every drawing, as the flip button and the players change it), the
 * animation speed, and the banner over the board. */

import { createBoard } from "./board.js";
import { boardElement } from "./dom.js";
import { showBanner } from "./page.js";
import { bottomPlayer, state } from "./state.js";
import { STYLE } from "./style.js";

/** @typedef {import("./board.js").BoardApi} BoardApi */

/** A board over #board whose bottom player follows the page's state.
 * @returns {Pick<BoardApi, "draw" | "animate">} */
function pageBoard() {
  const board = createBoard(boardElement(), { style: STYLE, animMs: () => state.animMs, onBanner: showBanner });
  return {
    draw: (b, toMove, over, options) => { board.setBottom(bottomPlayer()); board.draw(b, toMove, over, options); },
    animate: (last, final, toMove, over, options) => {
      board.setBottom(bottomPlayer());
      return board.animate(last, final, toMove, over, options);
    },
  };
}

/** The game view's board. */
export const gameBoard = pageBoard();
/** The replay view's board. */
export const replayBoard = pageBoard();
