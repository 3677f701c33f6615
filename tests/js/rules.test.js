// The rules' JavaScript twin (engine/rules.js) on hand-made positions; tests/test_wasm_engine.py plays
// random games of many variants through it and the Python reference.
import { test } from "node:test";
import assert from "node:assert/strict";
import { Position, RulesError, SWAP, Variant, lineNames } from "../../src/kalah/web/static/engine/rules.js";

const standard = Position.start();

test("the last seed in the store earns another move", () => {
  const [after, effect] = standard.playExplained(2);
  assert.equal(after.to_move, 0);
  assert.equal(effect.extra_turn, true);
  assert.deepEqual(effect.sown, [3, 4, 5, 6]);
});

test("the last seed in an empty pit of one's own captures the seeds opposite", () => {
  const position = Position.fromJSON({ board: [[1, 0, 4, 4, 4, 4, 0], [4, 4, 4, 4, 4, 4, 0]], to_move: 0 });
  const [after, effect] = position.playExplained(0);
  assert.equal(effect.captured, 5);
  assert.equal(effect.capture_pit, 1);
  assert.deepEqual(after.board, [[0, 0, 4, 4, 4, 4, 5], [4, 4, 4, 4, 0, 4, 0]]);
});

test("an empty pit opposite captures only with the empty-capture rule", () => {
  const board = [[1, 0, 4, 4, 4, 4, 0], [4, 4, 4, 4, 0, 4, 0]];
  assert.equal(Position.fromJSON({ board, to_move: 0 }).playExplained(0)[1].captured, 0);
  const variant = { pits: 6, seeds: 4, empty_capture: true, pie_rule: false };
  assert.equal(Position.fromJSON({ board, to_move: 0, variant }).playExplained(0)[1].captured, 1);
});

test("the game ends when a side is empty, and each side keeps its seeds", () => {
  const position = Position.fromJSON({ board: [[0, 0, 0, 0, 0, 1, 20], [1, 2, 0, 0, 0, 0, 24]], to_move: 0 });
  const after = position.play(5);
  assert.equal(after.is_over, true);
  assert.deepEqual(after.scores, [21, 27]);
  assert.equal(after.to_move, 0);  // the last seed fell in the store: player 0 is still the mover
  assert.equal(after.mover_margin, -6);
  assert.deepEqual(after.legalMoves(), []);
});

test("the pie rule: no extra turn on the first move, then the swap exchanges the rows", () => {
  const pie = Position.start(new Variant(6, 4, false, true));
  const after = pie.play(2);
  assert.equal(after.to_move, 1);
  assert.deepEqual(after.legalMoves(), [0, 1, 2, 3, 4, 5, SWAP]);
  const swapped = after.play(SWAP);
  assert.deepEqual(swapped.board, [after.board[1], after.board[0]]);
  assert.equal(swapped.to_move, 0);
  assert.equal(swapped.swap_available, false);
});

test("bad positions and moves are refused with a message", () => {
  assert.throws(() => Position.fromJSON({ board: [[1, 2], [3]] }), RulesError);
  assert.throws(() => new Variant(13, 4), /pits must be between 1 and 12/);
  assert.throws(() => standard.play(6), /not a legal move/);
  assert.throws(() => Position.fromJSON({ board: [[4, 4, 0], [4, 4, 0]], color: 1 }), /unknown position field/);
});

test("lines of moves are named in pit letters, as far as they are legal", () => {
  assert.deepEqual(lineNames(standard, [2, 5, 1, 9]), ["C", "F", "b"]);
});
