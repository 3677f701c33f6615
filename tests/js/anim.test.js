// anim.js in Node: the marks a move leaves, and the order in which a move is played back on a board.
import assert from "node:assert/strict";
import { test } from "node:test";

import { animateMove, effectMarks } from "../../src/kalah/web/static/anim.js";

const start = [[4, 4, 4, 4, 4, 4, 0], [4, 4, 4, 4, 4, 4, 0]];

/** An effect as the server sends it (kalah.web.service._effect). */
const effect = (fields) => ({ number: 1, name: "?", extra_turn: false, captured: 0, capture_pit: null, game_over: false,
  before: start, ...fields });

test("a move marks the pit played and the cells sown; a swap or no move marks nothing", () => {
  const marks = effectMarks(effect({ player: 0, move: 2, sown: [3, 4, 5, 6], extra_turn: true }));
  assert.deepEqual(marks, { origin: 2, sown: new Set([3, 4, 5, 6]), capture: [] });
  assert.equal(effectMarks(effect({ player: 1, move: "swap", sown: [] })), null);
  assert.equal(effectMarks(null), null);
  assert.equal(effectMarks(undefined), null);
});

test("a capture marks the capturing pit and the pit opposite it, for either player", () => {
  // player 0's pit B (cell 1) is opposite player 1's pit e (cell 7 + 4)
  assert.deepEqual(effectMarks(effect({ player: 0, move: 0, sown: [1], captured: 5, capture_pit: 1 })).capture, [1, 11]);
  // player 1's pit c (cell 9) is opposite player 0's pit D (cell 3)
  assert.deepEqual(effectMarks(effect({ player: 1, move: 1, sown: [9], captured: 5, capture_pit: 9 })).capture, [9, 3]);
});

/** A stand-in board that records its drawings and banners. */
function recorder(ms) {
  const drawings = [], banners = [];
  const playback = {
    ms,
    draw: (board, toMove, over, options) => drawings.push({ board: board.map((row) => row.slice()), toMove, over,
      options: options || {} }),
    banner: (text, kind) => banners.push([text, kind]),
  };
  return { playback, drawings, banners };
}

test("a move is played back seed by seed, then the final board is drawn with its marks", async () => {
  const { playback, drawings, banners } = recorder(1);
  const final = [[4, 4, 0, 5, 5, 5, 1], [4, 4, 4, 4, 4, 4, 0]];
  const last = effect({ player: 0, move: 2, sown: [3, 4, 5, 6], extra_turn: true });
  await animateMove(playback, last, final, 0, false, { legal: [0, 1] });
  // the pit emptied, one drawing per seed sown, then the final board
  assert.equal(drawings.length, 1 + 4 + 1);
  assert.deepEqual(drawings[0].board, [[4, 4, 0, 4, 4, 4, 0], [4, 4, 4, 4, 4, 4, 0]]);
  assert.deepEqual(drawings.slice(1, 5).map((d) => d.options.fresh), [3, 4, 5, 6]);
  assert.deepEqual(drawings[4].board, final);
  assert.deepEqual(drawings[5], { board: final, toMove: 0, over: false,
    options: { marks: effectMarks(last), legal: [0, 1] } });
  assert.deepEqual(banners, [["Extra turn!", "good"]]);
});

test("with animation off only the banners show before the final board", async () => {
  const { playback, drawings, banners } = recorder(0);
  const last = effect({ player: 0, move: 0, sown: [1], captured: 5, capture_pit: 1 });
  await animateMove(playback, last, start, 1, false);
  assert.equal(drawings.length, 1);
  assert.deepEqual(drawings[0].options.marks.capture, [1, 11]);
  assert.deepEqual(banners, [["Capture! 5 seeds", "capture"]]);
});

test("a swap draws the final board at once, with no marks", async () => {
  const { playback, drawings, banners } = recorder(1);
  await animateMove(playback, effect({ player: 1, move: "swap", sown: [] }), start, 0, false);
  assert.equal(drawings.length, 1);
  assert.equal(drawings[0].options.marks, undefined);
  assert.deepEqual(banners, [["Swap! The sides change hands", "info"]]);
});
