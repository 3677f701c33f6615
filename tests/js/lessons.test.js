// lessons.js in Node: the trainer of "Learn from your mistakes" takes a better move, not only the best.
import assert from "node:assert/strict";
import { test } from "node:test";

import { judge, knowsValues, lessonsOf } from "../../src/kalah/web/static/lessons.js";

/** A mistake: E played (worth -4), C best (+6), A better than E but not best (+1), B worse (-9). */
const lesson = {
  number: 7, pair: 4, player: 0, move: 4, name: "E", board: [[1, 2, 3, 0, 4, 1, 10], [2, 2, 2, 2, 2, 2, 12]],
  value_before: 6, value_after: -4, best_moves: [2], loss: 10, class: "blunder", exact: true, forced: false,
  move_values: [{ move: 0, value: 1, exact: true }, { move: 1, value: -9, exact: true }, { move: 2, value: 6, exact: true },
    { move: 4, value: -4, exact: true }, { move: 5, value: -4, exact: true }],
};

test("a better move than the one played is right, even when it is not the best", () => {
  assert.deepEqual(judge(lesson, 2), { verdict: "best", value: 6 });
  assert.deepEqual(judge(lesson, 0), { verdict: "better", value: 1 });
  assert.deepEqual(judge(lesson, 4), { verdict: "played", value: -4 });
  assert.deepEqual(judge(lesson, 1), { verdict: "worse", value: -9 });
  assert.deepEqual(judge(lesson, 5), { verdict: "worse", value: -4 });  // as good as the game's move: not better
});

test("an estimate's lead within the slack is not better", () => {
  const estimated = { ...lesson, exact: false,
    move_values: lesson.move_values.map((m) => (m.move === 0 ? { move: 0, value: -3.75, exact: false } : { ...m, exact: false })) };
  assert.equal(judge(estimated, 0).verdict, "worse");  // 0.25 seeds above -4: noise
  const clearly = { ...estimated, move_values: [{ move: 0, value: -3, exact: false }] };
  assert.equal(judge(clearly, 0).verdict, "better");
});

test("a review stored before move values knows only the best moves", () => {
  const old = { ...lesson, move_values: undefined };
  assert.equal(knowsValues(old), false);
  assert.equal(judge(old, 0).verdict, "worse");
  assert.equal(judge(old, 2).verdict, "best");
  assert.equal(knowsValues(lesson), true);
});

test("lessons are your mistakes and blunders, else your inaccuracies", () => {
  const mine = { ...lesson, player: 0 }, theirs = { ...lesson, player: 1, number: 8 };
  const small = { ...lesson, class: "inaccuracy", number: 9 }, forced = { ...lesson, forced: true, number: 10 };
  assert.deepEqual(lessonsOf([mine, theirs, small, forced], [true, false]).map((m) => m.number), [7]);
  assert.deepEqual(lessonsOf([small, theirs], [true, false]).map((m) => m.number), [9]);
});
